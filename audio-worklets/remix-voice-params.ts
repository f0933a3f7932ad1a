/**
 * The Remix Studio's voice: the source player (transport, loop region), Harmonize / Auto Tune (the
 * remix tools chain) and the three sample layers, as ONE AudioWorkletNode feeding a channel strip.
 * Shared by the processor, the export's worker render and src/engine/remix (src may import from
 * audio-worklets; never the reverse).
 */
import type { LoopPlacement } from './kernels/loop-layer.ts'
import { REMIX_TOOLS_PARAM_NAMES, type RemixToolsParamName } from './remix-tools-params.ts'

export const REMIX_VOICE_PROCESSOR = 'cube-remix-voice'

export const REMIX_LAYERS = ['drums', 'bass', 'synth'] as const
export type RemixLayer = (typeof REMIX_LAYERS)[number]

/** Tool controls (ranges in remix-tools-params.ts) and one level per layer, 0–100 (0 = off). */
export const REMIX_VOICE_PARAM_NAMES = [...REMIX_TOOLS_PARAM_NAMES, ...REMIX_LAYERS] as const
export type RemixVoiceParamName = RemixToolsParamName | RemixLayer

export const LAYER_PARAM_DESCRIPTORS = REMIX_LAYERS.map((name) => ({
  name,
  defaultValue: 0,
  minValue: 0,
  maxValue: 100,
  automationRate: 'k-rate' as const,
}))

/** Handed to the processor at construction (so an offline render has it before its first quantum). */
export interface RemixVoiceOptions {
  /** The (tempo-matched) source, one or two channels at the context's rate. */
  source: Float32Array[]
  layers: Partial<Record<RemixLayer, LoopPlacement>>
  /** Start playing at once (offline renders) or wait for a 'play' message (the live preview). */
  playing: boolean
  /** First frame to play. */
  position: number
}

export type RemixVoiceMessage =
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'seek'; frame: number }
  /** end <= start turns the loop region off. */
  | { type: 'loop'; start: number; end: number }
  | { type: 'dispose' }

export type RemixVoiceEvent = { type: 'position'; frame: number; playing: boolean } | { type: 'ended' }

/** Position reports per second on the live node. */
export const POSITION_RATE_HZ = 20

/** Gain of a layer at `level` (0–100): squared, like the mixer's faders, so equal steps sound even. */
export const layerGain = (level: number): number => (Math.min(100, Math.max(0, level)) / 100) ** 2
