/**
 * One mixer track's effects as ONE AudioWorkletNode (audio-worklets/channel-strip-processor.ts):
 * highpass → lowpass → distortion → compression → chorus → delay → reverb → volume → pan.
 * One node per track is the cheap design in Web Audio (cost is per node, not per multiply).
 *
 * API (stable; the studio mixer, offline export and the player call exactly this):
 *
 *   await loadChannelStrip(ctx)                 adds the worklet module once per context (cached;
 *                                               safe to call again). Works with
 *                                               standardized-audio-context AudioContext /
 *                                               OfflineAudioContext and with native contexts.
 *   const strip = createChannelStrip(ctx, initial?: Partial<StripParams>)
 *     strip.node                                the AudioWorkletNode: 1 input (mono or stereo),
 *                                               1 stereo output; connect it like any node
 *     strip.set(param, value)                   value in mixer units (clamped); the worklet
 *                                               glides to it (~10 ms), so slider moves never click
 *     strip.params                              current values (read-only snapshot)
 *     strip.onLevels(cb) → unsubscribe          ~30 Hz: { peakL, peakR, rmsL, rmsR, peak, rms }
 *                                               linear (1 = 0 dBFS), post-fader/pan, per channel;
 *                                               peak/rms are the louder channel's
 *     strip.dispose()                           disconnects and stops the processor
 *
 *   StripParams: volume 0–100 (gain (v/100)², 100 = unity), pan −50..50 (equal power, 0 = unity
 *   both sides), reverb / lowpass / highpass / distortion / delay / compression / chorus 0–100
 *   (0 = off and skipped, costs nothing), enabled 0|1 (mute with a short fade).
 *
 *   STRIP_DEFAULTS are the mixer's defaults for a new track (volume 70, pan 0, reverb 20, every
 *   effect 0, enabled). They are what createChannelStrip uses for anything `initial` leaves out.
 *   The PLAYER wants a transparent strip: pass STRIP_NEUTRAL (volume 100, reverb 0, …) — with it
 *   the node passes audio bit-exactly.
 */
import { AudioWorkletNode as SacAudioWorkletNode, type IAudioWorkletNode, type TContext } from 'standardized-audio-context'
import workletUrl from '../../audio-worklets/channel-strip-processor.ts?worker&url'
import {
  CHANNEL_STRIP_PROCESSOR,
  type ChannelStripProcessorOptions,
  STRIP_PARAM_BY_NAME,
  STRIP_PARAM_DESCRIPTORS,
  STRIP_PARAM_NAMES,
  type StripLevelsMessage,
  type StripParamName,
} from '../../audio-worklets/channel-strip-params.ts'
import { TRACK_DEFAULTS } from './mixer-model.ts'
import { loadStripModule } from './strip-wasm.ts'

export { STRIP_PARAM_NAMES, type StripParamName }

export type StripParams = Record<StripParamName, number>

/**
 * Mixer defaults for a new track (volume 70, pan 0, reverb 20, all effects 0, enabled): the
 * mixer model's TRACK_DEFAULTS in strip units.
 */
export const STRIP_DEFAULTS: Readonly<StripParams> = Object.freeze({
  volume: TRACK_DEFAULTS.volume,
  pan: TRACK_DEFAULTS.pan,
  reverb: TRACK_DEFAULTS.reverb,
  ...TRACK_DEFAULTS.effects,
  enabled: TRACK_DEFAULTS.enabled ? 1 : 0,
})

/** Transparent settings (unity gain, centre, no effects): the descriptors' defaults; what the player uses. */
export const STRIP_NEUTRAL: Readonly<StripParams> = Object.freeze(
  Object.fromEntries(STRIP_PARAM_DESCRIPTORS.map((d) => [d.name, d.defaultValue])) as StripParams,
)

export interface StripLevels {
  peakL: number
  peakR: number
  rmsL: number
  rmsR: number
  /** max(peakL, peakR) */
  peak: number
  /** max(rmsL, rmsR) */
  rms: number
}

export interface ChannelStrip<N = IAudioWorkletNode<TContext>> {
  readonly node: N
  set(param: StripParamName, value: number): void
  readonly params: Readonly<StripParams>
  onLevels(cb: (levels: StripLevels) => void): () => void
  dispose(): void
}

type AnyContext = TContext | BaseAudioContext

const loaded = new WeakMap<object, Promise<void>>()

function isNativeContext(ctx: AnyContext): ctx is BaseAudioContext {
  return typeof BaseAudioContext === 'function' && ctx instanceof BaseAudioContext
}

