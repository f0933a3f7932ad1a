/**
 * The master bus every source of the app plays into:
 *
 *   sources → input (GainNode) → limiter (DynamicsCompressor, threshold -1 dB, ratio 20, its
 *           automatic makeup gain trimmed away so signals under the threshold pass at unity)
 *           → clip guard (WaveShaper: identity up to 0.9, soft knee to a hard ceiling of 0.99)
 *           → output gain (setVolume) → analyser → destination
 *
 *   getMasterBus(): MasterBus   the app's bus on the app context { context, input, analyser, setVolume(0..1), getVolume() }
 *   createMasterBus(context)    the same graph on any context (offline tests render through it)
 *   masterLevel(): number       RMS (0..1) of what the analyser sees right now; 0 before any audio
 *
 * The analyser sits last so meters and visualisers show what is actually heard. `masterLevel` is
 * also exposed read-only on `window.__cube.masterLevel` for end-to-end tests (Playwright mutes the
 * speakers, but the graph still runs); it only reads, so it is harmless in production.
 */
import type { IAnalyserNode, IAudioContext, IDynamicsCompressorNode, IGainNode, IOfflineAudioContext } from 'standardized-audio-context'
import { getAudioContext } from './audio-context.ts'

type AnyContext = IAudioContext | IOfflineAudioContext

export interface MasterBus<T extends AnyContext = IAudioContext> {
  context: T
  /** Connect sources here. */
  input: IGainNode<T>
  limiter: IDynamicsCompressorNode<T>
  analyser: IAnalyserNode<T>
  /** 0..1, smoothed to avoid clicks. */
  setVolume: (volume: number) => void
  getVolume: () => number
}

// Limiter: fast attack, high ratio, threshold just under full scale, no knee. Headroom on the
// input keeps several summed sources from slamming it.
export const LIMITER_SETTINGS = { threshold: -1, knee: 0, ratio: 20, attack: 0.002, release: 0.1 } as const
export const ANALYSER_FFT_SIZE = 2048
/** Nothing leaves the bus louder than this (linear). */
export const CLIP_CEILING = 0.99
const CLIP_KNEE_START = 0.9

/**
 * The Web Audio spec's DynamicsCompressor adds makeup gain (1 / full-range gain)^0.6, where the
 * full-range gain is the curve's gain at 0 dBFS. We undo it so the limiter only ever turns down.
 */
export function limiterMakeupGain({ threshold, ratio }: { threshold: number; ratio: number } = LIMITER_SETTINGS): number {
  const outDb = threshold + (0 - threshold) / ratio
  return Math.pow(1 / Math.pow(10, outDb / 20), 0.6)
}

/**
 * Identity up to 0.9, then a quadratic bend with matching slope at the joint, reaching the ceiling
 * at |x| = 1; inputs beyond ±1 read the curve's ends, so the output never exceeds the ceiling.
 */
export function clipGuardCurve(points = 4097): Float32Array<ArrayBuffer> {
  const curve = new Float32Array(points)
  const span = 1 - CLIP_KNEE_START
  const room = CLIP_CEILING - CLIP_KNEE_START
  for (let i = 0; i < points; i++) {
    const x = (i / (points - 1)) * 2 - 1
    const a = Math.abs(x)
    let y = a
    if (a > CLIP_KNEE_START) {
      const t = (a - CLIP_KNEE_START) / span // 0..1
      y = Math.min(CLIP_CEILING, CLIP_KNEE_START + span * t - (span - room) * t * t)
    }
    curve[i] = Math.sign(x) * y
  }
  return curve
}

let bus: MasterBus | null = null

export function getMasterBus(): MasterBus {
  if (bus) return bus
  bus = createMasterBus(getAudioContext())
  exposeDebugHook()
  return bus
}

export function createMasterBus<T extends AnyContext>(context: T): MasterBus<T> {
  const input = context.createGain()
  const limiter = context.createDynamicsCompressor()
  limiter.threshold.value = LIMITER_SETTINGS.threshold
  limiter.knee.value = LIMITER_SETTINGS.knee
  limiter.ratio.value = LIMITER_SETTINGS.ratio
  limiter.attack.value = LIMITER_SETTINGS.attack
  limiter.release.value = LIMITER_SETTINGS.release
  const trim = context.createGain()
  trim.gain.value = 1 / limiterMakeupGain()
  const guard = context.createWaveShaper()
  guard.curve = clipGuardCurve()
  guard.oversample = 'none'
  const output = context.createGain()
  const analyser = context.createAnalyser()
  analyser.fftSize = ANALYSER_FFT_SIZE
  analyser.smoothingTimeConstant = 0.8
  input.connect(limiter)
  limiter.connect(trim)
  trim.connect(guard)
  guard.connect(output)
  output.connect(analyser)
  analyser.connect(context.destination)
  let volume = 1
  // standardized-audio-context types nodes by a union of context kinds; T narrows it back.
  return {
    context,
    input: input as unknown as IGainNode<T>,
    limiter: limiter as unknown as IDynamicsCompressorNode<T>,
    analyser: analyser as unknown as IAnalyserNode<T>,
    setVolume: (v) => {
      volume = Math.min(1, Math.max(0, Number.isFinite(v) ? v : 0))
      output.gain.setTargetAtTime(volume, context.currentTime, 0.015)
    },
    getVolume: () => volume,
  }
}

let scratch: Float32Array<ArrayBuffer> | null = null

export function masterLevel(): number {
  if (!bus) return 0
  const n = bus.analyser.fftSize
  if (!scratch || scratch.length !== n) scratch = new Float32Array(n)
  bus.analyser.getFloatTimeDomainData(scratch)
  let sum = 0
  for (let i = 0; i < n; i++) sum += scratch[i]! * scratch[i]!
  return Math.sqrt(sum / n)
}

declare global {
  interface Window {
    __cube?: { masterLevel?: () => number; [key: string]: unknown }
  }
}

function exposeDebugHook() {
  if (typeof window === 'undefined') return
  window.__cube = { ...window.__cube, masterLevel }
}
