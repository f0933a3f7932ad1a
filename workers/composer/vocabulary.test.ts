import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { compose, heardLine, scoreTitle, type Score } from './index.ts'
import {
  INSTRUMENT_PARTS,
  INSTRUMENTS,
  instrumentParts,
  interpretDescription,
  TEXTURES,
  VOCABULARY,
  type Cue,
  type Instrument,
} from './vocabulary.ts'
import { GENRE_PROFILES, type Genre, type Mood } from './styles.ts'

// description → [mood, genre, instruments] the vocabulary must hear ('-' = nothing inferred).
const TABLE: [string, Mood | '-', Genre | '-', Instrument[]][] = [
  // The example: night-drive synthwave in a sad minor key, with a saxophone lead.
  ['rainy neon night drive with a lonely saxophone', 'sad', 'electronic', ['saxophone']],
  ['smoky jazz lounge at midnight', 'dark', 'jazz', []],
  ['a lonely saxophone in the rain', 'sad', 'jazz', ['saxophone']],
  ['lo-fi beats to study to', 'chill', 'hip-hop', []],
  ['Lo Fi hip hop with soft piano keys', 'chill', 'hip-hop', ['piano']],
  ['boom bap beat with piano', '-', 'hip-hop', ['piano']],
  ['heavy guitar riffs and distortion', '-', 'metal', ['guitar']],
  ['garage rock anthem with electric guitar', '-', 'rock', []],
  ['epic orchestra battle', 'epic', 'classical', ['strings']],
  ['cinematic trailer with violins and cellos', 'epic', 'classical', ['strings']],
  ['sunny summer party', 'happy', 'pop', []],
  ['happy ukulele song by the campfire', 'happy', 'folk', ['guitar']],
  ['sad piano ballad about goodbye', 'sad', '-', ['piano']],
  ['calm ambient drone for meditation', 'chill', 'ambient', []],
  ['a romantic candlelight dinner with flute', 'romantic', '-', ['flute']],
  ['mysterious foggy forest with chimes', 'mysterious', 'folk', ['bells']],
  ['cyberpunk city chase with synths', 'dark', 'electronic', ['synth']],
  ['energetic techno workout', 'energetic', 'electronic', []],
  ['film noir spy theme with vibraphone', 'mysterious', 'jazz', ['vibraphone']],
  ['Sunrise over a quiet megacity', 'happy', '-', []],
  ['trap beat in the dark', 'dark', 'hip-hop', []],
  ['Café at 3 a.m.', '-', 'jazz', []],
  // Whole words only: 'sadhu', 'popular', 'rocky', 'metallic', 'jazzercise' are not cues.
  ['a sadhu on a popular rocky metallic road', '-', '-', []],
  ['good vibes only', '-', '-', []],
  ['A robot learning to dance', '-', 'pop', []],
  ['x', '-', '-', []],
]

