/**
 * Renders a composer Score to audio offline with Tone.js.
 *
 *   renderScore(score, { onProgress?, signal?, sampleRate?, from?, to?, preroll?, normalise? }): Promise<AudioBuffer>
 *
 * - The whole piece (or the window [from, to) seconds, for tests and previews) is scheduled up front
 *   on a Tone OfflineContext wrapping a native OfflineAudioContext; progress comes from suspend points
 *   every half second of audio, and an aborted signal stops rendering at the next one.
 * - Tone is imported lazily so it never enters a bundle that does not render.
 * - A window with a `preroll` joins a render of its neighbour: it is rendered from `preroll` seconds
 *   earlier, with the notes still sounding then, and that lead is dropped, so voices, filters, echoes
 *   and reverb are already sounding at `from` (CUBE Radio renders a piece in segments this way).
 * - The result is peak-normalised to -1 dBFS unless `normalise` is false. Rendering is deterministic: the same score gives the
 *   same samples (drum noise and reverb are seeded, nothing uses Math.random), also under load: the reverb is our
 *   own WebAssembly convolution (convolution-reverb.ts), not a ConvolverNode, whose background thread made renders differ.
 */
import type { NoteEvent, Score } from '../../workers/composer/index.ts'
import { bassVoice, chordVoice, leadVoice, padVoice, type Voice } from './score-instruments.ts'
import { reverbImpulse } from './score-drums.ts'
import { premixDrums } from './score-drum-premix.ts'
import { renderTextures } from './score-textures.ts'
import { createConvolutionReverb, loadConvolutionReverb } from './convolution-reverb.ts'
import { sumTree, type Connectable, type Keep } from './score-sum-tree.ts'

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
  /** Seconds rendered before `from` and dropped, with the notes sounding then (see above). */
  preroll?: number
  /** false: the level as rendered, for segments that must match each other (default true). */
  normalise?: boolean
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

/**
 * Assigns notes to a pool of monophonic voices: a free voice if any, otherwise the one that frees
 * first. With `carry`, a note that began before `from` and still sounds starts at `from` for the rest
 * of its length (its attack falls in a pre-roll that is dropped).
 */
function playOnPool(pool: Voice[], notes: NoteEvent[], shift: number, from: number, to: number, carry: boolean): void {
  const busyUntil = pool.map(() => -Infinity)
  for (const n of notes) {
    if (n.time >= to) continue
    let start = n.time
    let duration = n.duration
    if (start < from) {
      if (!carry || start + duration <= from) continue
      duration = start + duration - from
      start = from
    }
    const t = start - shift
    let idx = busyUntil.findIndex((end) => end <= t + 1e-6)
    if (idx < 0) idx = busyUntil.indexOf(Math.min(...busyUntil))
    busyUntil[idx] = t + duration
    pool[idx]!.trigger(midiToFrequency(n.midi), Math.max(0.02, Math.min(duration, to - start)), Math.max(0, t), Math.min(1, n.velocity))
  }
}

/** The last `length - drop` frames of `buffer` as a buffer of their own. */
function dropLead(buffer: AudioBuffer, drop: number): AudioBuffer {
  if (drop <= 0) return buffer
  const out = new AudioBuffer({ length: buffer.length - drop, numberOfChannels: buffer.numberOfChannels, sampleRate: buffer.sampleRate })
  for (let c = 0; c < buffer.numberOfChannels; c++) out.copyToChannel(buffer.getChannelData(c).subarray(drop), c)
  return out
}

