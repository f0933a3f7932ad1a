/**
 * Studio export and live-mixer capacity, through the app's own code (src/engine/offline-mix.ts):
 *
 *   (a) export of an 8-track, 3-minute project at 48 kHz with every effect active (50 each,
 *       reverb 50, pans spread), as the Export button runs it: the tracks' channel strips in a
 *       pool of workers (one per core), the master strip in a worker and the master bus in a
 *       native OfflineAudioContext, then the 16-bit WAV encode, in times real time (target >= 50x);
 *   (a1) the same render as the live graph in one OfflineAudioContext (one channel-strip worklet
 *       per track: the reference the export is tested against, and the export before the
 *       workers), same run, and the speed-up of (a)'s render over it;
 *   (p) why the workers: a minimal CPU-bound AudioWorklet rendered in one offline context alone,
 *       then two such contexts started together, and the same with native nodes only. Chromium
 *       renders every offline context that holds a worklet on one shared thread per page, so
 *       "two together" takes as long as both one after the other there;
 *   (b) the same project with every effect off (strips bypass their kernels): baseline, same run;
 *   (c) live capacity: a 10 s render of 32 full tracks (every effect on) as the live graph in one
 *       context (one render thread, like the live context), extrapolated to how many tracks fit in
 *       real time, and with a 2x safety margin (the live render thread also carries the master
 *       bus, the player and main-thread jitter).
 * Wall time on this shared machine swings with other load, so each figure also reports the
 * browser's CPU seconds (bench/browser/cpu-time.ts) as audio seconds per CPU second. The export
 * uses several cores, so its CPU figure is per core and its wall figure is the one that counts.
 * Track audio is one stereo noise buffer shared by all tracks (the DSP cost does not depend on
 * which buffer a source plays; the export copies each track's audio to a worker all the same).
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
  putMixerAudio({
    id,
    sampleRate: SR,
    channels: [noiseChannel(seconds * SR, 0x9e3779b9, 0.25), noiseChannel(seconds * SR, 0x7f4a7c15, 0.25)],
  })
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
    for (const ch of outputs[0])
      for (let i = 0; i < ch.length; i++) {
        for (let k = 0; k < 60; k++) x = Math.sin(x + k * 1e-3)
        ch[i] = x * 1e-3
      }
    return true
  }
})`

type Start = () => Promise<number>

const timeRendering =
  (ctx: OfflineAudioContext): Start =>
  () => {
    const t0 = performance.now()
    return ctx.startRendering().then(() => (performance.now() - t0) / 1000)
  }

async function probeWorkletRender(seconds: number): Promise<Start> {
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length: seconds * SR, sampleRate: SR })
  await ctx.audioWorklet.addModule(URL.createObjectURL(new Blob([PROBE_WORKLET], { type: 'text/javascript' })))
  for (let i = 0; i < 2; i++) new AudioWorkletNode(ctx, 'probe-burn', { outputChannelCount: [2] }).connect(ctx.destination)
  return timeRendering(ctx)
}

async function probeNativeRender(seconds: number): Promise<Start> {
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length: seconds * SR, sampleRate: SR })
  const osc = ctx.createOscillator()
  osc.start()
  let node: AudioNode = osc
  for (let i = 0; i < 400; i++) {
    const b = ctx.createBiquadFilter()
    b.frequency.value = 200 + i
    node.connect(b)
    node = b
  }
  node.connect(ctx.destination)
  return timeRendering(ctx)
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
  const S = 10
  const worklet = await alongside(() => [probeWorkletRender(S), probeWorkletRender(S)])
  const native = await alongside(() => [probeNativeRender(S), probeNativeRender(S)])
  const row = (name: string, r: { alone: number; together: number }, what: string): BenchResult => ({
    name,
    value: r.alone / r.together,
    unit: 'x',
    detail: `2 renders: ${r.alone.toFixed(2)} s one after the other, ${r.together.toFixed(2)} s started together; ${what}`,
  })
  return [
    row('(p) 2 offline worklet contexts in one page: speed-up', worklet, '~1x = one shared worklet render thread'),
    row('    2 offline contexts, native nodes only', native, '~2x on 2 free cores = one render thread per context'),
  ]
}

const cpuNote = (t: Timing, audioSeconds: number) =>
  t.cpu !== null ? `; CPU ${t.cpu.toFixed(2)} s = ${(audioSeconds / t.cpu).toFixed(1)}x per core` : ''

export async function run(): Promise<BenchResult[]> {
  // First, while the page is fresh: the probe's contexts are small and independent of our code.
  const probe = await threadProbe()
  // Warm-up: worklet module load, JIT of kernels, the stem and WAV workers' start.
  await exportMixWav(project(2, 2, true), { sampleRate: SR })
  await renderMix(project(2, 2, true), { sampleRate: SR, engine: 'graph' })

  const SECONDS = 180
  const full = project(8, SECONDS, true)
  const ex = await timed(() => exportMixWav(full, { sampleRate: SR }))
  const render = await timed(() => renderMix(full, { sampleRate: SR }))
  const graph = await timed(() => renderMix(full, { sampleRate: SR, engine: 'graph' }))
  const bypass = await timed(() => renderMix(project(8, SECONDS, false), { sampleRate: SR }))

  const N = 32
  const LIVE_SECONDS = 10
  const live = await timed(() => renderMix(project(N, LIVE_SECONDS, true), { sampleRate: SR, engine: 'graph' }))
  const liveSpeed = LIVE_SECONDS / (live.cpu ?? live.wall)
  const capacity = N * liveSpeed
  const cores = navigator.hardwareConcurrency

  return [
    {
      name: '(a) export 8 tracks x 3 min, every effect on',
      value: SECONDS / ex.wall,
      unit: 'x real time',
      detail: `wall ${ex.wall.toFixed(2)} s incl. 16-bit WAV encode, ${cores} cores${cpuNote(ex, SECONDS)}; target >= 50x`,
    },
    {
      name: '    of which the render (strips in workers + master bus)',
      value: SECONDS / render.wall,
      unit: 'x real time',
      detail: `wall ${render.wall.toFixed(2)} s${cpuNote(render, SECONDS)}`,
    },
    {
      name: '(a1) the same render as the live graph in one context',
      value: SECONDS / graph.wall,
      unit: 'x real time',
      detail: `wall ${graph.wall.toFixed(2)} s${cpuNote(graph, SECONDS)}`,
    },
    {
      name: '    export render speed-up over the graph (a1 / a render)',
      value: render.wall ? graph.wall / render.wall : 0,
      unit: 'x',
      detail: 'wall time, same run',
    },
    {
      name: '(b) same 8 x 3 min render, effects off (baseline)',
      value: SECONDS / bypass.wall,
      unit: 'x real time',
      detail: `wall ${bypass.wall.toFixed(2)} s${cpuNote(bypass, SECONDS)}`,
    },
    {
      name: 'effects cost (a render / b)',
      value: (render.cpu ?? render.wall) / (bypass.cpu ?? bypass.wall),
      unit: 'x',
      detail: `${render.cpu !== null ? 'CPU' : 'wall'} time with every effect on vs bypassed, same run`,
    },
    {
      name: `(c) ${N} full tracks in one context (live graph)`,
      value: LIVE_SECONDS / live.wall,
      unit: 'x real time',
      detail: `wall ${live.wall.toFixed(2)} s for ${LIVE_SECONDS} s${cpuNote(live, LIVE_SECONDS)}`,
    },
    {
      name: 'live mixer: full tracks at 1x real time',
      value: capacity,
      unit: 'tracks',
      detail: `${N} x the ${N}-track render speed per core (${live.cpu !== null ? 'CPU' : 'wall'} time; one render thread)`,
    },
    {
      name: 'live mixer: full tracks with 2x margin',
      value: capacity / 2,
      unit: 'tracks',
      detail: 'half the render budget left for master bus, player and jitter',
    },
    ...probe,
  ]
}
