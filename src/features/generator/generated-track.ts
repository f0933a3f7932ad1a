/**
 * A finished generation ready for the Generated Track panel: its id and title, WAV bytes (for
 * playback, Save to Library and download) and the raw channels (for the mixer and the waveform).
 */
import { formatDuration, type Song } from '../../lib/catalogue/song.ts'
import { encodeWav } from '../../engine/workers.ts'
import { GENRE_LABELS, heardLine, scoreSummary, scoreTitle, type Score } from '../../engine/composer.ts'
import type { TrackRecipe } from './share-link.ts'

export const GENERATED_COVER = '/images/covers/ai-generated.svg'

export interface GeneratedTrack {
  id: string
  title: string
  /** '124 BPM · A minor' */
  summary: string
  /** 'Heard: sad · electronic · saxophone lead. Not used: night', or null when the description named nothing. */
  heard: string | null
  genre: Score['genre']
  duration: number
  sampleRate: number
  channels: Float32Array[]
  wav: Blob
  /** What made it: the generator gives the same piece for the same recipe (the share link carries it). */
  recipe: TrackRecipe
}

export async function prepareTrack(score: Score, buffer: AudioBuffer): Promise<GeneratedTrack> {
  const channels = Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c))
  const wav = await encodeWav(channels, buffer.sampleRate, 'pcm16')
  return {
    id: `gen-${score.tag}-${Date.now().toString(36)}`,
    title: scoreTitle(score),
    summary: scoreSummary(score),
    heard: heardLine(score),
    genre: score.genre,
    duration: buffer.duration,
    sampleRate: buffer.sampleRate,
    channels,
    wav,
    recipe: {
      description: score.description,
      mood: score.mood,
      genre: score.genre,
      ...(score.instruments.length ? { instruments: score.instruments } : {}),
    },
  }
}

/** The library entry for a saved generation; its audio is stored under the same id in IndexedDB. */
export const generatedSong = (track: GeneratedTrack, audioUrl: string): Song => ({
  id: track.id,
  title: track.title,
  artist: `CUBE AI · ${GENRE_LABELS[track.genre]}`,
  duration: formatDuration(track.duration),
  seconds: track.duration,
  image: GENERATED_COVER,
  audioUrl,
  genre: track.genre,
  mood: track.recipe.mood,
})
