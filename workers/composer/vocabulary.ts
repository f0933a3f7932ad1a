/**
 * The generator's vocabulary: words of a description that steer mood, genre and instrumentation
 * when the user did not choose them. Pure (no DOM); docs/generator-vocabulary.md lists this table
 * and a test keeps the two in step.
 *
 *   interpretDescription(text) → { mood?, genre?, instruments, words }
 *
 * Matching: the text is lower-cased and split into words (letters and digits; 'lo-fi' = 'lo fi');
 * a cue matches whole words only, so 'sad' does not match 'sadhu'. A one-word cue also matches its
 * plural ('drums', 'pianos', 'melodies'). Multi-word cues ('boom bap') match consecutive words.
 *
 * Resolution: each matched cue adds its weight (default 1) to its mood and to its genre; the
 * highest total wins. A tie goes to the candidate mentioned first in the text, so the result never
 * depends on table order. Instruments are listed in order of first mention; the first one that
 * can lead becomes the lead voice. Nothing matched → nothing inferred (the composer's defaults).
 */
import type { ChordKind, Genre, LeadKind, Mood } from './styles.ts'

export const INSTRUMENTS = ['saxophone', 'piano', 'vibraphone', 'flute', 'bells', 'guitar', 'synth', 'strings'] as const
export type Instrument = (typeof INSTRUMENTS)[number]

/**
 * What each instrument word changes in the renderer: the lead voice, or the chord part. Guitar is
 * the chord part (strummed/picked), except in rock and metal whose power chords already are guitars.
 */
export const INSTRUMENT_PARTS: Record<Instrument, { lead?: LeadKind; chords?: ChordKind; label: string }> = {
  saxophone: { lead: 'sax', label: 'saxophone lead' },
  piano: { lead: 'epiano', chords: 'epiano', label: 'piano' },
  vibraphone: { lead: 'vibes', label: 'vibraphone lead' },
  flute: { lead: 'flute', label: 'flute lead' },
  bells: { lead: 'bell', label: 'bells lead' },
  guitar: { chords: 'guitar', label: 'guitar' },
  synth: { lead: 'supersaw', chords: 'saw-pad', label: 'synth' },
  strings: { chords: 'strings', label: 'strings' },
}

/**
 * Sounds of a scene that no instrument plays: the renderer adds them as a layer of their own
 * (src/engine/score-textures.ts), above the parts' brightness filters, so they are heard as named.
 */
export const TEXTURES = ['waves'] as const
export type Texture = (typeof TEXTURES)[number]
export const TEXTURE_LABELS: Record<Texture, string> = { waves: 'ocean waves' }

export const isInstrument = (v: unknown): v is Instrument => typeof v === 'string' && (INSTRUMENTS as readonly string[]).includes(v)

export interface Cue {
  mood?: Mood
  genre?: Genre
  instrument?: Instrument
  texture?: Texture
  /** Default 1. Names of a style ('jazz', 'synthwave') weigh 3 so they beat scene words. */
  weight?: number
}

const STYLE = 3

