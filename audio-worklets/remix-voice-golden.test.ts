/**
 * The remix voice's output, pinned to the bit: a fixed stereo input (a sung-like tone with vibrato
 * that glides between notes, then noise, then silence, on a loop region with a sample layer) runs
 * through the voice while the controls change quantum by quantum (Auto Tune and Harmonize switched
 * on and off, retune speed, harmony level, key and mode, a seek), and the SHA-256 of the output's
 * float32 bytes must be the one the per-sample kernels produced before they were made blockwise
 * (and allocation-free). The per-sample entry points the kernel tests use (DelayShifter.next,
 * Harmonizer.next, PitchTracker.push, AutoTune.process) are pinned the same way.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { AutoTune } from './kernels/auto-tune.ts'
import { DelayShifter } from './kernels/delay-shifter.ts'
import { Harmonizer } from './kernels/harmonizer.ts'
import { PitchTracker } from './kernels/pitch-tracker.ts'
import { RemixToolsChain } from './remix-tools-chain.ts'
import { processRemixToolsQuantum, setRemixToolControls } from './remix-tools-quantum.ts'
import { RemixVoiceChain } from './remix-voice-chain.ts'
import { REMIX_VOICE_PARAM_NAMES } from './remix-voice-params.ts'
import { processRemixVoiceQuantum, setRemixVoiceControls } from './remix-voice-quantum.ts'

const SR = 48_000
const Q = 128
const SECONDS = 6

const hash = (...arrays: (Float32Array | Float64Array)[]): string => {
  const h = createHash('sha256')
  for (const a of arrays) h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
  return h.digest('hex')
}

/** A voice-like tone: 220 Hz → 247 Hz → 196 Hz glides, 5 Hz vibrato, three harmonics; noise from 4 s; silence from 5 s. */
function source(channel: number): Float32Array {
  const x = new Float32Array(SECONDS * SR)
  let phase = 0
  let s = 17 + channel
  for (let i = 0; i < x.length; i++) {
    const t = i / SR
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31
    const noise = (s / 2 ** 31) * 2 - 1
    if (t >= 5) continue
    if (t >= 4) {
      x[i] = 0.3 * noise
      continue
    }
    const base = t < 1.3 ? 220 : t < 2.6 ? 220 + (t - 1.3) * 60 : 196
    const hz = base * 2 ** ((0.3 * Math.sin(2 * Math.PI * 5 * t)) / 12)
    phase += (2 * Math.PI * hz) / SR
    x[i] = (channel === 0 ? 0.5 : 0.45) * Math.sin(phase) + 0.2 * Math.sin(2 * phase + 0.3) + 0.1 * Math.sin(3 * phase) + 0.01 * noise
  }
  return x
}

/** The controls for quantum q: every tool switched, glided and re-keyed along the way. */
function controls(q: number, into: Record<string, Float32Array>): void {
  const set = (name: string, v: number) => (into[name]![0] = v)
  set('autoTune', q % 600 < 380 ? 1 : 0)
  set('harmonize', (q + 150) % 500 < 300 ? 1 : 0)
  set('retune', q < 700 ? 80 : q < 1400 ? 100 : 30)
  set('harmonyMix', q < 900 ? 50 : 85)
  set('tonic', q < 1100 ? 9 : 7)
  set('mode', q < 1600 ? 0 : 1)
  set('drums', q < 300 ? 0 : 60)
  set('bass', q % 400 < 200 ? 100 : 0)
  set('synth', 0)
}

