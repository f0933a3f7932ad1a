/**
 * The instrument engine's offline half: a composer Score (or any MIDI event list) played by the
 * SoundFont synthesizer (spessasynth_core, GM bank from gm-bank.ts) into an AudioBuffer, plus the
 * description's ambience layers.
 *
 *   renderInstrumentScore(score, { sampleRate?, from?, to?, parts?, ambience?, onProgress?, signal? })
 *   renderSynthEvents(events, frames, { sampleRate, effects, ... })   the bare synthesizer
 *
 * It runs the same SoundfontSequence on the same 128-frame grid as the live AudioWorklet
 * (audio-worklets/soundfont-processor.ts), so an export equals what was heard. It yields to the
 * event loop every few hundred quanta so the page stays responsive, and is deterministic: the same
 * score gives the same samples.
 */
import type { Score } from '../../../workers/composer/score.ts'
import { SoundfontSequence, type SynthEvent } from '../../../audio-worklets/soundfont-sequence.ts'
import { RENDER_QUANTUM_FRAMES } from '../../../audio-worklets/render-quantum.ts'
import { loadGmSoundBank } from './gm-bank.ts'
import { scoreToSynthEvents, type InstrumentPart } from './score-midi.ts'
import { addAmbience, ambienceOf } from './ambience.ts'

export const INSTRUMENT_RENDER_RATE = 44100
const PEAK_TARGET = 0.891 // -1 dBFS, as the synthetic renderer
// About 0.75 s of audio per task: a few tens of milliseconds of work between yields to the page.
const QUANTA_PER_SLICE = 256

export interface SynthRenderOptions {
  sampleRate: number
  /** The synthesizer's reverb and chorus. */
  effects?: boolean
  onProgress?: (fraction: number) => void
  signal?: AbortSignal
}

const abortError = () => new DOMException('Rendering was cancelled', 'AbortError')
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/** Plays events (sorted by frame) for frames samples; returns left and right. */
export async function renderSynthEvents(
  events: readonly SynthEvent[],
  frames: number,
  options: SynthRenderOptions,
): Promise<[Float32Array<ArrayBuffer>, Float32Array<ArrayBuffer>]> {
  const { SpessaSynthProcessor } = await import('spessasynth_core')
  const bank = await loadGmSoundBank()
  const synth = new SpessaSynthProcessor(options.sampleRate, { effectsEnabled: options.effects ?? true, eventsEnabled: false })
  await synth.processorInitialized
  synth.soundBankManager.addSoundBank(bank, 'gm')
  const sequence = new SoundfontSequence(synth, events)
  const left = new Float32Array(frames)
  const right = new Float32Array(frames)
  // Quantum-sized scratch as an AudioWorklet's outputs: the synthesizer's effect buffers are one quantum long.
  const l = new Float32Array(RENDER_QUANTUM_FRAMES)
  const r = new Float32Array(RENDER_QUANTUM_FRAMES)
  let quanta = 0
  for (let at = 0; at < frames; at += RENDER_QUANTUM_FRAMES) {
    l.fill(0)
    r.fill(0)
    sequence.renderQuantum(l, r, 0, RENDER_QUANTUM_FRAMES)
    const n = Math.min(RENDER_QUANTUM_FRAMES, frames - at)
    left.set(n === RENDER_QUANTUM_FRAMES ? l : l.subarray(0, n), at)
    right.set(n === RENDER_QUANTUM_FRAMES ? r : r.subarray(0, n), at)
    if (++quanta % QUANTA_PER_SLICE === 0) {
      options.onProgress?.(at / frames)
      await nextTask()
      if (options.signal?.aborted) throw abortError()
    }
  }
  // No destroySynthProcessor(): it would destroy the shared bank too; the synthesizer is simply dropped.
  return [left, right]
}

export interface InstrumentRenderOptions {
  sampleRate?: number
  from?: number
  to?: number
  parts?: readonly InstrumentPart[]
  /** Mix in the description's ambience (rain, vinyl, city); default true when all parts render. */
  ambience?: boolean
  /** Peak-normalise to -1 dBFS (default true). */
  normalise?: boolean
  onProgress?: (fraction: number) => void
  signal?: AbortSignal
}

export async function renderInstrumentScore(score: Score, options: InstrumentRenderOptions = {}): Promise<AudioBuffer> {
  const { signal } = options
  if (signal?.aborted) throw abortError()
  const sampleRate = options.sampleRate ?? INSTRUMENT_RENDER_RATE
  const from = Math.max(0, options.from ?? 0)
  const to = Math.min(score.renderDuration, options.to ?? score.renderDuration)
  if (!(to > from)) throw new RangeError('Render window is empty')
  const frames = Math.ceil((to - from) * sampleRate)
  const events = scoreToSynthEvents(score, { sampleRate, from, to, parts: options.parts })
  const [left, right] = await renderSynthEvents(events, frames, {
    sampleRate,
    effects: true,
    signal,
    onProgress: options.onProgress && ((f) => options.onProgress!(0.98 * f)),
  })
  if (options.ambience ?? !options.parts) {
    const peak = peakOf(left, right)
    const layers = ambienceOf(score.description)
    // The layers' levels are relative to the music's peak, so scale the music to 1 first.
    if (layers.length && peak > 1e-6) {
      scale(left, right, 1 / peak)
      addAmbience(layers, left, right, sampleRate, score.seed)
    }
  }
  if (options.normalise ?? true) {
    const peak = peakOf(left, right)
    if (peak > 1e-6) scale(left, right, PEAK_TARGET / peak)
  }
  const buffer = new AudioBuffer({ numberOfChannels: 2, length: frames, sampleRate })
  buffer.copyToChannel(left, 0)
  buffer.copyToChannel(right, 1)
  options.onProgress?.(1)
  return buffer
}

function peakOf(left: Float32Array, right: Float32Array): number {
  let peak = 0
  for (let i = 0; i < left.length; i++) peak = Math.max(peak, Math.abs(left[i]!), Math.abs(right[i]!))
  return peak
}

function scale(left: Float32Array, right: Float32Array, gain: number): void {
  for (let i = 0; i < left.length; i++) {
    left[i]! *= gain
    right[i]! *= gain
  }
}