/** The word table. Keys are lower case; a hyphen or space separates the words of a phrase. */
export const VOCABULARY: Readonly<Record<string, Cue>> = {
  // Moods
  sad: { mood: 'sad' },
  lonely: { mood: 'sad' },
  melancholy: { mood: 'sad' },
  melancholic: { mood: 'sad' },
  rain: { mood: 'sad' },
  rainy: { mood: 'sad' },
  tears: { mood: 'sad' },
  heartbreak: { mood: 'sad' },
  grief: { mood: 'sad' },
  goodbye: { mood: 'sad' },
  blues: { mood: 'sad', genre: 'jazz' },
  dark: { mood: 'dark' },
  night: { mood: 'dark' },
  midnight: { mood: 'dark' },
  shadow: { mood: 'dark' },
  horror: { mood: 'dark' },
  sinister: { mood: 'dark' },
  doom: { mood: 'dark', genre: 'metal' },
  mysterious: { mood: 'mysterious' },
  mystery: { mood: 'mysterious' },
  fog: { mood: 'mysterious' },
  foggy: { mood: 'mysterious' },
  noir: { mood: 'mysterious', genre: 'jazz' },
  secret: { mood: 'mysterious' },
  haunted: { mood: 'mysterious' },
  spy: { mood: 'mysterious' },
  happy: { mood: 'happy' },
  sunny: { mood: 'happy' },
  sunshine: { mood: 'happy' },
  summer: { mood: 'happy' },
  joy: { mood: 'happy' },
  joyful: { mood: 'happy' },
  cheerful: { mood: 'happy' },
  sunrise: { mood: 'happy' },
  party: { mood: 'energetic', genre: 'pop' },
  energetic: { mood: 'energetic' },
  workout: { mood: 'energetic' },
  fast: { mood: 'energetic' },
  race: { mood: 'energetic' },
  hype: { mood: 'energetic' },
  intense: { mood: 'energetic' },
  upbeat: { mood: 'upbeat' },
  groovy: { mood: 'upbeat' },
  bouncy: { mood: 'upbeat' },
  chill: { mood: 'chill' },
  relax: { mood: 'chill' },
  relaxing: { mood: 'chill' },
  calm: { mood: 'chill' },
  study: { mood: 'chill' },
  quiet: { mood: 'chill' },
  peaceful: { mood: 'chill' },
  sleep: { mood: 'chill', genre: 'ambient' },
  'lo-fi': { mood: 'chill', genre: 'hip-hop', weight: STYLE },
  lofi: { mood: 'chill', genre: 'hip-hop', weight: STYLE },
  romantic: { mood: 'romantic' },
  love: { mood: 'romantic' },
  kiss: { mood: 'romantic' },
  wedding: { mood: 'romantic' },
  candlelight: { mood: 'romantic' },
  epic: { mood: 'epic' },
  cinematic: { mood: 'epic', genre: 'classical' },
  battle: { mood: 'epic' },
  heroic: { mood: 'epic' },
  trailer: { mood: 'epic' },
  victory: { mood: 'epic' },
  // Genres and scenes
  electronic: { genre: 'electronic', weight: STYLE },
  edm: { genre: 'electronic', weight: STYLE },
  techno: { genre: 'electronic', weight: STYLE },
  synthwave: { genre: 'electronic', weight: STYLE },
  retro: { genre: 'electronic' },
  neon: { genre: 'electronic' },
  drive: { genre: 'electronic' },
  cyberpunk: { genre: 'electronic', mood: 'dark' },
  club: { genre: 'electronic', mood: 'energetic' },
  rave: { genre: 'electronic', mood: 'energetic' },
  pop: { genre: 'pop', weight: STYLE },
  catchy: { genre: 'pop' },
  dance: { genre: 'pop' },
  radio: { genre: 'pop' },
  rock: { genre: 'rock', weight: STYLE },
  riff: { genre: 'rock' },
  'electric guitar': { genre: 'rock' },
  punk: { genre: 'rock', mood: 'energetic', weight: STYLE },
  garage: { genre: 'rock' },
  distortion: { genre: 'metal' },
  metal: { genre: 'metal', weight: STYLE },
  heavy: { genre: 'metal' },
  shred: { genre: 'metal' },
  'hip-hop': { genre: 'hip-hop', weight: STYLE },
  hiphop: { genre: 'hip-hop', weight: STYLE },
  rap: { genre: 'hip-hop', weight: STYLE },
  'boom bap': { genre: 'hip-hop', weight: STYLE },
  beat: { genre: 'hip-hop' },
  street: { genre: 'hip-hop' },
  trap: { genre: 'hip-hop', mood: 'dark' },
  jazz: { genre: 'jazz', weight: STYLE },
  jazzy: { genre: 'jazz', weight: STYLE },
  swing: { genre: 'jazz', weight: STYLE },
  smoky: { genre: 'jazz' },
  lounge: { genre: 'jazz' },
  cafe: { genre: 'jazz' },
  bebop: { genre: 'jazz', weight: STYLE },
  folk: { genre: 'folk', weight: STYLE },
  acoustic: { genre: 'folk' },
  campfire: { genre: 'folk' },
  country: { genre: 'folk' },
  village: { genre: 'folk' },
  forest: { genre: 'folk' },
  celtic: { genre: 'folk', weight: STYLE },
  classical: { genre: 'classical', weight: STYLE },
  orchestra: { genre: 'classical', mood: 'epic', instrument: 'strings' },
  orchestral: { genre: 'classical', mood: 'epic', instrument: 'strings' },
  symphony: { genre: 'classical', weight: STYLE },
  baroque: { genre: 'classical', weight: STYLE },
  ambient: { genre: 'ambient', weight: STYLE },
  drone: { genre: 'ambient' },
  space: { genre: 'ambient' },
  meditation: { genre: 'ambient', mood: 'chill' },
  ocean: { genre: 'ambient', texture: 'waves' },
  // Scene sounds (textures)
  wave: { texture: 'waves' },
  sea: { texture: 'waves' },
  surf: { texture: 'waves' },
  shore: { texture: 'waves' },
  dreamy: { genre: 'ambient', mood: 'chill' },
  // Instruments (a light hint of their usual genre, so a named style still wins)
  saxophone: { instrument: 'saxophone', genre: 'jazz' },
  sax: { instrument: 'saxophone', genre: 'jazz' },
  trumpet: { instrument: 'saxophone', genre: 'jazz' },
  piano: { instrument: 'piano' },
  keys: { instrument: 'piano' },
  rhodes: { instrument: 'piano' },
  vibraphone: { instrument: 'vibraphone', genre: 'jazz' },
  marimba: { instrument: 'vibraphone' },
  flute: { instrument: 'flute' },
  whistle: { instrument: 'flute' },
  recorder: { instrument: 'flute', genre: 'folk' },
  bell: { instrument: 'bells' },
  chimes: { instrument: 'bells' },
  glockenspiel: { instrument: 'bells' },
  'music box': { instrument: 'bells' },
  guitar: { instrument: 'guitar' },
  banjo: { instrument: 'guitar', genre: 'folk' },
  ukulele: { instrument: 'guitar', genre: 'folk' },
  harp: { instrument: 'guitar', genre: 'folk' },
  synth: { instrument: 'synth', genre: 'electronic' },
  synthesizer: { instrument: 'synth', genre: 'electronic' },
  strings: { instrument: 'strings', genre: 'classical' },
  violin: { instrument: 'strings', genre: 'classical' },
  cello: { instrument: 'strings', genre: 'classical' },
}