describe('interpretDescription', () => {
  it.each(TABLE)('%s → %s · %s · %j', (description, mood, genre, instruments) => {
    const heard = interpretDescription(description)
    expect(heard.mood ?? '-').toBe(mood)
    expect(heard.genre ?? '-').toBe(genre)
    expect(heard.instruments).toEqual(instruments)
  })

  it('matches plurals, phrases and accents; reports the table words in order of mention', () => {
    expect(interpretDescription('Saxophones, BELLS and riffs').words).toEqual(['saxophone', 'bell', 'riff'])
    expect(interpretDescription('boom-bap melodies').words).toEqual(['boom bap'])
    expect(interpretDescription('a café').words).toEqual(['cafe'])
  })

  it('breaks ties by first mention, whatever the order of the table', () => {
    expect(interpretDescription('sad happy').mood).toBe('sad')
    expect(interpretDescription('happy sad').mood).toBe('happy')
    expect(interpretDescription('folk rock').genre).toBe('folk')
    expect(interpretDescription('rock folk').genre).toBe('rock')
  })

  it('lets a named style outweigh scene words and instrument hints', () => {
    // neon + drive + saxophone would be electronic 2 : jazz 1; the word 'jazz' (weight 3) decides.
    expect(interpretDescription('neon night drive, jazz with a saxophone').genre).toBe('jazz')
  })

  it('maps instruments to voices the renderer has; guitar keeps the power chords of rock and metal', () => {
    const jazz = GENRE_PROFILES.jazz
    expect(instrumentParts('jazz', ['saxophone'], jazz)).toEqual({ lead: 'sax', chords: 'epiano' })
    expect(instrumentParts('jazz', ['strings', 'flute'], jazz)).toEqual({ lead: 'flute', chords: 'strings' })
    expect(instrumentParts('pop', ['guitar'], GENRE_PROFILES.pop)).toEqual({ lead: 'square', chords: 'guitar' })
    expect(instrumentParts('metal', ['guitar'], GENRE_PROFILES.metal)).toEqual({ lead: 'distorted', chords: 'power' })
    // First mention wins per part: the saxophone leads, the piano still takes the chords.
    expect(instrumentParts('electronic', ['saxophone', 'piano'], GENRE_PROFILES.electronic)).toEqual({ lead: 'sax', chords: 'epiano' })
  })

  it('is documented: docs/generator-vocabulary.md lists every cue and instrument', () => {
    const doc = readFileSync(new URL('../../docs/generator-vocabulary.md', import.meta.url), 'utf8')
    for (const key of Object.keys(VOCABULARY)) expect(doc, key).toContain(`\`${key}\``)
    for (const i of INSTRUMENTS) expect(doc, i).toContain(`\`${i}\``)
    for (const t of TEXTURES) expect(doc, t).toContain(`\`${t}\``)
  })
})

