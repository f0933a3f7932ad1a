/**
 * Renders a composer Score to audio offline with Tone.js.
 *
 *   renderScore(score, { onProgress?, signal?, sampleRate?, from?, to?, preroll?, normalise? }): Promise<AudioBuffer>
 *
 * - The whole piece (or the window [from, to) seconds, for tests and previews) is scheduled up front.
 *   Each part (lead, chords, pad, bass, drums, textures: score-part-buses.ts) renders through its bus
 *   in a native OfflineAudioContext of its own, all at once, and a part of more than two voices
 *   renders them two by two in contexts of their own first: Chromium gives every offline context
 *   without an AudioWorklet a render thread of its own, so the parts use every core. A last context
 *   mixes the parts' outputs into the sends (our reverb, an echo) and the master compressor.
 *   `engine: 'one-graph'` builds every bus in that last context instead: the reference the parts
 *   render equals sample for sample (tests/browser/score-render-determinism.test.ts).
 *   Progress comes from suspend points every half second of audio, and an aborted signal stops
 *   rendering at the next one.
 * - Tone is imported lazily so it never enters a bundle that does not render.
 * - A window with a `preroll` joins a render of its neighbour: it is rendered from `preroll` seconds
 *   earlier, with the notes still sounding then, and that lead is dropped, so voices, filters, echoes
 *   and reverb are already sounding at `from` (CUBE Radio renders a piece in segments this way).
 * - The result is peak-normalised to -1 dBFS unless `normalise` is false. Rendering is deterministic: the same score gives the
 *   same samples (drum noise and reverb are seeded, nothing uses Math.random), also under load: the reverb is our
 *   own WebAssembly convolution (convolution-reverb.ts), not a ConvolverNode, whose background thread made renders differ.
 */
import type { Score } from '../../workers/composer/index.ts'
import { reverbImpulse } from './score-drums.ts'
import { createConvolutionReverb, loadConvolutionReverb } from './convolution-reverb.ts'
import { sumTree, type Connectable, type Keep } from './score-sum-tree.ts'
import { buildBus, partBuses, type Build, type PartBus, type ScorePart } from './score-part-buses.ts'

export { brightnessToCutoff, type ScorePart } from './score-part-buses.ts'

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
  /** 'parts' (default): each part in a context of its own, at once; 'one-graph': the reference (see above). */
  engine?: 'parts' | 'one-graph'
}

export const DEFAULT_RENDER_RATE = 44100
const PROGRESS_STEP_SECONDS = 0.5
const PEAK_TARGET = 0.891 // -1 dBFS

function abortError(): DOMException {
  return new DOMException('Rendering was cancelled', 'AbortError')
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

  const length = Math.ceil(seconds * sampleRate)
  const buses = partBuses(score, sampleRate, { from: start, to, parts: new Set(options.parts ?? ALL_PARTS), carry })
  const byParts = options.engine !== 'one-graph' && buses.length > 0
  // Each suspension waits for the main thread: none when nobody listens for progress or a cancel.
  const suspends = onProgress !== undefined || signal !== undefined
  const partsShare = byParts ? PARTS_SHARE : 0

  let rejectRender: (e: unknown) => void = () => {}
  const cancelled = new Promise<never>((_, reject) => (rejectRender = reject))
  cancelled.catch(() => {})
  const onAbort = () => rejectRender(abortError())
  signal?.addEventListener('abort', onAbort, { once: true })
  const held: (readonly object[])[] = []
  const hold = (nodes: readonly object[]) => {
    held.push(nodes)
    RENDERING.add(nodes)
  }
  try {
    let inputs: MixInput[] | null = null
    if (byParts) {
      const done = buses.map(() => 0)
      const report = (i: number) => (f: number) => {
        done[i] = f
        onProgress?.((partsShare * done.reduce((x, y) => x + y, 0)) / buses.length)
      }
      const setup: RenderSetup = { Tone, length, sampleRate, hold, signal }
      const stems = buses.map((bus, i) => renderPart(setup, bus, suspends ? report(i) : null))
      const rendered = await Promise.race([Promise.all(stems), cancelled])
      inputs = rendered.map((stem, i) => ({ stem, reverbSend: buses[i]!.reverbSend, delaySend: buses[i]!.delaySend }))
    }

    const native = new OfflineAudioContext(2, length, sampleRate)
    const context = new Tone.OfflineContext(native as unknown as ConstructorParameters<typeof Tone.OfflineContext>[0])
    const reverb = score.mix.reverb > 0 ? await loadConvolutionReverb(native) : null
    if (signal?.aborted) throw abortError()
    hold(mixGraph(Tone, context, native, score, inputs ?? buses, reverb))
    if (suspends) reportWhileRendering(native, seconds, (f) => onProgress?.(partsShare + (1 - partsShare) * f), signal)
    const rendered = await Promise.race([context.render(false), cancelled])
    const whole = rendered.get()
    if (!whole) throw new Error('Offline render produced no audio')
    const buffer = dropLead(whole, Math.round((from - start) * sampleRate))
    if (options.normalise !== false) normalise(buffer)
    onProgress?.(1)
    return buffer
  } finally {
    signal?.removeEventListener('abort', onAbort)
    for (const nodes of held) RENDERING.delete(nodes)
  }
}

