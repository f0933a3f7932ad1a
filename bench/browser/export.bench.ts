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
 * Track audio is one stereo noise buffer shared by all tracks (the DSP cost does not depend on
 * which buffer a source plays; sharing keeps the bench at ~140 MB instead of ~1 GB).
 */
import { putMixerAudio } from '../../src/engine/mixer-audio.ts'
import { EFFECT_NAMES, MASTER_DEFAULTS, createTrack, type MixerState, type MixerTrack } from '../../src/engine/mixer-model.ts'
import { exportMixWav, renderMix } from '../../src/engine/offline-mix.ts'
import type { BenchResult } from '../types.ts'

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

async function timed<T>(work: () => Promise<T>): Promise<number> {
  const t0 = performance.now()
  await work()
  return (performance.now() - t0) / 1000
}

export async function run(): Promise<BenchResult[]> {
  // Warm-up: worklet module load, JIT of kernels and the WAV worker start.
  await exportMixWav(project(2, 2, true), { sampleRate: SR })

  const SECONDS = 180
  const full = project(8, SECONDS, true)
  const tExport = await timed(() => exportMixWav(full, { sampleRate: SR }))
  const tRender = await timed(() => renderMix(full, { sampleRate: SR }))
  const tSingle = await timed(() => renderMix(full, { sampleRate: SR, parallel: 1 }))
  const tBypass = await timed(() => renderMix(project(8, SECONDS, false), { sampleRate: SR }))

  const N = 32
  const LIVE_SECONDS = 10
  const tLive = await timed(() => renderMix(project(N, LIVE_SECONDS, true), { sampleRate: SR, parallel: 1 }))
  const capacity = N * (LIVE_SECONDS / tLive)

  return [
    { name: '(a) export 8 tracks x 3 min, every effect on', value: SECONDS / tExport, unit: 'x real time', detail: `${tExport.toFixed(2)} s incl. 16-bit WAV encode; target >= 20x` },
    { name: '    of which offline render (parallel)', value: SECONDS / tRender, unit: 'x real time', detail: `${tRender.toFixed(2)} s, ${Math.min(navigator.hardwareConcurrency || 2, 4)} contexts` },
    { name: '(a1) same render in one context', value: SECONDS / tSingle, unit: 'x real time', detail: `${tSingle.toFixed(2)} s` },
    { name: 'parallel speed-up (a1 / a render)', value: tSingle / tRender, unit: 'x', detail: 'same run' },
    { name: '(b) same 8 x 3 min render, effects off (baseline)', value: SECONDS / tBypass, unit: 'x real time', detail: `${tBypass.toFixed(2)} s` },
    { name: 'effects cost (a render / b)', value: tRender / tBypass, unit: 'x', detail: 'time with every effect on vs bypassed, same run' },
    { name: `(c) ${N} full tracks in one context`, value: LIVE_SECONDS / tLive, unit: 'x real time', detail: `${tLive.toFixed(2)} s for ${LIVE_SECONDS} s` },
    { name: 'live mixer: full tracks at 1x real time', value: capacity, unit: 'tracks', detail: `${N} x the ${N}-track render speed (one render thread)` },
    { name: 'live mixer: full tracks with 2x margin', value: capacity / 2, unit: 'tracks', detail: 'half the render budget left for master bus, player and jitter' },
  ]
}
