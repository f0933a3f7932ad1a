/**
 * The remix tools' controls (Auto Tune and Harmonize in one worklet): one k-rate AudioParam each.
 * THE source of their ranges and defaults, shared by the processor, the export's worker render
 * (workers/remix-tools-render.ts) and src/engine/remix (src may import from audio-worklets; never
 * the reverse).
 *
 *   autoTune    0 | 1    Auto Tune off / on (toggles crossfade over ~20 ms)
 *   retune      0–100    correction speed: 100 = hard snap (the ratio jumps to each new estimate,
 *                        ~6 ms apart), 0 = slowest; the glide's time constant is
 *                        retuneMs(r) = 400 ms × ((100 − r) / 100)², so 80 → 16 ms, 50 → 100 ms,
 *                        0 → 400 ms (squared: most of the travel is where speeds sound different)
 *   harmonize   0 | 1    Harmonize off / on (toggles crossfade over ~20 ms)
 *   harmonyMix  0–100    the voices' level: each voice at (harmonyMix / 100) × 0.7 of its input
 *   tonic       0–11     the key's tonic pitch class (0 = C, 9 = A)
 *   mode        0 | 1    major / minor (natural minor)
 *
 * Defaults are neutral (both tools off): a bare node copies its input bit for bit.
 */

export const REMIX_TOOLS_PROCESSOR = 'cube-remix-tools'

export const REMIX_TOOLS_PARAM_NAMES = ['autoTune', 'retune', 'harmonize', 'harmonyMix', 'tonic', 'mode'] as const

export type RemixToolsParamName = (typeof REMIX_TOOLS_PARAM_NAMES)[number]

export type RemixToolsControls = Record<RemixToolsParamName, number>

export interface RemixToolsParamDescriptor {
  name: RemixToolsParamName
  defaultValue: number
  minValue: number
  maxValue: number
  automationRate: 'k-rate'
}

const RANGES: Readonly<RemixToolsControls & Record<`${RemixToolsParamName}Max`, number>> = {
  autoTune: 0,
  autoTuneMax: 1,
  retune: 80,
  retuneMax: 100,
  harmonize: 0,
  harmonizeMax: 1,
  harmonyMix: 50,
  harmonyMixMax: 100,
  tonic: 0,
  tonicMax: 11,
  mode: 0,
  modeMax: 1,
}

/** k-rate: the chain glides and crossfades internally, so per-sample automation would only cost time. */
export const REMIX_TOOLS_PARAM_DESCRIPTORS: readonly RemixToolsParamDescriptor[] = REMIX_TOOLS_PARAM_NAMES.map((name) => ({
  name,
  defaultValue: RANGES[name],
  minValue: 0,
  maxValue: RANGES[`${name}Max`],
  automationRate: 'k-rate' as const,
}))

export const REMIX_TOOLS_PARAM_BY_NAME: Readonly<Record<RemixToolsParamName, RemixToolsParamDescriptor>> = Object.fromEntries(
  REMIX_TOOLS_PARAM_DESCRIPTORS.map((d) => [d.name, d]),
) as Record<RemixToolsParamName, RemixToolsParamDescriptor>

/** The descriptors' defaults: both tools off. */
export const REMIX_TOOLS_NEUTRAL: Readonly<RemixToolsControls> = Object.freeze(
  Object.fromEntries(REMIX_TOOLS_PARAM_DESCRIPTORS.map((d) => [d.name, d.defaultValue])) as RemixToolsControls,
)

/** Slowest correction (retune 0), in ms. */
export const RETUNE_SLOWEST_MS = 400

/** Glide time constant of Auto Tune's correction for a retune speed 0–100 (0 ms = hard snap). */
export function retuneMs(retune: number): number {
  const r = Math.min(100, Math.max(0, retune))
  return RETUNE_SLOWEST_MS * ((100 - r) / 100) ** 2
}

/** Level of each harmony voice for a harmonyMix 0–100. */
export function harmonyVoiceGain(mix: number): number {
  return (Math.min(100, Math.max(0, mix)) / 100) * 0.7
}

/** Messages the node may send to the processor. */
export type RemixToolsControlMessage = { type: 'dispose' }