/** strip.wasm, compiled, once loadChannelStrip has resolved (every processor is handed it). */
let stripModule: WebAssembly.Module | null = null

/**
 * Adds the processor module to this context once, and compiles strip.wasm once per page; later
 * calls return the same promise.
 */
export function loadChannelStrip(ctx: AnyContext): Promise<void> {
  let p = loaded.get(ctx)
  if (!p) {
    const worklet = (ctx as { audioWorklet?: { addModule(url: string): Promise<void> } }).audioWorklet
    p = worklet
      ? Promise.all([worklet.addModule(workletUrl), loadStripModule()]).then(([, module]) => {
          stripModule = module
        })
      : Promise.reject(new Error('This browser does not support AudioWorklet, which the audio engine needs.'))
    // A failed load must not poison the cache: the next call retries.
    p.catch(() => loaded.delete(ctx))
    loaded.set(ctx, p)
  }
  return p
}

function clampParam(name: StripParamName, value: number): number {
  const d = STRIP_PARAM_BY_NAME[name]
  const v = Number.isFinite(value) ? value : d.defaultValue
  return Math.min(d.maxValue, Math.max(d.minValue, v))
}

/** What a new strip starts with: STRIP_DEFAULTS, with `initial`'s values (clamped) on top. */
export function resolveStripParams(initial: Partial<StripParams> = {}): StripParams {
  const params = { ...STRIP_DEFAULTS } as StripParams
  for (const name of STRIP_PARAM_NAMES) {
    const v = initial[name]
    if (v !== undefined) params[name] = clampParam(name, v)
  }
  return params
}

/**
 * Creates a strip on a context whose module is already loaded (`await loadChannelStrip(ctx)`).
 * Throws a clear Error otherwise.
 */
export function createChannelStrip(ctx: BaseAudioContext, initial?: Partial<StripParams>): ChannelStrip<AudioWorkletNode>
export function createChannelStrip<T extends TContext>(ctx: T, initial?: Partial<StripParams>): ChannelStrip<IAudioWorkletNode<T>>
export function createChannelStrip(
  ctx: AnyContext,
  initial: Partial<StripParams> = {},
): ChannelStrip<AudioWorkletNode | IAudioWorkletNode<TContext>> {
  const params = resolveStripParams(initial)
  if (!stripModule)
    throw new Error('Could not create the channel strip: await loadChannelStrip(ctx) first (the audio engine is not loaded yet)')
  const options = {
    numberOfInputs: 1,
    numberOfOutputs: 1,
    outputChannelCount: [2],
    channelCount: 2,
    channelCountMode: 'explicit' as const,
    channelInterpretation: 'speakers' as const,
    parameterData: { ...params },
    processorOptions: { stripModule } satisfies ChannelStripProcessorOptions,
  }
  let node: AudioWorkletNode | IAudioWorkletNode<TContext>
  try {
    if (isNativeContext(ctx)) node = new AudioWorkletNode(ctx, CHANNEL_STRIP_PROCESSOR, options)
    else if (SacAudioWorkletNode) node = new SacAudioWorkletNode(ctx, CHANNEL_STRIP_PROCESSOR, options)
    else throw new Error('AudioWorklet is not supported in this browser.')
  } catch (err) {
    throw new Error(`Could not create the channel strip (was loadChannelStrip(ctx) awaited?): ${(err as Error).message}`, { cause: err })
  }

  const listeners = new Set<(levels: StripLevels) => void>()
  const port = node.port
  port.onmessage = (event: MessageEvent<StripLevelsMessage>) => {
    const m = event.data
    if (m?.type !== 'levels' || listeners.size === 0) return
    const levels: StripLevels = {
      peakL: m.peakL,
      peakR: m.peakR,
      rmsL: m.rmsL,
      rmsR: m.rmsR,
      peak: Math.max(m.peakL, m.peakR),
      rms: Math.max(m.rmsL, m.rmsR),
    }
    listeners.forEach((cb) => cb(levels))
  }
  let disposed = false

  return {
    node,
    get params() {
      return { ...params }
    },
    set(name, value) {
      if (disposed || !STRIP_PARAM_NAMES.includes(name)) return
      const v = clampParam(name, value)
      params[name] = v
      const param = node.parameters.get(name)
      // k-rate params; the processor glides each control itself, so a plain step here is click-free.
      param?.setValueAtTime(v, ctx.currentTime)
    },
    onLevels(cb) {
      listeners.add(cb)
      return () => listeners.delete(cb)
    },
    dispose() {
      if (disposed) return
      disposed = true
      listeners.clear()
      port.postMessage({ type: 'dispose' })
      port.onmessage = null
      node.disconnect()
    },
  }
}