describe('compose with the vocabulary', () => {
  const NIGHT = 'rainy neon night drive with a lonely saxophone'

  it('turns the issue example into a sad night drive with a saxophone lead, not Upbeat Electronic', () => {
    const s = compose({ description: NIGHT })
    expect(scoreTitle(s)).toMatch(/^Rainy Neon Night Drive with a Lonely Saxophone #[0-9a-f]{4}$/)
    expect(s.quality).toBe('minor')
    expect(s.instrumentation.lead).toBe('sax')
    expect(s.instruments).toEqual(['saxophone'])
    expect(s.heard).toEqual({
      mood: 'sad',
      genre: 'electronic',
      instruments: ['saxophone'],
      textures: [],
      words: ['rainy', 'neon', 'night', 'drive', 'lonely', 'saxophone'],
      // Dark lost to sad: the page says so.
      unused: ['night'],
    })
  })

  it("keeps today's defaults for an empty match: Upbeat Electronic with the genre's own voices", () => {
    for (const description of ['x', 'a robot learning to code', 'good vibes only']) {
      const s = compose({ description })
      expect([s.mood, s.genre]).toEqual(['upbeat', 'electronic'])
      expect(s.instrumentation.lead).toBe(GENRE_PROFILES.electronic.lead)
      expect(s.instrumentation.chords).toBe(GENRE_PROFILES.electronic.chords)
      expect(s.heard).toEqual({ instruments: [], textures: [], words: [], unused: [] })
    }
  })

  it('lets explicit mood and genre win over the description, and say nothing was inferred for them', () => {
    const s = compose({ description: NIGHT, mood: 'happy', genre: 'folk' })
    expect([s.mood, s.genre]).toEqual(['happy', 'folk'])
    expect(s.heard.mood).toBeUndefined()
    expect(s.heard.genre).toBeUndefined()
    expect(s.instrumentation.lead).toBe('sax') // the instrument was still heard
    // Only the unchosen knob is inferred.
    const moodOnly = compose({ description: NIGHT, mood: 'epic' })
    expect([moodOnly.mood, moodOnly.genre]).toEqual(['epic', 'electronic'])
  })

  it('gives the same piece as an explicit request for the inferred style (so a share link reproduces it)', () => {
    const inferred = compose({ description: NIGHT })
    expect(compose({ description: NIGHT, mood: inferred.mood, genre: inferred.genre, instruments: inferred.instruments })).toEqual({
      ...inferred,
      heard: { instruments: [], textures: [], words: inferred.heard.words, unused: inferred.heard.unused },
    })
  })

  it('with an explicit empty instrument list keeps the genre voices (old share links)', () => {
    const s = compose({ description: NIGHT, mood: 'sad', genre: 'jazz', instruments: [] })
    expect(s.instrumentation.lead).toBe('vibes')
    expect(s.instruments).toEqual([])
  })

  it('refuses unknown instruments', () => {
    expect(() => compose({ description: 'x', instruments: ['kazoo' as Instrument] })).toThrow(/instrument/)
  })
})

/**
 * Every sound word of the table is heard, or the page says it was not used: each word, put after a
 * rival of its own family that outweighs it (a style name ×3) or takes its part first, must either
 * show in the piece (its mood, genre, voice or texture) or be listed in heard.unused, never both.
 */
describe('every word is heard or said to be unused', () => {
  const entries = (pick: (cue: Cue) => unknown) => Object.entries(VOCABULARY).filter(([, cue]) => pick(cue) !== undefined)
  const check = (word: string, description: string, inPiece: (s: Score) => boolean) => {
    const s = compose({ description })
    expect(s.heard.words, description).toContain(word)
    expect(s.heard.unused.includes(word), `${description}: ${word} heard ${inPiece(s)}, unused ${s.heard.unused}`).toBe(!inPiece(s))
    if (!inPiece(s)) expect(heardLine(s), description).toContain(`Not used: `)
  }
  const wins = (cue: Cue, s: Score) =>
    (cue.mood !== undefined && cue.mood === s.mood) ||
    (cue.genre !== undefined && cue.genre === s.genre) ||
    (cue.instrument !== undefined && voiceOf(s, cue.instrument)) ||
    (cue.texture !== undefined && s.textures.includes(cue.texture))
  const voiceOf = (s: Score, i: Instrument) => {
    const part = INSTRUMENT_PARTS[i]
    return (
      (part.lead !== undefined && s.instrumentation.lead === part.lead) ||
      (part.chords !== undefined && s.instrumentation.chords === part.chords)
    )
  }

  it('mood words: alone each sets its mood; behind four of a rival mood it is said unused unless another cue holds', () => {
    for (const [word, cue] of entries((c) => c.mood)) {
      check(word, word, (s) => s.mood === cue.mood)
      const rival = cue.mood === 'dark' ? 'happy happy happy happy' : 'dark dark dark dark'
      check(word, `${rival} ${word}`, (s) => wins(cue, s))
    }
  })

  it('genre words: alone each sets its genre; behind a rival style name it is said unused unless it names something else', () => {
    for (const [word, cue] of entries((c) => c.genre)) {
      check(word, word, (s) => wins(cue, s))
      const rival = cue.genre === 'metal' ? 'jazz jazz' : 'metal metal'
      check(word, `${rival} ${word}`, (s) => wins(cue, s))
    }
  })

  it('instrument words: alone each sets its voice; after instruments that took both parts it is said unused', () => {
    for (const [word, cue] of entries((c) => c.instrument)) {
      check(word, `jazz ${word}`, (s) => wins(cue, s))
      check(word, `jazz with a saxophone and strings and ${word}`, (s) => wins(cue, s))
    }
    // Neither part is left for a second lead: the flute is said unused.
    expect(compose({ description: 'saxophone and flute' }).heard.unused).toEqual(['flute'])
  })

  it('texture words: each adds its sound, whatever else the description says', () => {
    for (const [word, cue] of entries((c) => c.texture)) {
      check(word, word, (s) => s.textures.includes(cue.texture!))
      check(word, `metal metal heavy ${word}`, (s) => s.textures.includes(cue.texture!))
    }
    const s = compose({ description: 'ocean waves' })
    expect(s.textures).toEqual(['waves'])
    expect(heardLine(s)).toBe('Heard: ambient · ocean waves')
  })
})
