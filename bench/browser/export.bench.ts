/**
 * Studio export and live-mixer capacity, through the app's own code (src/engine/offline-mix.ts →
 * buildMixGraph → one channel-strip worklet per track + master strip + limiter → WAV worker):
 *
 *   (a) export of an 8-track, 3-minute project at 48 kHz with every effect active (50 each,
 *       reverb 50, pans spread) — render in one context (the live graph as is, the export's
 *       default) + 16-bit WAV encode, in times real time (target ≥ 20x);
 *   (a1) the same render split over 2 contexts (renderMix parallel: 2) vs one context, same run;
 *   (p) worklet-thread probe: why (a1) gains nothing. A minimal CPU-bound AudioWorklet rendered in
 *       one offline context alone, then two such contexts started together; the same with native
 *       nodes only (biquad chain); and one worklet context in the page plus one in a sandboxed
 *       iframe (opaque origin → its own renderer process in Chromium). Chromium renders an
 *       offline context that has a worklet on the worklet's thread, shared by every offline
 *       worklet context of the process, so "two together" takes twice as long as "alone" there.
 *   (b) the same project with every effect off (strips bypass their kernels): baseline, same run;
 *   (c) live capacity: a 10 s render of 32 full tracks (every effect on) in one context — one
 *       render thread, like the live context — extrapolated to how many tracks fit in real time,
 *       and with a 2x safety margin (the live render thread also carries the master bus,
 *       the player and main-thread jitter).
 * Wall time on this shared machine swings with other load, so each figure also reports the
 * browser's CPU seconds (bench/browser/cpu-time.ts); "CPU" figures are audio seconds per CPU
 * second, i.e. per fully available core. The export renders on one thread (see (p)), so its
 * CPU figure is also what it would reach on an idle machine; there is no 2-core projection.
 * Track audio is one stereo noise buffer shared by all tracks (the DSP cost does not depend on
 * which buffer a source plays; sharing keeps the bench at ~140 MB instead of ~1 GB).
 */
import { putMixerAudio } from '../../src/engine/mixer-audio.ts'
import { EFFECT_NAMES, MASTER_DEFAULTS, createTrack, type MixerState, type MixerTrack } from '../../src/engine/mixer-model.ts'
import { exportMixWav, renderMix } from '../../src/engine/offline-mix.ts'
import type { BenchResult } from '../types.ts'
import { cpuSeconds } from './cpu-time.ts'
import { noiseChannel } from './noise.ts'

const SR = 48000

function project(tracks: number, seconds: number, effects: boolean): MixerState {
  const id = `bench-noise-${seconds}`
  putMixerAudio({ id, sampleRate: SR, channels: [noiseChannel(seconds * SR, 0x9e3779b9, 0.25), noiseChannel(seconds * SR, 0x7f4a7c15, 0.25)] })
  const list: MixerTrack[] = []
  for (let i = 0; i < tracks; i++) {
    const t = createTrack({ id: `t${i}`, name: `Track ${i + 1}`, type: 'main', audioId: id, duration: seconds })
    t.pan = Math.round(-40 + (80 * i) / Math.max(1, tracks - 1))
    t.reverb = effects ? 50 : 0
    for (const e of EFFECT_NAMES) t.effects[e] = effects ? 50 : 0
    list.push(t)
  }
  return { tracks: list, master: { ...MASTER_DEFAULTS } }
}

interface Timing {
  wall: number
  cpu: number | null
}

async function timed<T>(work: () => Promise<T>): Promise<Timing> {
  const c0 = await cpuSeconds()
  const t0 = performance.now()
  await work()
  const wall = (performance.now() - t0) / 1000
  const c1 = await cpuSeconds()
  return { wall, cpu: c0 !== null && c1 !== null ? c1 - c0 : null }
}

// A fixed amount of arithmetic per sample; the probe measures threads, not our DSP.
const PROBE_WORKLET = `registerProcessor('probe-burn', class extends AudioWorkletProcessor {
  process(inputs, outputs) {
    let x = 0.1
    for (const ch of outputs[0]) for (let i = 0; i < ch.length; i++) { for (let k = 0; k < 60; k++) x = Math.sin(x + k * 1e-3); ch[i] = x * 1e-3 }
    return true
  }
})`

