/**
 * The master bus every source of the app plays into:
 *
 *   sources → input (GainNode) → limiter (DynamicsCompressor as brick-wall-ish limiter)
 *           → output gain (setVolume) → analyser → destination
 *
 *   getMasterBus(): MasterBus   { context, input, analyser, setVolume(0..1), getVolume() }
 *   masterLevel(): number       RMS (0..1) of what the analyser sees right now; 0 before any audio
 *
 * The analyser sits last so meters and visualisers show what is actually heard. `masterLevel` is
 * also exposed read-only on `window.__cube.masterLevel` for end-to-end tests (Playwright mutes the
 * speakers, but the graph still runs); it only reads, so it is harmless in production.
 */
import type { IAnalyserNode, IAudioContext, IDynamicsCompressorNode, IGainNode } from 'standardized-audio-context'
import { getAudioContext } from './audio-context.ts'

export interface MasterBus {
  context: IAudioContext
  /** Connect sources here. */
  input: IGainNode<IAudioContext>
  limiter: IDynamicsCompressorNode<IAudioContext>
  analyser: IAnalyserNode<IAudioContext>
  /** 0..1, smoothed to avoid clicks. */
  setVolume: (volume: number) => void
  getVolume: () => number
}

// Limiter: fast attack, high ratio, threshold just under full scale, no knee. Headroom on the
// input keeps several summed sources from slamming it.
export const LIMITER_SETTINGS = { threshold: -1, knee: 0, ratio: 20, attack: 0.002, release: 0.1 } as const
export const ANALYSER_FFT_SIZE = 2048

let bus: MasterBus | null = null

export function getMasterBus(): MasterBus {
  if (bus) return bus
  const context = getAudioContext()
  const input = context.createGain()
  const limiter = context.createDynamicsCompressor()
  limiter.threshold.value = LIMITER_SETTINGS.threshold
  limiter.knee.value = LIMITER_SETTINGS.knee
  limiter.ratio.value = LIMITER_SETTINGS.ratio
  limiter.attack.value = LIMITER_SETTINGS.attack
  limiter.release.value = LIMITER_SETTINGS.release
  const output = context.createGain()
  const analyser = context.createAnalyser()
  analyser.fftSize = ANALYSER_FFT_SIZE
  analyser.smoothingTimeConstant = 0.8
  input.connect(limiter)
  limiter.connect(output)
  output.connect(analyser)
  analyser.connect(context.destination)
  let volume = 1
  bus = {
    context,
    input,
    limiter,
    analyser,
    setVolume: (v) => {
      volume = Math.min(1, Math.max(0, Number.isFinite(v) ? v : 0))
      output.gain.setTargetAtTime(volume, context.currentTime, 0.015)
    },
    getVolume: () => volume,
  }
  exposeDebugHook()
  return bus
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
