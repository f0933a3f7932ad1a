import type { Song } from './song.ts'

// The built-in catalogue. Audio and covers are rendered by scripts/generate-samples.ts (our own
// composer and synths) and shipped in public/; durations are written back by that script.
export const SAMPLE_SONGS: readonly Song[] = [
  { id: 'neon-drift', title: 'Neon Drift', artist: 'Synthwave Collective', duration: '1:25', image: '/images/covers/neon-drift.svg', audioUrl: '/audio/samples/neon-drift.mp3', genre: 'synthwave', reward: 2 },
  { id: 'low-tide-memory', title: 'Low Tide Memory', artist: 'Chillwave Coast', duration: '1:20', image: '/images/covers/low-tide-memory.svg', audioUrl: '/audio/samples/low-tide-memory.mp3', genre: 'chillwave', reward: 2 },
  { id: 'circuit-breaker', title: 'Circuit Breaker', artist: 'Electronic Pulse', duration: '1:17', image: '/images/covers/circuit-breaker.svg', audioUrl: '/audio/samples/circuit-breaker.mp3', genre: 'electronic', reward: 3 },
  { id: 'rainy-terminal', title: 'Rainy Terminal', artist: 'Lofi Beats Lab', duration: '1:27', image: '/images/covers/rainy-terminal.svg', audioUrl: '/audio/samples/rainy-terminal.mp3', genre: 'lofi', reward: 2 },
  { id: 'orbital-haze', title: 'Orbital Haze', artist: 'Ambient Spaces', duration: '1:28', image: '/images/covers/orbital-haze.svg', audioUrl: '/audio/samples/orbital-haze.mp3', genre: 'ambient', reward: 5 },
]