// Runs inside the probe pages (this one and the sandboxed iframe); plain JS so it can be inlined.
const PROBE_SCRIPT = `
window.probeWorkletRender = async (seconds) => {
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length: seconds * ${SR}, sampleRate: ${SR} })
  await ctx.audioWorklet.addModule(URL.createObjectURL(new Blob([${JSON.stringify(PROBE_WORKLET)}], { type: 'text/javascript' })))
  for (let i = 0; i < 2; i++) new AudioWorkletNode(ctx, 'probe-burn', { outputChannelCount: [2] }).connect(ctx.destination)
  return () => { const t0 = performance.now(); return ctx.startRendering().then(() => (performance.now() - t0) / 1000) }
}
window.probeNativeRender = async (seconds) => {
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length: seconds * ${SR}, sampleRate: ${SR} })
  let node = ctx.createOscillator()
  node.start()
  for (let i = 0; i < 400; i++) { const b = ctx.createBiquadFilter(); b.frequency.value = 200 + i; node.connect(b); node = b }
  node.connect(ctx.destination)
  return () => { const t0 = performance.now(); return ctx.startRendering().then(() => (performance.now() - t0) / 1000) }
}
window.addEventListener('message', async (e) => {
  if (e.data?.probe !== 'worklet' || e.source !== parent) return
  const start = await window.probeWorkletRender(e.data.seconds)
  parent.postMessage({ probeReady: true }, '*')
  window.addEventListener('message', async (go) => { if (go.data?.probe === 'go') parent.postMessage({ probeDone: await start() }, '*') }, { once: true })
})`

type Start = () => Promise<number>
interface ProbeWindow {
  probeWorkletRender(seconds: number): Promise<Start>
  probeNativeRender(seconds: number): Promise<Start>
}

/** A worklet render prepared in a sandboxed iframe; resolves to a starter like the page's own. */
async function sandboxedWorkletRender(seconds: number): Promise<{ start: Start; remove: () => void }> {
  const frame = document.createElement('iframe')
  frame.setAttribute('sandbox', 'allow-scripts')
  frame.srcdoc = `<!doctype html><script>${PROBE_SCRIPT.replace(/<\//g, '<\\/')}</script>`
  const loaded = new Promise((ok) => (frame.onload = ok))
  document.body.append(frame)
  await loaded
  const next = <T>(key: string) =>
    new Promise<T>((ok) => {
      const on = (e: MessageEvent) => {
        if (e.source !== frame.contentWindow || !(key in (e.data as object))) return
        window.removeEventListener('message', on)
        ok((e.data as Record<string, T>)[key]!)
      }
      window.addEventListener('message', on)
    })
  const ready = next<boolean>('probeReady')
  frame.contentWindow!.postMessage({ probe: 'worklet', seconds }, '*')
  await ready
  return {
    start: () => {
      const done = next<number>('probeDone')
      frame.contentWindow!.postMessage({ probe: 'go' }, '*')
      return done
    },
    remove: () => frame.remove(),
  }
}

/** Seconds for each render alone (one after the other), then for all started together (wall). */
async function alongside(prepare: () => Promise<Start>[]): Promise<{ alone: number; together: number }> {
  let alone = 0
  for (const p of prepare()) alone += await (await p)()
  const starts = await Promise.all(prepare())
  const t0 = performance.now()
  await Promise.all(starts.map((s) => s()))
  return { alone, together: (performance.now() - t0) / 1000 }
}

