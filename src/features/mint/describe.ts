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
  if (!track)
    return (
      `${title} is a one-of-a-kind music collectible minted on CUBE Music. Its artwork and story live on chain, and ` +
      `its royalties go back to the creator on every resale.`
    )
  const mood = (track.genre && MOODS[track.genre]) || (track.genre ? `${track.genre} sound` : 'an original sound')
  const length = track.duration ? ` (${track.duration})` : ''
  return (
    `${title} captures "${track.title}"${length} by ${track.artist}: ${mood}, minted as a music NFT on CUBE Music. ` +
    `The token carries the track itself as its animation, so the owner holds the music, not just the cover.`
  )
}

/** What the server's Text AI is asked for (the admin's provider; see Admin › Text AI). */
export function describePrompt(name: string, track: TrackFacts | null): string {
  const title = name.trim() || track?.title || 'an untitled piece'
  const about = track
    ? ` It carries the track "${track.title}" by ` +
      `${track.artist}${track.genre ? ` (${track.genre})` : ''}${track.duration ? `, ${track.duration} long` : ''}.`
    : ''
  return (
    `Write a vivid two-sentence description for a music NFT named "${title}" on CUBE Music, a cyberpunk music ` +
    `platform.${about} Answer with the description only.`
  )
}

/**
 * The Description tab's text: from the administrators' Text AI provider through the server when
 * one is configured (`ask` answers null otherwise, or when it fails), else the on-device template.
 */
export async function generateDescription(
  name: string,
  track: TrackFacts | null,
  ask: (prompt: string) => Promise<string | null>,
): Promise<{ text: string; source: 'server' | 'device' }> {
  const text = await ask(describePrompt(name, track)).catch(() => null)
  return text ? { text, source: 'server' } : { text: describeNft(name, track), source: 'device' }
}
