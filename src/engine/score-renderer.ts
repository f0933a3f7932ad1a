/**
 * Renders a composer Score to audio offline with Tone.js.
 *
 *   renderScore(score, { onProgress?, signal?, sampleRate?, from?, to? }): Promise<AudioBuffer>
 *
 * - The whole piece (or the window [from, to) seconds, for tests and previews) is scheduled up front
 *   on a Tone OfflineContext wrapping a native OfflineAudioContext; progress comes from suspend points
 *   every half second of audio, and an aborted signal stops rendering at the next one.
 * - Tone is imported lazily so it never enters a bundle that does not render.
 * - The result is peak-normalised to -1 dBFS. Rendering is deterministic: the same score gives the
 *   same samples (drum noise and reverb are seeded, nothing uses Math.random).
 */
import type { NoteEvent, Score } from '../../workers/composer/index.ts'
import { bassVoice, chordVoice, leadVoice, padVoice, type Voice } from './score-instruments.ts'
import { kitSound, reverbImpulse, synthesiseDrum } from './score-drums.ts'

type ToneModule = typeof import('tone')

export interface RenderOptions {
  sampleRate?: number
  /** 0 … 1 as rendering advances. */
  onProgress?: (fraction: number) => void
  signal?: AbortSignal
  /** Render only this window of the piece (seconds); defaults to the whole score with its tail. */
  from?: number
  to?: number
  /** Render only these parts (default: all), e.g. the drums alone for a library loop. */
  parts?: readonly ScorePart[]
}

export type ScorePart = 'melody' | 'chords' | 'pad' | 'bass' | 'drums'

export const DEFAULT_RENDER_RATE = 44100
const PROGRESS_STEP_SECONDS = 0.5
const PEAK_TARGET = 0.891 // -1 dBFS

/** Lowpass cutoff for a brightness of 0 … 1: about 400 Hz to 16 kHz, logarithmically. */
export const brightnessToCutoff = (brightness: number): number => 400 * Math.pow(2, 5.3 * Math.min(1, Math.max(0, brightness)))

const midiToFrequency = (midi: number): number => 440 * Math.pow(2, (midi - 69) / 12)

function abortError(): DOMException {
  return new DOMException('Rendering was cancelled', 'AbortError')
}

/** Assigns notes to a pool of monophonic voices: a free voice if any, otherwise the one that frees first. */
function playOnPool(pool: Voice[], notes: NoteEvent[], shift: number, from: number, to: number): void {
  const busyUntil = pool.map(() => -Infinity)
  for (const n of notes) {
    if (n.time < from || n.time >= to) continue
    const t = n.time - shift
    let idx = busyUntil.findIndex((end) => end <= t + 1e-6)
    if (idx < 0) idx = busyUntil.indexOf(Math.min(...busyUntil))
    busyUntil[idx] = t + n.duration
    pool[idx]!.trigger(midiToFrequency(n.midi), Math.max(0.02, Math.min(n.duration, to - n.time)), Math.max(0, t), Math.min(1, n.velocity))
  }
}