export interface Interpretation {
  mood?: Mood
  genre?: Genre
  /** In order of first mention, without repeats. */
  instruments: Instrument[]
  /** In order of first mention, without repeats. */
  textures: Texture[]
  /** The cue words matched, as written in the table, in order of mention. */
  words: string[]
  /** Each matched cue word with what it names, for telling which ones the piece used (unusedWords). */
  cues: { word: string; cue: Cue }[]
}

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .match(/[a-z0-9]+/g) ?? []

/** The forms a one-word cue also matches: plain plurals ('drums'), '-es' ('beaches') and 'y' → 'ies'. */
function plurals(key: string): string[] {
  const forms = [`${key}s`, `${key}es`]
  if (key.endsWith('y')) forms.push(`${key.slice(0, -1)}ies`)
  return forms
}

interface CompiledCue {
  key: string
  parts: string[]
  cue: Cue
}
const COMPILED: CompiledCue[] = Object.entries(VOCABULARY).map(([key, cue]) => ({ key, parts: words(key), cue }))
const SINGLE = new Map<string, CompiledCue>()
for (const c of COMPILED) {
  if (c.parts.length !== 1) continue
  SINGLE.set(c.parts[0]!, c)
}
// Plural forms never shadow a cue of their own ('strings', 'vibes', 'keys' are cues as written).
for (const c of COMPILED) if (c.parts.length === 1) for (const p of plurals(c.parts[0]!)) if (!SINGLE.has(p)) SINGLE.set(p, c)
const PHRASES = COMPILED.filter((c) => c.parts.length > 1).sort((a, b) => b.parts.length - a.parts.length)

/** Tally of weights with the position of first mention, for the deterministic tie rule. */
function winner<T extends string>(votes: Map<T, { total: number; first: number }>): T | undefined {
  let best: T | undefined
  let bestVote = { total: 0, first: Infinity }
  for (const [k, v] of votes)
    if (v.total > bestVote.total || (v.total === bestVote.total && v.first < bestVote.first)) [best, bestVote] = [k, v]
  return best
}

