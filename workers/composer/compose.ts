import { planSections } from './arrangement.ts'
import { bassBarNotes } from './bass.ts'
import { drumBarHits, drumPattern } from './drums.ts'
import { barChords, chooseProgressions, chordBarNotes, padBarNotes } from './harmony.ts'
import { makeMotif, sectionMelody } from './melody.ts'
import { createRng, hashString } from './prng.ts'
import type { ComposeRequest, NoteEvent, Score } from './score.ts'
import { DEFAULT_GENRE, DEFAULT_MOOD, designedBrightness, GENRE_PROFILES, isGenre, isMood, MOOD_PROFILES, tempoRange } from './styles.ts'
import { modeQuality, NOTE_NAMES, scalePitchClasses, type Key } from './theory.ts'
import { instrumentParts, instrumentsUsed, interpretDescription, isInstrument, unusedWords } from './vocabulary.ts'

export const DEFAULT_MIN_DURATION = 30
/** Release and reverb tails rendered after the last section. */
const TAIL_SECONDS = 2.5

export const normaliseDescription = (description: string): string => description.trim().toLowerCase().replace(/\s+/g, ' ')

export function scoreSeed(description: string, mood: string, genre: string): number {
  return hashString(`${normaliseDescription(description)}|${mood}|${genre}`)
}

/** Description + mood + genre → a complete, deterministic piece. */
export function compose(request: ComposeRequest): Score {
  const description = normaliseDescription(request.description ?? '')
  if (!description) throw new Error('A description is required')
  // Inference happens before the seed: the seed and the share link both see the resolved style,
  // and an explicit choice always wins over what the description suggests.
  const heard = interpretDescription(description)
  const mood = request.mood ?? heard.mood ?? DEFAULT_MOOD
  const genre = request.genre ?? heard.genre ?? DEFAULT_GENRE
  if (!isMood(mood)) throw new Error(`Unknown mood: ${String(mood)}`)
  if (!isGenre(genre)) throw new Error(`Unknown genre: ${String(genre)}`)
  const instruments = [...(request.instruments ?? heard.instruments)]
  if (!instruments.every(isInstrument)) throw new Error(`Unknown instrument in: ${String(request.instruments)}`)
  const minDuration = request.minDurationSeconds ?? DEFAULT_MIN_DURATION
  if (!(minDuration > 0 && minDuration <= 600)) throw new Error('minDurationSeconds must be in (0, 600]')

  const seed = scoreSeed(description, mood, genre)
  const rng = createRng(seed)
  const moodP = MOOD_PROFILES[mood]
  const genreP = GENRE_PROFILES[genre]

  const [lo, hi] = tempoRange(mood, genre)
  const bpm = rng.fork('tempo').int(lo, hi)
  const barSeconds = 240 / bpm
  const stepSeconds = barSeconds / 16
  const key: Key = { tonic: rng.fork('key').int(0, 11), mode: rng.fork('mode').pick(moodP.modes) }
  const quality = modeQuality(key.mode)
  const brightness = designedBrightness(mood, genre)
  const swing = genreP.swing
  const padLayer = moodP.pad && genre !== 'metal'
  const voices = instrumentParts(genre, instruments, genreP)

  const sections = planSections(barSeconds, minDuration, genreP.drums, padLayer, brightness)
  const progressions = chooseProgressions(
    rng.fork('progression'),
    quality,
    genre === 'jazz' || (genre === 'hip-hop' && rng.fork('jazzy').chance(0.5)),
  )
  const chords = barChords(key, sections, progressions, genreP.chordSize)
  const energy = moodP.energy
  const groove = drumPattern(genreP.drums, rng.fork('drums'), energy)

  const melodyRng = rng.fork('melody')
  const verseMotifs = {
    a: makeMotif(melodyRng, energy, genreP.sparseMelody, false),
    b: makeMotif(melodyRng, energy, genreP.sparseMelody, true),
  }
  const chorusMotifs = {
    a: makeMotif(melodyRng, Math.min(1, energy + 0.15), genreP.sparseMelody, false),
    b: makeMotif(melodyRng, energy, genreP.sparseMelody, true),
  }
  const bridgeMotifs = { a: makeMotif(melodyRng, energy * 0.7, true, false), b: makeMotif(melodyRng, energy * 0.7, true, true) }

  const melody: NoteEvent[] = []
  const chordNotes: NoteEvent[] = []
  const pad: NoteEvent[] = []
  const bass: NoteEvent[] = []
  const drums: Score['tracks']['drums'] = []
  const partRng = rng.fork('parts')
  const mctx = { key, swing, stepSeconds, barSeconds }

  for (const s of sections) {
    const motifs = s.name === 'chorus' ? chorusMotifs : s.name === 'bridge' ? bridgeMotifs : verseMotifs
    melody.push(...sectionMelody(mctx, s, chords, motifs, partRng, s.name === 'chorus' ? 2 : 0))
    for (let i = 0; i < s.bars; i++) {
      const bar = s.startBar + i
      const chord = chords[bar]
      if (!chord) continue
      const barStart = bar * barSeconds
      if (s.layers.chords) chordNotes.push(...chordBarNotes(key, chord, genreP, partRng, s, stepSeconds, barStart))
      if (s.layers.pad) pad.push(...padBarNotes(key, chord, s, barSeconds, barStart))
      if (s.layers.bass)
        bass.push(...bassBarNotes(key, chord, chords[bar + 1], genreP.bassRhythm, swing, partRng, s, stepSeconds, barStart))
      drums.push(...drumBarHits(groove, genreP.drums, s, i, swing, stepSeconds, barStart))
    }
  }

  const duration = sections.at(-1)?.endTime ?? 0
  return {
    version: 1,
    seed,
    tag: (seed & 0xffff).toString(16).padStart(4, '0'),
    description,
    mood,
    genre,
    instruments,
    textures: heard.textures,
    heard: {
      ...(request.mood === undefined && heard.mood ? { mood } : {}),
      ...(request.genre === undefined && heard.genre ? { genre } : {}),
      instruments: request.instruments === undefined ? instruments : [],
      textures: heard.textures,
      words: heard.words,
      // What the description named and the piece does not play: the losing side of a vote, a mood
      // or genre chosen otherwise, a second lead.
      unused: unusedWords(heard.cues, { mood, genre, instruments: instrumentsUsed(genre, instruments), textures: heard.textures }),
    },
    bpm,
    beatsPerBar: 4,
    barSeconds,
    swing,
    key: { tonic: key.tonic, name: NOTE_NAMES[key.tonic] as string },
    mode: key.mode,
    quality,
    scale: scalePitchClasses(key),
    progressions,
    chords,
    drumPattern: groove,
    sections,
    instrumentation: { lead: voices.lead, chords: voices.chords, bass: genreP.bass, drums: genreP.drums, pad: padLayer },
    brightness,
    mix: { reverb: genreP.reverb + (moodP.pad ? 0.1 : 0), delay: genreP.delay, drive: genreP.drive },
    tracks: { melody, chords: chordNotes, pad, bass, drums },
    duration,
    renderDuration: duration + TAIL_SECONDS,
  }
}