const ALL_PARTS: readonly ScorePart[] = ['melody', 'chords', 'pad', 'bass', 'drums']
/** Of the progress bar: the parts, which render at once, before the mix. */
const PARTS_SHARE = 0.8

/**
 * Suspends the render every half second of audio to report progress; an aborted signal leaves it
 * suspended, so a cancelled render stops using the CPU at its next suspension.
 */
function reportWhileRendering(native: OfflineAudioContext, seconds: number, report: (f: number) => void, signal?: AbortSignal) {
  for (let t = PROGRESS_STEP_SECONDS; t < seconds; t += PROGRESS_STEP_SECONDS) {
    const at = t
    void native.suspend(at).then(() => {
      if (signal?.aborted) return // left suspended: the render never finishes and is collected
      report(at / seconds)
      void native.resume()
    })
  }
}

/** What every context of one render shares. */
interface RenderSetup {
  Tone: ToneModule
  length: number
  sampleRate: number
  /** Holds a context's nodes until the render ends (RENDERING). */
  hold: (nodes: readonly object[]) => void
  signal: AbortSignal | undefined
}

/** What `build` outputs, alone in a native offline context (its own render thread). */
async function renderAlone(setup: RenderSetup, build: Build, report: ((f: number) => void) | null): Promise<AudioBuffer> {
  const { Tone, length, sampleRate } = setup
  // A part whose voice groups finished just before a cancel starts no context for its bus.
  if (setup.signal?.aborted) throw abortError()
  const native = new OfflineAudioContext(2, length, sampleRate)
  const context = new Tone.OfflineContext(native as unknown as ConstructorParameters<typeof Tone.OfflineContext>[0])
  const nodes: object[] = []
  const keep: Keep = (node) => {
    nodes.push(node)
    return node
  }
  // Straight into the context's destination (stereo in, stereo out: the samples as they are).
  Tone.connect(build(Tone, context, native, keep) as import('tone').ToneAudioNode, native.destination)
  setup.hold(nodes)
  // Every context of a cancellable render halts on a cancel, the ones that report nothing too.
  if (report || setup.signal) reportWhileRendering(native, length / sampleRate, report ?? (() => {}), setup.signal)
  const stem = (await context.render(false)).get()
  if (!stem) throw new Error('Offline render produced no audio')
  return stem
}

/** A rendered signal played from its first frame: the samples as rendered. */
function playStem(Tone: ToneModule, native: OfflineAudioContext, stem: AudioBuffer, keep: Keep): Connectable {
  const src = keep(native.createBufferSource())
  src.buffer = stem
  src.start(0)
  return { connect: (destination) => Tone.connect(src, destination) }
}