export async function renderScore(score: Score, options: RenderOptions = {}): Promise<AudioBuffer> {
  const { signal, onProgress } = options
  if (signal?.aborted) throw abortError()
  const sampleRate = options.sampleRate ?? DEFAULT_RENDER_RATE
  const from = Math.max(0, options.from ?? 0)
  const to = Math.min(score.renderDuration, options.to ?? score.renderDuration)
  if (!(to > from)) throw new RangeError('Render window is empty')
  const carry = options.preroll !== undefined
  const start = Math.max(0, from - (options.preroll ?? 0))
  const seconds = to - start
  const Tone: ToneModule = await import('tone')
  if (signal?.aborted) throw abortError()

  const native = new OfflineAudioContext(2, Math.ceil(seconds * sampleRate), sampleRate)
  const context = new Tone.OfflineContext(native as unknown as ConstructorParameters<typeof Tone.OfflineContext>[0])
  const reverb = score.mix.reverb > 0 ? await loadConvolutionReverb(native) : null
  if (signal?.aborted) throw abortError()
  const graph = buildGraph(
    Tone,
    context,
    native,
    score,
    start,
    to,
    new Set(options.parts ?? ['melody', 'chords', 'pad', 'bass', 'drums']),
    carry,
    reverb,
  )
  // Held until the render ends: see RENDERING.
  RENDERING.add(graph)

  // Suspend points report progress and let a cancel stop the render where it is.
  let rejectRender: (e: unknown) => void = () => {}
  const cancelled = new Promise<never>((_, reject) => (rejectRender = reject))
  const onAbort = () => rejectRender(abortError())
  signal?.addEventListener('abort', onAbort, { once: true })
  // Each suspension waits for the main thread: none when nobody listens for progress or a cancel.
  const suspends = onProgress !== undefined || signal !== undefined
  for (let t = PROGRESS_STEP_SECONDS; suspends && t < seconds; t += PROGRESS_STEP_SECONDS) {
    const at = t
    void native.suspend(at).then(() => {
      if (signal?.aborted) return // left suspended: the render never finishes and is collected
      onProgress?.(at / seconds)
      void native.resume()
    })
  }
  try {
    const rendered = await Promise.race([context.render(false), cancelled])
    const whole = rendered.get()
    if (!whole) throw new Error('Offline render produced no audio')
    const buffer = dropLead(whole, Math.round((from - start) * sampleRate))
    if (options.normalise !== false) normalise(buffer)
    onProgress?.(1)
    return buffer
  } finally {
    signal?.removeEventListener('abort', onAbort)
    RENDERING.delete(graph)
  }
}

/**
 * The graphs being rendered. Once built, nothing else in JavaScript refers to a graph's nodes, and
 * Chromium disconnects a collected node's outputs: an echo or reverb still ringing after its last
 * source ended was cut wherever a garbage collection happened to fall, so a busy page rendered
 * the end of a window differently. Holding every node until the render finishes prevents that.
 */
const RENDERING = new Set<readonly object[]>()

function normalise(buffer: AudioBuffer): void {
  let peak = 0
  const channels = Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c))
  for (const ch of channels) for (let i = 0; i < ch.length; i++) peak = Math.max(peak, Math.abs(ch[i]!))
  if (peak < 1e-6) return
  const gain = PEAK_TARGET / peak
  for (const ch of channels) for (let i = 0; i < ch.length; i++) ch[i]! *= gain
}

type ToneContext = import('tone').OfflineContext