export async function renderScore(score: Score, options: RenderOptions = {}): Promise<AudioBuffer> {
  const { signal, onProgress } = options
  if (signal?.aborted) throw abortError()
  const sampleRate = options.sampleRate ?? DEFAULT_RENDER_RATE
  const from = Math.max(0, options.from ?? 0)
  const to = Math.min(score.renderDuration, options.to ?? score.renderDuration)
  if (!(to > from)) throw new RangeError('Render window is empty')
  const seconds = to - from
  const Tone: ToneModule = await import('tone')
  if (signal?.aborted) throw abortError()

  const native = new OfflineAudioContext(2, Math.ceil(seconds * sampleRate), sampleRate)
  const context = new Tone.OfflineContext(native as unknown as ConstructorParameters<typeof Tone.OfflineContext>[0])
  buildGraph(Tone, context, native, score, from, to, new Set(options.parts ?? ['melody', 'chords', 'pad', 'bass', 'drums']))

  // Suspend points report progress and let a cancel stop the render where it is.
  let rejectRender: (e: unknown) => void = () => {}
  const cancelled = new Promise<never>((_, reject) => (rejectRender = reject))
  const onAbort = () => rejectRender(abortError())
  signal?.addEventListener('abort', onAbort, { once: true })
  for (let t = PROGRESS_STEP_SECONDS; t < seconds; t += PROGRESS_STEP_SECONDS) {
    const at = t
    void native.suspend(at).then(() => {
      if (signal?.aborted) return // left suspended: the render never finishes and is collected
      onProgress?.(at / seconds)
      void native.resume()
    })
  }
  try {
    const rendered = await Promise.race([context.render(false), cancelled])
    const buffer = rendered.get()
    if (!buffer) throw new Error('Offline render produced no audio')
    normalise(buffer)
    onProgress?.(1)
    return buffer
  } finally {
    signal?.removeEventListener('abort', onAbort)
  }
}

function normalise(buffer: AudioBuffer): void {
  let peak = 0
  const channels = Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c))
  for (const ch of channels) for (let i = 0; i < ch.length; i++) peak = Math.max(peak, Math.abs(ch[i]!))
  if (peak < 1e-6) return
  const gain = PEAK_TARGET / peak
  for (const ch of channels) for (let i = 0; i < ch.length; i++) ch[i]! *= gain
}

type ToneContext = import('tone').OfflineContext