/**
 * One part through its bus. A part of several voice groups (chords, pad) renders each group in a
 * context of its own and then its bus over them, so its voices use every core too.
 */
async function renderPart(setup: RenderSetup, bus: PartBus, report: ((f: number) => void) | null): Promise<AudioBuffer> {
  if (bus.groups.length === 1) return renderAlone(setup, (...a) => buildBus(bus, ...a), report)
  const groups = await Promise.all(
    bus.groups.map((group, i) => renderAlone(setup, group, i === 0 && report ? (f) => report(0.9 * f) : null)),
  )
  const chain: Build = (Tone, context, native, keep) =>
    bus.chain(
      Tone,
      context,
      keep,
      groups.map((g) => playStem(Tone, native, g, keep)),
    )
  return renderAlone(setup, chain, report ? (f) => report(0.9 + 0.1 * f) : null)
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

/** A part already rendered through its bus (renderPart), with its sends. */
interface MixInput {
  stem: AudioBuffer
  reverbSend: number
  delaySend: number
}

/**
 * The mix: every part's bus output into the sends (a seeded impulse for the reverb so renders are
 * repeatable; a dotted-eighth echo) and the master compressor. The buses are built here
 * ('one-graph') or played from their rendered stems.
 */
function mixGraph(
  Tone: ToneModule,
  context: ToneContext,
  native: OfflineAudioContext,
  score: Score,
  parts: readonly (PartBus | MixInput)[],
  reverbKernel: WebAssembly.Module | null,
): readonly object[] {
  const nodes: object[] = []
  const keep: Keep = (node) => {
    nodes.push(node)
    return node
  }
  const buses = parts.map((p) => {
    const out = 'groups' in p ? buildBus(p, Tone, context, native, keep) : playStem(Tone, native, p.stem, keep)
    return { out, reverbSend: p.reverbSend, delaySend: p.delaySend }
  })
  if (buses.length === 0) {
    // Nothing of the requested parts sounds in this window: an explicit silent source keeps the graph valid.
    buses.push({ out: keep(new Tone.Panner({ context })), reverbSend: 0, delaySend: 0 })
  }

  const irSeconds = 1.2 + 2.5 * score.mix.reverb
  const returns: Connectable[] = []
  const send = (b: (typeof buses)[number], level: number) => {
    const g = keep(new Tone.Gain({ context, gain: level }))
    b.out.connect(g)
    return g
  }
  const reverbSends = buses.filter((b) => b.reverbSend > 0).map((b) => send(b, b.reverbSend))
  if (reverbSends.length && reverbKernel && score.mix.reverb > 0) {
    const [irL, irR] = reverbImpulse(native.sampleRate, irSeconds, score.seed)
    const reverb = keep(createConvolutionReverb(native, reverbKernel, irL, irR))
    const ret = keep(new Tone.Gain({ context, gain: 0.9 * score.mix.reverb }))
    sumTree(Tone, context, reverbSends, keep).connect(reverb)
    Tone.connect(reverb, ret)
    returns.push(ret)
  }
  const delaySends = buses.filter((b) => b.delaySend > 0).map((b) => send(b, b.delaySend))
  if (delaySends.length && score.mix.delay > 0) {
    const delay = keep(new Tone.FeedbackDelay({ context, delayTime: (60 / score.bpm) * 0.75, feedback: 0.35, wet: 1 }))
    const ret = keep(new Tone.Gain({ context, gain: 0.5 * score.mix.delay }))
    sumTree(Tone, context, delaySends, keep).chain(delay, ret)
    returns.push(ret)
  }

  const master = keep(new Tone.Gain({ context, gain: 0.7 }))
  sumTree(Tone, context, [...buses.map((b) => b.out), ...returns], keep).connect(master)
  master.chain(keep(new Tone.Compressor({ context, threshold: -16, ratio: 3, attack: 0.01, release: 0.2 })), context.destination)
  return nodes
}
