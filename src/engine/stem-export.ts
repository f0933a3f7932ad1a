/**
 * Stem export: every track that can sound, through its own channel strip alone (volume, pan, EQ,
 * effects, as the live mixer plays it), as one WAV each, all the mix's length and starting at 0,
 * packed in one ZIP (a browser would block a burst of separate downloads). The stems are taken
 * before the master strip and bus, so laid side by side at unity in another program they add up to
 * the mix before its master (tests/browser/stem-export.test.ts checks the sum). The ZIP stores the
 * WAVs without compression: audio barely compresses, and storing is instant.
 *
 *   exportStemsZip(state, { sampleRate, format?, onProgress?(0..1), signal? }) → Promise<Blob>
 *   stemFileNames(names) → '01 Drums.wav', '02 Bass.wav', … (safe, unique, in track order)
 */
import { mixDuration, type MixerState } from './mixer-model.ts'
import { abortError, renderEachTrackInWorkers } from './stem-render.ts'
import { encodeWavBuffer, type WavFormat } from './workers.ts'

export class NoStemsError extends Error {
  constructor() {
    super('No track can be heard: enable a track with audio, at a volume above 0, to export its stem.')
    this.name = 'NoStemsError'
  }
}

/** '01 Drums.wav', … : characters file systems refuse are dropped, duplicates cannot collide (the number leads). */
export function stemFileNames(names: readonly string[]): string[] {
  const digits = Math.max(2, String(names.length).length)
  return names.map((name, i) => {
    const safe =
      name
        .replace(/[^\p{L}\p{N}\-_ ()]+/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 80) || 'Track'
    return `${String(i + 1).padStart(digits, '0')} ${safe}.wav`
  })
}

export async function exportStemsZip(
  state: MixerState,
  options: { sampleRate: number; format?: WavFormat; onProgress?: (fraction: number) => void; signal?: AbortSignal },
): Promise<Blob> {
  const { sampleRate, signal } = options
  const length = Math.round(mixDuration(state) * sampleRate)
  const RENDER_SHARE = 0.9
  const stems =
    length > 0
      ? await renderEachTrackInWorkers(state.tracks, {
          length,
          sampleRate,
          signal,
          onProgress: options.onProgress && ((f) => options.onProgress!(RENDER_SHARE * f)),
        })
      : []
  if (stems.length === 0) throw new NoStemsError()
  const names = stemFileNames(stems.map((s) => s.track.name))
  const files: Record<string, [Uint8Array, { level: 0 }]> = {}
  for (const [i, stem] of stems.entries()) {
    if (signal?.aborted) throw abortError()
    files[names[i]!] = [new Uint8Array(await encodeWavBuffer(stem.channels, sampleRate, options.format ?? 'pcm16')), { level: 0 }]
  }
  // Loaded here, not with the studio: only a stem export needs it.
  const { zipSync } = await import('fflate')
  const zip = zipSync(files)
  options.onProgress?.(1)
  return new Blob([zip], { type: 'application/zip' })
}