async function threadProbe(): Promise<BenchResult[]> {
  const w = window as unknown as ProbeWindow
  if (!('probeWorkletRender' in w)) new Function(PROBE_SCRIPT)()
  const S = 10
  const worklet = await alongside(() => [w.probeWorkletRender(S), w.probeWorkletRender(S)])
  const native = await alongside(() => [w.probeNativeRender(S), w.probeNativeRender(S)])
  const frames: Array<() => void> = []
  const sandboxed = await alongside(() => [
    w.probeWorkletRender(S),
    sandboxedWorkletRender(S).then((f) => {
      frames.push(f.remove)
      return f.start
    }),
  ])
  frames.forEach((r) => r())
  const row = (name: string, r: { alone: number; together: number }, what: string): BenchResult => ({
    name,
    value: r.alone / r.together,
    unit: 'x',
    detail: `2 renders: ${r.alone.toFixed(2)} s one after the other, ${r.together.toFixed(2)} s started together; ${what}`,
  })
  return [
    row('(p) 2 offline worklet contexts in one page: speed-up', worklet, '~1x = one shared worklet render thread'),
    row('    2 offline contexts, native nodes only', native, '~2x on 2 free cores = one render thread per context'),
    row('    worklet context in page + one in sandboxed iframe', sandboxed, '> 1x = separate process, separate thread'),
  ]
}

const cpuNote = (t: Timing, audioSeconds: number) => (t.cpu !== null ? `; CPU ${t.cpu.toFixed(2)} s = ${(audioSeconds / t.cpu).toFixed(1)}x per core` : '')

export async function run(): Promise<BenchResult[]> {
  // First, while the page is fresh: the probe's contexts are small and independent of our code.
  const probe = await threadProbe()
  // Warm-up: worklet module load, JIT of kernels and the WAV worker start.
  await exportMixWav(project(2, 2, true), { sampleRate: SR })

  const SECONDS = 180
  const full = project(8, SECONDS, true)
  const ex = await timed(() => exportMixWav(full, { sampleRate: SR }))
  const single = await timed(() => renderMix(full, { sampleRate: SR }))
  const split = await timed(() => renderMix(full, { sampleRate: SR, parallel: 2 }))
  const bypass = await timed(() => renderMix(project(8, SECONDS, false), { sampleRate: SR }))

  const N = 32
  const LIVE_SECONDS = 10
  const live = await timed(() => renderMix(project(N, LIVE_SECONDS, true), { sampleRate: SR, parallel: 1 }))
  const liveSpeed = LIVE_SECONDS / (live.cpu ?? live.wall)
  const capacity = N * liveSpeed

  const results: BenchResult[] = [
    { name: '(a) export 8 tracks x 3 min, every effect on', value: SECONDS / ex.wall, unit: 'x real time', detail: `wall ${ex.wall.toFixed(2)} s incl. 16-bit WAV encode${cpuNote(ex, SECONDS)}; target >= 20x` },
    { name: '    of which offline render (one context)', value: SECONDS / single.wall, unit: 'x real time', detail: `wall ${single.wall.toFixed(2)} s${cpuNote(single, SECONDS)}` },
    { name: '(a1) same render split over 2 contexts', value: SECONDS / split.wall, unit: 'x real time', detail: `wall ${split.wall.toFixed(2)} s${cpuNote(split, SECONDS)}` },
    { name: '    split wall-time speed-up (one / split)', value: split.wall ? single.wall / split.wall : 0, unit: 'x', detail: 'same run; see (p) for why it stays ~1x in Chromium' },
    { name: '(b) same 8 x 3 min render, effects off (baseline)', value: SECONDS / bypass.wall, unit: 'x real time', detail: `wall ${bypass.wall.toFixed(2)} s${cpuNote(bypass, SECONDS)}` },
    { name: 'effects cost (a render / b)', value: (single.cpu ?? single.wall) / (bypass.cpu ?? bypass.wall), unit: 'x', detail: `${single.cpu !== null ? 'CPU' : 'wall'} time with every effect on vs bypassed, same run` },
    { name: `(c) ${N} full tracks in one context`, value: LIVE_SECONDS / live.wall, unit: 'x real time', detail: `wall ${live.wall.toFixed(2)} s for ${LIVE_SECONDS} s${cpuNote(live, LIVE_SECONDS)}` },
    { name: 'live mixer: full tracks at 1x real time', value: capacity, unit: 'tracks', detail: `${N} x the ${N}-track render speed per core (${live.cpu !== null ? 'CPU' : 'wall'} time; one render thread)` },
    { name: 'live mixer: full tracks with 2x margin', value: capacity / 2, unit: 'tracks', detail: 'half the render budget left for master bus, player and jitter' },
    ...probe,
  ]
  return results
}
