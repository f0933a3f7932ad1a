/**
 * Studio export and live-mixer capacity, through the app's own code (src/engine/offline-mix.ts →
 * buildMixGraph → one channel-strip worklet per track + master strip + limiter → WAV worker):
 *
 *   (a) export of an 8-track, 3-minute project at 48 kHz with every effect active (50 each,
 *       reverb 50, pans spread) — parallel render (one context per core) + 16-bit WAV encode, in
 *       times real time (target ≥ 20x);
 *   (a1) the same render in ONE context (the live graph as is): baseline for the parallel split;
 *   (b) the same project with every effect off (strips bypass their kernels): baseline, same run;
 *   (c) live capacity: a 10 s render of 32 full tracks (every effect on) in one context — one
 *       render thread, like the live context — extrapolated to how many tracks fit in real time,
 *       and with a 2x safety margin (the live render thread also carries the master bus,
 *       the player and main-thread jitter).
 * Wall time on this shared machine swings with other load, so each figure also reports the
 * browser's CPU seconds (bench/browser/cpu-time.ts); "CPU" figures are audio seconds per CPU
 * second, i.e. per fully available core, and the idle 2-core projection divides the parallel
 * export's CPU time by the 2 cores it spreads over.
 * Track audio is one stereo noise buffer shared by all tracks (the DSP cost does not depend on
 * which buffer a source plays; sharing keeps the bench at ~140 MB instead of ~1 GB).
 */
import { putMixerAudio } from '../../src/engine/mixer-audio.ts'
import { EFFECT_NAMES, MASTER_DEFAULTS, createTrack, type MixerState, type MixerTrack } from '../../src/engine/mixer-model.ts'
import { exportMixWav, renderMix } from '../../src/engine/offline-mix.ts'
import type { BenchResult } from '../types.ts'
import { cpuSeconds } from './cpu-time.ts'

const SR = 48000

function noiseChannel(frames: number, seed: number): Float32Array {
  const out = new Float32Array(frames)
  let s = seed >>> 0
  for (let i = 0; i < frames; i++) {
    s ^= s << 13
    s >>>= 0
    s ^= s >>> 17
    s ^= s << 5
    s >>>= 0
    out[i] = 0.25 * ((s / 4294967296) * 2 - 1)
  }
  return out
}

function project(tracks: number, seconds: number, effects: boolean): MixerState {
  const id = `bench-noise-${seconds}`
  putMixerAudio({ id, sampleRate: SR, channels: [noiseChannel(seconds * SR, 0x9e3779b9), noiseChannel(seconds * SR, 0x7f4a7c15)] })
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

const cpuNote = (t: Timing, audioSeconds: number) => (t.cpu !== null ? `; CPU ${t.cpu.toFixed(2)} s = ${(audioSeconds / t.cpu).toFixed(1)}x per core` : '')

export async function run(): Promise<BenchResult[]> {
  // Warm-up: worklet module load, JIT of kernels and the WAV worker start.
  await exportMixWav(project(2, 2, true), { sampleRate: SR })

  const SECONDS = 180
  const full = project(8, SECONDS, true)
  const ex = await timed(() => exportMixWav(full, { sampleRate: SR }))
  const par = await timed(() => renderMix(full, { sampleRate: SR }))
  const single = await timed(() => renderMix(full, { sampleRate: SR, parallel: 1 }))
  const bypass = await timed(() => renderMix(project(8, SECONDS, false), { sampleRate: SR }))

  const N = 32
  const LIVE_SECONDS = 10
  const live = await timed(() => renderMix(project(N, LIVE_SECONDS, true), { sampleRate: SR, parallel: 1 }))
  const liveSpeed = LIVE_SECONDS / (live.cpu ?? live.wall)
  const capacity = N * liveSpeed
  const contexts = Math.min(navigator.hardwareConcurrency || 2, 4)

  const results: BenchResult[] = [
    { name: '(a) export 8 tracks x 3 min, every effect on', value: SECONDS / ex.wall, unit: 'x real time', detail: `wall ${ex.wall.toFixed(2)} s incl. 16-bit WAV encode${cpuNote(ex, SECONDS)}; target >= 20x` },
  ]
  if (ex.cpu !== null)
    results.push({ name: '    projected on an idle 2-core machine', value: SECONDS / (ex.cpu / 2), unit: 'x real time', detail: 'CPU time spread over 2 cores (the render is split over 2 contexts)' })
  results.push(
    { name: '    of which offline render (parallel)', value: SECONDS / par.wall, unit: 'x real time', detail: `wall ${par.wall.toFixed(2)} s, ${contexts} contexts${cpuNote(par, SECONDS)}` },
    { name: '(a1) same render in one context', value: SECONDS / single.wall, unit: 'x real time', detail: `wall ${single.wall.toFixed(2)} s${cpuNote(single, SECONDS)}` },
    { name: 'parallel wall-time speed-up (a1 / a render)', value: single.wall / par.wall, unit: 'x', detail: 'same run; bounded by free cores' },
    { name: '(b) same 8 x 3 min render, effects off (baseline)', value: SECONDS / bypass.wall, unit: 'x real time', detail: `wall ${bypass.wall.toFixed(2)} s${cpuNote(bypass, SECONDS)}` },
    { name: 'effects cost (a render / b)', value: (par.cpu ?? par.wall) / (bypass.cpu ?? bypass.wall), unit: 'x', detail: `${par.cpu !== null ? 'CPU' : 'wall'} time with every effect on vs bypassed, same run` },
    { name: `(c) ${N} full tracks in one context`, value: LIVE_SECONDS / live.wall, unit: 'x real time', detail: `wall ${live.wall.toFixed(2)} s for ${LIVE_SECONDS} s${cpuNote(live, LIVE_SECONDS)}` },
    { name: 'live mixer: full tracks at 1x real time', value: capacity, unit: 'tracks', detail: `${N} x the ${N}-track render speed per core (${live.cpu !== null ? 'CPU' : 'wall'} time; one render thread)` },
    { name: 'live mixer: full tracks with 2x margin', value: capacity / 2, unit: 'tracks', detail: 'half the render budget left for master bus, player and jitter' },
  )
  return results
}
