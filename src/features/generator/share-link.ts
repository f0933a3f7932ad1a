/**
 * A generated track's share link carries its recipe (description, mood, genre and, when the
 * description named any, the instruments), not its audio:
 * the generator is deterministic, so whoever opens /track/<id> gets the very same piece composed
 * and rendered on their own device. No upload, nothing stored on a server.
 *
 *   shareId(recipe) → 'v1.<base64url of the UTF-8 JSON [description, mood, genre]>', or
 *                     [description, mood, genre, instruments] when there are instruments
 *   recipeRequest(recipe) → the generation request that recreates the piece
 *   recipeFromShareId(id) → the recipe, or null when the id is malformed, truncated or names an
 *                           unknown mood or genre (the page then says the link is broken)
 *   shareUrl(origin, recipe) → `${origin}/track/${shareId(recipe)}`
 */
import { GENRES, INSTRUMENTS, MOODS, type Genre, type Instrument, type Mood } from '../../engine/composer.ts'
import { DESCRIPTION_MAX, type GenerationRequest } from './generation-machine.ts'

export interface TrackRecipe {
  description: string
  mood: Mood
  genre: Genre
  /** The resolved mood and genre are always recorded; instruments only when the description named some. */
  instruments?: Instrument[]
}

/**
 * Mood, genre and instruments are all explicit, so nothing is inferred again: a link without
 * instruments (every link made before the vocabulary existed) keeps the genre's own voices.
 */
export const recipeRequest = (recipe: TrackRecipe): GenerationRequest => ({
  description: recipe.description,
  mood: recipe.mood,
  genre: recipe.genre,
  instruments: recipe.instruments ?? [],
})

const PREFIX = 'v1.'

function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
    return Uint8Array.from(binary, (c) => c.charCodeAt(0))
  } catch {
    return null
  }
}

export function shareId(recipe: TrackRecipe): string {
  return (
    PREFIX +
    toBase64Url(
      new TextEncoder().encode(
        JSON.stringify(
          recipe.instruments?.length
            ? [recipe.description, recipe.mood, recipe.genre, recipe.instruments]
            : [recipe.description, recipe.mood, recipe.genre],
        ),
      ),
    )
  )
}

export function shareUrl(origin: string, recipe: TrackRecipe): string {
  return `${origin}/track/${shareId(recipe)}`
}

export function recipeFromShareId(id: string): TrackRecipe | null {
  if (!id.startsWith(PREFIX)) return null
  const bytes = fromBase64Url(id.slice(PREFIX.length))
  if (!bytes) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    return null
  }
  if (!Array.isArray(parsed) || (parsed.length !== 3 && parsed.length !== 4)) return null
  const [description, mood, genre, instruments] = parsed as unknown[]
  if (typeof description !== 'string' || typeof mood !== 'string' || typeof genre !== 'string') return null
  const text = description.trim()
  if (!text || text.length > DESCRIPTION_MAX) return null
  if (!(MOODS as readonly string[]).includes(mood) || !(GENRES as readonly string[]).includes(genre)) return null
  const recipe: TrackRecipe = { description: text, mood: mood as Mood, genre: genre as Genre }
  if (parsed.length === 4) {
    const known = INSTRUMENTS as readonly unknown[]
    if (!Array.isArray(instruments) || instruments.length === 0 || !instruments.every((i) => known.includes(i))) return null
    recipe.instruments = instruments as Instrument[]
  }
  return recipe
}