function buildGraph(Tone: ToneModule, context: ToneContext, native: OfflineAudioContext, score: Score, from: number, to: number, parts: Set<ScorePart>): void {
  const shift = from
  const ctx = { context }
  const master = new Tone.Gain({ ...ctx, gain: 0.7 })
  const comp = new Tone.Compressor({ ...ctx, threshold: -16, ratio: 3, attack: 0.01, release: 0.2 })
  master.connect(comp)
  comp.connect(context.destination)

  // Reverb send: a seeded impulse so renders are repeatable.
  const irSeconds = 1.2 + 2.5 * score.mix.reverb
  const [irL, irR] = reverbImpulse(native.sampleRate, irSeconds, score.seed)
  const ir = native.createBuffer(2, irL.length, native.sampleRate)
  ir.copyToChannel(irL, 0)
  ir.copyToChannel(irR, 1)
  const reverb = new Tone.Convolver({ ...ctx, url: new Tone.ToneAudioBuffer(ir), normalize: true })
  const reverbReturn = new Tone.Gain({ ...ctx, gain: 0.9 * score.mix.reverb })
  reverb.connect(reverbReturn)
  reverbReturn.connect(master)

  const beat = 60 / score.bpm
  const delay = new Tone.FeedbackDelay({ ...ctx, delayTime: beat * 0.75, feedback: 0.35, wet: 1 })
  const delayReturn = new Tone.Gain({ ...ctx, gain: 0.5 * score.mix.delay })
  delay.connect(delayReturn)
  delayReturn.connect(master)

  // One lowpass per part follows the brightness of each section (the chorus opens up).
  const brightnessFilter = (scale: number, minHz = 0, maxHz = 18000) => {
    const filter = new Tone.Filter({ ...ctx, type: 'lowpass', rolloff: -24, Q: 0.5, frequency: 1000 })
    for (const s of score.sections) {
      if (s.endTime <= from || s.startTime >= to) continue
      const t = Math.max(0, s.startTime - shift)
      const hz = Math.min(maxHz, Math.max(minHz, brightnessToCutoff(s.brightness) * scale))
      filter.frequency.setValueAtTime(hz, t)
    }
    return filter
  }

  const bus = (scale: number, pan: number, reverbSend: number, delaySend: number, drive = 0, minHz = 0) => {
    const input = new Tone.Gain(ctx)
    const filter = brightnessFilter(scale, minHz)
    const panner = new Tone.Panner({ ...ctx, pan })
    if (drive > 0) {
      const dist = new Tone.Distortion({ ...ctx, distortion: drive, oversample: '4x', wet: 1 })
      input.chain(dist, filter, panner)
    } else {
      input.chain(filter, panner)
    }
    panner.connect(master)
    if (reverbSend > 0) panner.connect(new Tone.Gain({ ...ctx, gain: reverbSend }).connect(reverb))
    if (delaySend > 0) panner.connect(new Tone.Gain({ ...ctx, gain: delaySend }).connect(delay))
    return input
  }

  const inst = score.instrumentation
  const leadDrive = inst.lead === 'distorted' ? score.mix.drive : 0
  const chordDrive = inst.chords === 'power' ? score.mix.drive : 0
  const leadBus = bus(1.2, 0, 0.6, 1, leadDrive)
  const chordBus = bus(1, -0.2, 0.5, inst.chords === 'glass' ? 0.6 : 0, chordDrive)
  const padBus = bus(0.8, 0.25, 0.8, 0)
  const bassBus = bus(0.6, 0, 0.05, 0, inst.bass === 'distorted' ? score.mix.drive * 0.5 : 0)
  const drumBus = bus(2.5, 0, 0.25, 0, 0, 1500)

  const pool = (n: number, make: () => Voice, dest: import('tone').InputNode) =>
    Array.from({ length: n }, () => {
      const v = make()
      v.connect(dest)
      return v
    })

  if (parts.has('melody') && score.tracks.melody.length) playOnPool(pool(2, () => leadVoice(Tone, context, inst.lead), leadBus), score.tracks.melody, shift, from, to)
  if (parts.has('chords') && score.tracks.chords.length) playOnPool(pool(inst.chords === 'guitar' || inst.chords === 'strings' ? 5 : 4, () => chordVoice(Tone, context, inst.chords), chordBus), score.tracks.chords, shift, from, to)
  if (parts.has('pad') && score.tracks.pad.length) playOnPool(pool(3, () => padVoice(Tone, context), padBus), score.tracks.pad, shift, from, to)
  if (parts.has('bass') && score.tracks.bass.length) playOnPool(pool(2, () => bassVoice(Tone, context, inst.bass), bassBus), score.tracks.bass, shift, from, to)

  // Drums: one synthesised buffer per voice, one buffer source per hit.
  const buffers = new Map<string, import('tone').ToneAudioBuffer>()
  const drumBuffer = (voice: Parameters<typeof kitSound>[1]) => {
    let b = buffers.get(voice)
    if (!b) {
      const samples = synthesiseDrum(kitSound(inst.drums, voice), native.sampleRate, score.seed ^ voice.length * 7919)
      const raw = native.createBuffer(1, samples.length, native.sampleRate)
      raw.copyToChannel(samples, 0)
      b = new Tone.ToneAudioBuffer(raw)
      buffers.set(voice, b)
    }
    return b
  }
  const drumPan: Record<string, number> = { hat: 0.25, openHat: 0.25, ride: -0.3, crash: 0.15 }
  const drumOuts = new Map<string, import('tone').InputNode>()
  const drumOut = (voice: string) => {
    let out = drumOuts.get(voice)
    if (!out) {
      const p = new Tone.Panner({ ...ctx, pan: drumPan[voice] ?? 0 })
      p.connect(drumBus)
      out = p
      drumOuts.set(voice, p)
    }
    return out
  }
  const DRUM_LEVEL: Record<string, number> = { kick: 1, snare: 0.7, hat: 0.35, openHat: 0.3, ride: 0.3, crash: 0.35 }
  for (const hit of parts.has('drums') ? score.tracks.drums : []) {
    if (hit.time < from || hit.time >= to) continue
    const src = new Tone.ToneBufferSource({ ...ctx, url: drumBuffer(hit.voice) })
    src.connect(drumOut(hit.voice))
    src.start(hit.time - shift, 0, undefined, hit.velocity * (DRUM_LEVEL[hit.voice] ?? 0.5))
  }
}