function buildGraph(
  Tone: ToneModule,
  context: ToneContext,
  native: OfflineAudioContext,
  score: Score,
  from: number,
  to: number,
  parts: Set<ScorePart>,
  carry: boolean,
  reverbKernel: WebAssembly.Module | null,
): readonly object[] {
  const shift = from
  const ctx = { context }
  const nodes: object[] = []
  const keep: Keep = (node) => {
    nodes.push(node)
    return node
  }

  // One lowpass per part follows the brightness of each section (the chorus opens up).
  const brightnessFilter = (scale: number, minHz: number) => {
    const filter = keep(new Tone.Filter({ ...ctx, type: 'lowpass', rolloff: -24, Q: 0.5, frequency: 1000 }))
    for (const s of score.sections) {
      if (s.endTime <= from || s.startTime >= to) continue
      const t = Math.max(0, s.startTime - shift)
      filter.frequency.setValueAtTime(Math.min(18000, Math.max(minHz, brightnessToCutoff(s.brightness) * scale)), t)
    }
    return filter
  }

  interface Bus {
    out: import('tone').Panner
    reverbSend: number
    delaySend: number
  }
  const buses: Bus[] = []
  const bus = (
    sources: Connectable[],
    opts: { scale: number; pan: number; reverb: number; delay: number; drive?: number; minHz?: number },
  ) => {
    const input = sumTree(Tone, context, sources, keep)
    const filter = brightnessFilter(opts.scale, opts.minHz ?? 0)
    const panner = keep(new Tone.Panner({ ...ctx, pan: opts.pan }))
    if (opts.drive && opts.drive > 0)
      input.chain(keep(new Tone.Distortion({ ...ctx, distortion: opts.drive, oversample: '4x', wet: 1 })), filter, panner)
    else input.chain(filter, panner)
    buses.push({ out: panner, reverbSend: opts.reverb, delaySend: opts.delay })
  }

  const pool = (n: number, make: () => Voice) => Array.from({ length: n }, () => keep(make()))
  const inst = score.instrumentation
  const { melody, chords, pad, bass } = score.tracks
  if (parts.has('melody') && melody.length) {
    const voices = pool(2, () => leadVoice(Tone, context, inst.lead))
    playOnPool(voices, melody, shift, from, to, carry)
    bus(voices, { scale: 1.2, pan: 0, reverb: 0.6, delay: 1, drive: inst.lead === 'distorted' ? score.mix.drive : 0 })
  }
  if (parts.has('chords') && chords.length) {
    const voices = pool(inst.chords === 'guitar' || inst.chords === 'strings' ? 5 : 4, () => chordVoice(Tone, context, inst.chords))
    playOnPool(voices, chords, shift, from, to, carry)
    bus(voices, {
      scale: 1,
      pan: -0.2,
      reverb: 0.5,
      delay: inst.chords === 'glass' ? 0.6 : 0,
      drive: inst.chords === 'power' ? score.mix.drive : 0,
    })
  }
  if (parts.has('pad') && pad.length) {
    const voices = pool(3, () => padVoice(Tone, context))
    playOnPool(voices, pad, shift, from, to, carry)
    bus(voices, { scale: 0.8, pan: 0.25, reverb: 0.8, delay: 0 })
  }
  if (parts.has('bass') && bass.length) {
    const voices = pool(2, () => bassVoice(Tone, context, inst.bass))
    playOnPool(voices, bass, shift, from, to, carry)
    bus(voices, { scale: 0.6, pan: 0, reverb: 0.05, delay: 0, drive: inst.bass === 'distorted' ? score.mix.drive * 0.5 : 0 })
  }
  const premixed = ([left, right]: [Float32Array<ArrayBuffer>, Float32Array<ArrayBuffer>]) => {
    const raw = native.createBuffer(2, left.length, native.sampleRate)
    raw.copyToChannel(left, 0)
    raw.copyToChannel(right, 1)
    const src = keep(new Tone.ToneBufferSource({ ...ctx, url: new Tone.ToneAudioBuffer(raw) }))
    src.start(0)
    return src
  }
  const drums = parts.has('drums') ? premixDrums(score, native.sampleRate, from, to, carry) : null
  if (drums) bus([premixed(drums)], { scale: 2.5, pan: 0, reverb: 0.25, delay: 0, minHz: 1500 })
  // A scene's sound is heard as named: above the parts' brightness (its filter stays open).
  const textures = renderTextures(score, native.sampleRate, from, to)
  if (textures) bus([premixed(textures)], { scale: 1, pan: 0, reverb: 0.3, delay: 0, minHz: 18000 })
  if (buses.length === 0) {
    // Nothing of the requested parts sounds in this window: an explicit silent source keeps the graph valid.
    buses.push({ out: keep(new Tone.Panner(ctx)), reverbSend: 0, delaySend: 0 })
  }

  // Sends: a seeded impulse for the reverb so renders are repeatable; a dotted-eighth echo.
  const irSeconds = 1.2 + 2.5 * score.mix.reverb
  const returns: Connectable[] = []
  const send = (b: Bus, level: number) => {
    const g = keep(new Tone.Gain({ ...ctx, gain: level }))
    b.out.connect(g)
    return g
  }
  const reverbSends = buses.filter((b) => b.reverbSend > 0).map((b) => send(b, b.reverbSend))
  if (reverbSends.length && reverbKernel && score.mix.reverb > 0) {
    const [irL, irR] = reverbImpulse(native.sampleRate, irSeconds, score.seed)
    const reverb = keep(createConvolutionReverb(native, reverbKernel, irL, irR))
    const ret = keep(new Tone.Gain({ ...ctx, gain: 0.9 * score.mix.reverb }))
    sumTree(Tone, context, reverbSends, keep).connect(reverb)
    Tone.connect(reverb, ret)
    returns.push(ret)
  }
  const delaySends = buses.filter((b) => b.delaySend > 0).map((b) => send(b, b.delaySend))
  if (delaySends.length && score.mix.delay > 0) {
    const delay = keep(new Tone.FeedbackDelay({ ...ctx, delayTime: (60 / score.bpm) * 0.75, feedback: 0.35, wet: 1 }))
    const ret = keep(new Tone.Gain({ ...ctx, gain: 0.5 * score.mix.delay }))
    sumTree(Tone, context, delaySends, keep).chain(delay, ret)
    returns.push(ret)
  }

  const master = keep(new Tone.Gain({ ...ctx, gain: 0.7 }))
  sumTree(Tone, context, [...buses.map((b) => b.out), ...returns], keep).connect(master)
  master.chain(keep(new Tone.Compressor({ ...ctx, threshold: -16, ratio: 3, attack: 0.01, release: 0.2 })), context.destination)
  return nodes
}
