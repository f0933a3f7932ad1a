/**
 * What is stored with a song for loudness normalisation: its integrated loudness (LUFS) and true
 * peak (dBTP), measured once over the whole decoded file. A mono file is measured as the two equal
 * channels the player sends to the speakers (+3 dB against BS.1770's single-channel reading), so
 * the stored figure is the loudness the listener hears.
 *
 *   measureSongLoudness(channels, sampleRate) → { loudnessLufs, truePeakDbtp }
 *       loudnessLufs is null when the whole file is below the −70 LUFS gate (silence);
 *       truePeakDbtp is null for digital silence.
 */
import { integratedLoudness } from './loudness.ts'
import { truePeakDbtp } from './true-peak.ts'

export interface SongLoudness {
  loudnessLufs: number | null
  truePeakDbtp: number | null
}

/** Stored to 0.01 dB: finer than anyone hears, and what the tests compare. */
const round = (db: number): number | null => (Number.isFinite(db) ? Math.round(db * 100) / 100 : null)

export function measureSongLoudness(channels: readonly Float32Array[], sampleRate: number): SongLoudness {
  if (channels.length === 0) return { loudnessLufs: null, truePeakDbtp: null }
  const heard = channels.length === 1 ? [channels[0]!, channels[0]!] : channels
  return { loudnessLufs: round(integratedLoudness(heard, sampleRate)), truePeakDbtp: round(truePeakDbtp(channels)) }
}
