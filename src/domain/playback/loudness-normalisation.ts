/**
 * Loudness normalisation: every song plays at the listener's target loudness (Loud −11 / Normal −14
 * / Quiet −19 LUFS, or off), from the integrated loudness and true peak measured once on its file
 * (public.songs.loudness_lufs / true_peak_dbtp, the catalogue's generated copy in sample-songs.ts).
 *
 * Never clipping: the player's true-peak limiter (src/engine/true-peak-limiter.ts) keeps what it
 * plays at or below −1 dBTP, so a song whose peaks would cross the ceiling at its target is still
 * boosted to it and only those peaks are turned down, by at most MAX_LIMITING_DB; a song that would
 * need more limiting plays that much below the target instead of being squashed. Where the limiter
 * cannot run (no AudioWorklet), a boost is cut at the ceiling (limiting 0) and such a song plays
 * below the target. A song never measured (a track in the Library) plays as it is.
 *
 *   normalisationGainDb(loudnessLufs, truePeakDbtp, targetLufs, limitingDb) → dB to apply (0 when unknown or off)
 *   songGainDb(song, setting, limitingDb) → the same for a Song (catalogue songs found by id when the row lacks it)
 */
import { CATALOGUE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import type { Song } from '../../lib/catalogue/song.ts'

export type NormalisationSetting = 'loud' | 'normal' | 'quiet' | 'off'

export const NORMALISATION_SETTINGS: readonly { value: NormalisationSetting; label: string; targetLufs: number | null }[] = [
  { value: 'loud', label: 'Loud (−11 LUFS)', targetLufs: -11 },
  { value: 'normal', label: 'Normal (−14 LUFS)', targetLufs: -14 },
  { value: 'quiet', label: 'Quiet (−19 LUFS)', targetLufs: -19 },
  { value: 'off', label: 'Off', targetLufs: null },
]
export const DEFAULT_NORMALISATION: NormalisationSetting = 'normal'
/** The highest true peak normalisation may produce (EBU R128's −1 dBTP for distribution). */
export const TRUE_PEAK_CEILING_DBTP = -1
/**
 * The most a boost may push a song's true peak over the ceiling for the limiter to take back: 7 dB
 * lets every catalogue song reach Normal's −14 LUFS (the most any needs is 3.1 dB) and Loud's −11
 * (the most is 6.1 dB). Rendered through the limiter, all 45 come out within 0.15 LU of −14 and
 * 0.93 LU of −11, true peak at most −1.05 dBTP (docs/benchmarks.md, "Loudness normalisation").
 */
export const MAX_LIMITING_DB = 7

export const targetLufs = (setting: NormalisationSetting): number | null =>
  NORMALISATION_SETTINGS.find((s) => s.value === setting)?.targetLufs ?? null

const known = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v)

export function normalisationGainDb(
  loudnessLufs: number | null | undefined,
  truePeakDbtp: number | null | undefined,
  target: number | null,
  limitingDb = 0,
): number {
  if (target === null || !known(loudnessLufs)) return 0
  const gain = target - loudnessLufs
  // Without a known true peak a boost could go anywhere: attenuate only.
  const ceiling = known(truePeakDbtp) ? TRUE_PEAK_CEILING_DBTP - truePeakDbtp + Math.max(0, limitingDb) : 0
  return Math.min(gain, ceiling)
}

const catalogue = new Map(CATALOGUE_SONGS.map((s) => [s.id, s]))

export function songGainDb(song: Song | null, setting: NormalisationSetting, limitingDb = 0): number {
  if (!song) return 0
  const measured = known(song.loudnessLufs) ? song : catalogue.get(song.id)
  return normalisationGainDb(measured?.loudnessLufs, measured?.truePeakDbtp, targetLufs(setting), limitingDb)
}
