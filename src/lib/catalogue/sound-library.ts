// The Sound Library: project-owned loops and one-shots rendered by scripts/generate-samples.ts with the
// app's composer and Tone.js renderer, shipped in public/audio/library/. Regenerate with
// `npx tsx scripts/generate-samples.ts library` (this file is rewritten by that script).

export type SoundCategory = 'drums' | 'bass' | 'synth' | 'fx'

export interface LibrarySound {
  id: string
  name: string
  category: SoundCategory
  /** Same-origin URL of the audio. */
  url: string
  /** Tempo of a loop; absent for one-shots. */
  bpm?: number
  /** Seconds. */
  duration: number
}

export const SOUND_CATEGORIES: readonly SoundCategory[] = ['drums', 'bass', 'synth', 'fx']

export const SOUND_LIBRARY: readonly LibrarySound[] = [
  { id: 'electro-drums', name: 'Electro Drum Loop', category: 'drums', url: '/audio/library/electro-drums.mp3', bpm: 120, duration: 4.0 },
  { id: 'boom-bap-beat', name: 'Boom Bap Beat', category: 'drums', url: '/audio/library/boom-bap-beat.mp3', bpm: 87, duration: 5.52 },
  { id: 'saw-bass', name: 'Saw Bass Groove', category: 'bass', url: '/audio/library/saw-bass.mp3', bpm: 147, duration: 3.27 },
  { id: 'walking-bass', name: 'Walking Upright Bass', category: 'bass', url: '/audio/library/walking-bass.mp3', bpm: 117, duration: 4.1 },
  {
    id: 'supersaw-chords',
    name: 'Supersaw Chords',
    category: 'synth',
    url: '/audio/library/supersaw-chords.mp3',
    bpm: 118,
    duration: 4.07,
  },
  { id: 'lofi-keys', name: 'Lo-fi Keys', category: 'synth', url: '/audio/library/lofi-keys.mp3', bpm: 71, duration: 3.38 },
  { id: 'noise-riser', name: 'Noise Riser', category: 'fx', url: '/audio/library/noise-riser.mp3', duration: 4.0 },
  { id: 'bell-shimmer', name: 'Bell Shimmer', category: 'fx', url: '/audio/library/bell-shimmer.mp3', bpm: 74, duration: 3.24 },
]
