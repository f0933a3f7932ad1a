// The Description tab's generator: composes an NFT description on this device from the name and the
// chosen track (title, artist, genre), deterministically, with no network call.

export interface TrackFacts {
  title: string
  artist: string
  genre?: string
  duration?: string
}

const MOODS: Record<string, string> = {
  synthwave: 'neon-soaked retro synths',
  chillwave: 'hazy, sun-warmed chill',
  electronic: 'driving electronic pulses',
  lofi: 'dusty lo-fi beats',
  ambient: 'slow ambient textures',
}

export function describeNft(name: string, track: TrackFacts | null): string {
  const title = name.trim() || track?.title || 'This piece'
  if (!track) return `${title} is a one-of-a-kind music collectible minted on CUBE Music. Its artwork and story live on chain, and its royalties go back to the creator on every resale.`
  const mood = (track.genre && MOODS[track.genre]) || (track.genre ? `${track.genre} sound` : 'an original sound')
  const length = track.duration ? ` (${track.duration})` : ''
  return `${title} captures "${track.title}"${length} by ${track.artist}: ${mood}, minted as a music NFT on CUBE Music. The token carries the track itself as its animation, so the owner holds the music, not just the cover.`
}
