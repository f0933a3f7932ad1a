/**
 * A remix's settings (what the page edits, a draft stores and the render uses) and how they become
 * the voice's and the strip's controls. Pure.
 */
import { REMIX_LAYERS, type RemixLayer } from '../../../audio-worklets/remix-voice-params.ts'
import { STRIP_NEUTRAL, type StripParams } from '../channel-strip.ts'
import { SOUND_LIBRARY, type LibrarySound } from '../../lib/catalogue/sound-library.ts'
import { loopTempoOctave, targetRange } from '../../../workers/remix-prepare.ts'

export { targetRange }
import type { RemixVoiceControls } from './remix-voice-node.ts'

export { REMIX_LAYERS, type RemixLayer }

export interface RemixSettings {
  /** 0–100 each; the reference's default is 50. */
  effects: { reverb: number; delay: number; distortion: number }
  samples: Record<RemixLayer, { on: boolean; level: number }>
  /** targetBpm null = the source's detected tempo. */
  beatMatch: { on: boolean; targetBpm: number | null }
  harmonize: { on: boolean; mix: number }
  /** retune 0–100: correction speed (100 = instant snap). */
  autoTune: { on: boolean; retune: number }
}

export const LAYER_LABELS: Readonly<Record<RemixLayer, string>> = { drums: 'Drum Loop', bass: 'Bass', synth: 'Synth' }
const LAYER_CATEGORY = { drums: 'drums', bass: 'bass', synth: 'synth' } as const

export function defaultRemixSettings(): RemixSettings {
  return {
    effects: { reverb: 50, delay: 50, distortion: 50 },
    samples: { drums: { on: false, level: 70 }, bass: { on: false, level: 70 }, synth: { on: false, level: 70 } },
    beatMatch: { on: false, targetBpm: null },
    harmonize: { on: false, mix: 50 },
    autoTune: { on: false, retune: 80 },
  }
}

const pct = (v: unknown, fallback: number): number =>
  typeof v === 'number' && Number.isFinite(v) ? Math.round(Math.min(100, Math.max(0, v))) : fallback
const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback)
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {})

/** Whatever a stored draft holds becomes valid settings (unknown or broken fields fall back to defaults). */
export function sanitizeRemixSettings(raw: unknown): RemixSettings {
  const d = defaultRemixSettings()
  const r = obj(raw)
  const fx = obj(r.effects)
  const samples = obj(r.samples)
  const bm = obj(r.beatMatch)
  const hz = obj(r.harmonize)
  const at = obj(r.autoTune)
  const target =
    typeof bm.targetBpm === 'number' && Number.isFinite(bm.targetBpm) ? Math.round(Math.min(240, Math.max(40, bm.targetBpm))) : null
  return {
    effects: { reverb: pct(fx.reverb, 50), delay: pct(fx.delay, 50), distortion: pct(fx.distortion, 50) },
    samples: Object.fromEntries(
      REMIX_LAYERS.map((l) => {
        const s = obj(samples[l])
        return [l, { on: bool(s.on, false), level: pct(s.level, d.samples[l].level) }]
      }),
    ) as RemixSettings['samples'],
    beatMatch: { on: bool(bm.on, false), targetBpm: target },
    harmonize: { on: bool(hz.on, false), mix: pct(hz.mix, d.harmonize.mix) },
    autoTune: { on: bool(at.on, false), retune: pct(at.retune, d.autoTune.retune) },
  }
}

/** The tempo the remix plays at: the target when Beat Match is on, else the source's own. */
export function outputBpm(settings: RemixSettings, sourceBpm: number): number {
  const t = settings.beatMatch.targetBpm
  if (!settings.beatMatch.on || t === null) return sourceBpm
  const { min, max } = targetRange(sourceBpm)
  return Math.min(max, Math.max(min, t))
}

export interface RemixKey {
  tonic: number
  mode: 'major' | 'minor'
}

export function voiceControls(settings: RemixSettings, key: RemixKey): RemixVoiceControls {
  return {
    autoTune: settings.autoTune.on ? 1 : 0,
    retune: settings.autoTune.retune,
    harmonize: settings.harmonize.on ? 1 : 0,
    harmonyMix: settings.harmonize.mix,
    tonic: key.tonic,
    mode: key.mode === 'minor' ? 1 : 0,
    drums: settings.samples.drums.on ? settings.samples.drums.level : 0,
    bass: settings.samples.bass.on ? settings.samples.bass.level : 0,
    synth: settings.samples.synth.on ? settings.samples.synth.level : 0,
  }
}

/** A transparent strip with the page's three effects. */
export function stripControls(settings: RemixSettings): StripParams {
  return { ...STRIP_NEUTRAL, reverb: settings.effects.reverb, delay: settings.effects.delay, distortion: settings.effects.distortion }
}

/** The Sound Library loop of the layer's category whose tempo (or an octave of it) is nearest `bpm`. */
export function loopFor(layer: RemixLayer, bpm: number): LibrarySound {
  const loops = SOUND_LIBRARY.filter((s) => s.category === LAYER_CATEGORY[layer] && s.bpm)
  const distance = (s: LibrarySound) => Math.abs(Math.log2(loopTempoOctave(s.bpm!, bpm) / bpm))
  const best = [...loops].sort((a, b) => distance(a) - distance(b))[0]
  if (!best) throw new Error(`The Sound Library has no ${layer} loop`)
  return best
}