function renderVoice(): Float32Array[] {
  const loop = Float32Array.from({ length: 9000 }, (_, i) => Math.sin(i / 30) * Math.exp(-i / 3000))
  const voice = new RemixVoiceChain(SR, {
    source: [source(0), source(1)],
    layers: { drums: { loop, firstBeat: 0.25, period: 0.5 }, bass: { loop, firstBeat: 0.1, period: 0.37 } },
    playing: true,
    position: 0,
  })
  const params: Record<string, Float32Array> = Object.fromEntries(REMIX_VOICE_PARAM_NAMES.map((n) => [n, new Float32Array(1)]))
  const quanta = 2400
  const outL = new Float32Array(quanta * Q)
  const outR = new Float32Array(quanta * Q)
  const l = new Float32Array(Q)
  const r = new Float32Array(Q)
  for (let q = 0; q < quanta; q++) {
    controls(q, params)
    setRemixVoiceControls(voice, params)
    if (q === 0) voice.snap()
    if (q === 1000) voice.setLoop(2.5 * SR, 5.5 * SR)
    if (q === 2000) voice.seek(3.9 * SR)
    processRemixVoiceQuantum(voice, l, r, Q)
    outL.set(l, q * Q)
    outR.set(r, q * Q)
  }
  return [outL, outR]
}

function renderTools(): Float32Array[] {
  const chain = new RemixToolsChain(SR)
  const params: Record<string, Float32Array> = Object.fromEntries(REMIX_VOICE_PARAM_NAMES.map((n) => [n, new Float32Array(1)]))
  const inL = source(0)
  const quanta = 1500
  const outL = new Float32Array(quanta * Q)
  const outR = new Float32Array(quanta * Q)
  const l = new Float32Array(Q)
  const r = new Float32Array(Q)
  for (let q = 0; q < quanta; q++) {
    controls(q + 200, params)
    setRemixToolControls(chain, params)
    if (q === 0) chain.snap()
    // Mono in (inR = inL), and a stretch with nothing connected.
    const x = inL.subarray(q * Q, (q + 1) * Q)
    processRemixToolsQuantum(chain, q % 700 < 600 ? x : undefined, q % 700 < 600 ? x : undefined, l, r, Q)
    outL.set(l, q * Q)
    outR.set(r, q * Q)
  }
  return [outL, outR]
}

function renderKernels(): Float64Array[] {
  const x = source(0).subarray(0, 2 * SR)
  const shifted = new Float64Array(x.length)
  const right = new Float64Array(x.length)
  const stereo = new DelayShifter(SR, 2)
  for (let i = 0; i < x.length; i++) {
    shifted[i] = stereo.next(x[i]!, i < SR / 2 ? 1 : i < SR ? 1.12 : 0.9, i < 1.5 * SR ? SR / 220 : 0, -x[i]!)
    right[i] = stereo.right
  }
  const tracker = new PitchTracker(SR)
  const h = new Harmonizer(SR)
  h.setKey(9, 0)
  const voices = new Float64Array(x.length)
  const estimates = new Float64Array(x.length)
  for (let i = 0; i < x.length; i++) {
    if (tracker.push(x[i]!)) h.update(tracker.hz)
    estimates[i] = tracker.hz + tracker.period + tracker.clarity
    if (i % 9000 < 7000) voices[i] = h.next(x[i]!, tracker.period)
    else h.feed(x[i]!)
  }
  const tuned = new Float32Array(x.length)
  new AutoTune({ sampleRate: SR, scale: [9, 11, 1, 2, 4, 6, 8], retuneMs: 20 }).process(x, tuned)
  return [shifted, right, voices, estimates, Float64Array.from(tuned)]
}

describe('the remix voice renders the same bits as before its kernels were made blockwise', () => {
  it('the whole voice: source, loop, seek, layers, every tool switched and glided', () => {
    expect(hash(...renderVoice())).toBe('264f182ca9cdc0a257b94cbf36b918a1db89730a471b8b23fe21b38084efeac4')
  })

  it('the remix tools chain alone, mono input and nothing connected', () => {
    expect(hash(...renderTools())).toBe('b2878c2df8ecffdcd0e9dc3d5662037ccb09b3bd7551ee8da3e515a27ed49bea')
  })

  it('the per-sample entry points: DelayShifter.next, PitchTracker.push, Harmonizer.next/feed, AutoTune.process', () => {
    expect(hash(...renderKernels())).toBe('29f050d9aa2624ccf680f4c269c3ed919a55a2d93269ee5b874caca673d06b0b')
  })
})