export function interpretDescription(text: string): Interpretation {
  const tokens = words(text)
  const matched: { pos: number; c: CompiledCue }[] = []
  for (let i = 0; i < tokens.length; ) {
    const phrase = PHRASES.find((p) => p.parts.every((w, j) => tokens[i + j] === w))
    if (phrase) {
      matched.push({ pos: i, c: phrase })
      i += phrase.parts.length
      continue
    }
    const single = SINGLE.get(tokens[i]!)
    if (single) matched.push({ pos: i, c: single })
    i++
  }
  const moods = new Map<Mood, { total: number; first: number }>()
  const genres = new Map<Genre, { total: number; first: number }>()
  const vote = <T>(map: Map<T, { total: number; first: number }>, k: T, w: number, pos: number) => {
    const v = map.get(k)
    if (v) v.total += w
    else map.set(k, { total: w, first: pos })
  }
  const instruments: Instrument[] = []
  const textures: Texture[] = []
  for (const { pos, c } of matched) {
    if (c.cue.texture && !textures.includes(c.cue.texture)) textures.push(c.cue.texture)
    const w = c.cue.weight ?? 1
    if (c.cue.mood) vote(moods, c.cue.mood, w, pos)
    if (c.cue.genre) vote(genres, c.cue.genre, w, pos)
    if (c.cue.instrument && !instruments.includes(c.cue.instrument)) instruments.push(c.cue.instrument)
  }
  const result: Interpretation = {
    instruments,
    textures,
    words: matched.map((m) => m.c.key),
    cues: matched.map((m) => ({ word: m.c.key, cue: m.c.cue })),
  }
  const mood = winner(moods)
  const genre = winner(genres)
  if (mood) result.mood = mood
  if (genre) result.genre = genre
  return result
}

/** The lead and chord voices for a genre with these instruments (first mention wins per part). */
export function instrumentParts(
  genre: Genre,
  instruments: readonly Instrument[],
  defaults: { lead: LeadKind; chords: ChordKind },
): { lead: LeadKind; chords: ChordKind } {
  let lead: LeadKind | undefined
  let chords: ChordKind | undefined
  for (const i of instruments) {
    const p = INSTRUMENT_PARTS[i]
    if (i === 'guitar' && (genre === 'rock' || genre === 'metal')) continue
    lead ??= p.lead
    chords ??= p.chords
  }
  return { lead: lead ?? defaults.lead, chords: chords ?? defaults.chords }
}

/** The instruments that set a part of the piece (first mention wins per part; see instrumentParts). */
export function instrumentsUsed(genre: Genre, instruments: readonly Instrument[]): Instrument[] {
  const taken = { lead: false, chords: false }
  const used: Instrument[] = []
  for (const i of instruments) {
    const p = INSTRUMENT_PARTS[i]
    if (i === 'guitar' && (genre === 'rock' || genre === 'metal')) continue
    const setsLead = p.lead !== undefined && !taken.lead
    const setsChords = p.chords !== undefined && !taken.chords
    if (setsLead) taken.lead = true
    if (setsChords) taken.chords = true
    if (setsLead || setsChords) used.push(i)
  }
  return used
}

/**
 * The matched words that changed nothing in the piece, once per word in order of mention: a mood
 * or genre that lost (or was chosen explicitly), an instrument whose part another took first. A
 * word is used when any one thing it names is (a texture is always added).
 */
export function unusedWords(
  cues: readonly { word: string; cue: Cue }[],
  piece: { mood: Mood | undefined; genre: Genre | undefined; instruments: readonly Instrument[]; textures: readonly Texture[] },
): string[] {
  const used = (cue: Cue) =>
    (cue.mood !== undefined && cue.mood === piece.mood) ||
    (cue.genre !== undefined && cue.genre === piece.genre) ||
    (cue.instrument !== undefined && piece.instruments.includes(cue.instrument)) ||
    (cue.texture !== undefined && piece.textures.includes(cue.texture))
  const unused: string[] = []
  for (const { word, cue } of cues) if (!used(cue) && !unused.includes(word)) unused.push(word)
  return unused
}
