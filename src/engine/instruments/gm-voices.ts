/**
 * Which General MIDI program plays each of the composer's parts: from the instruments the score
 * already chose (lead/chord/bass kinds and the drum kit, which follow the description, mood and
 * genre), refined by genre and mood, and overridden by any GM instrument the description names
 * ('a cello solo', 'church organ') beyond the composer's own eight instrument words.
 */
import type { Score } from '../../../workers/composer/score.ts'
import type { BassKind, ChordKind, DrumKit, LeadKind } from '../../../workers/composer/styles.ts'

export interface GmVoices {
  melody: number
  chords: number
  pad: number
  bass: number
  /** The drum kit's program on the drum channel (GS kits: 0 standard, 8 room, 16 power, 24/25 electronic, 40 brush). */
  drumKit: number
}

const LEAD: Record<LeadKind, number> = {
  supersaw: 81, // Lead 2 (sawtooth)
  square: 80, // Lead 1 (square)
  distorted: 30, // Distortion Guitar
  epiano: 4, // Electric Piano 1
  vibes: 11, // Vibraphone
  flute: 73, // Flute
  bell: 14, // Tubular Bells
  pluck: 45, // Pizzicato Strings
  sax: 65, // Alto Sax
}

const CHORDS: Record<ChordKind, number> = {
  'saw-pad': 90, // Pad 3 (polysynth)
  pluck: 46, // Orchestral Harp
  power: 29, // Overdriven Guitar
  epiano: 4, // Electric Piano 1
  guitar: 25, // Acoustic Guitar (steel)
  strings: 48, // String Ensemble 1
  glass: 92, // Pad 5 (bowed glass)
}

const BASS: Record<BassKind, number> = {
  saw: 38, // Synth Bass 1
  sub: 39, // Synth Bass 2
  pick: 34, // Electric Bass (pick)
  upright: 32, // Acoustic Bass
  cello: 42, // Cello
  distorted: 87, // Lead 8 (bass + lead)
}

const KIT: Record<DrumKit, number> = {
  electronic: 25,
  pop: 0,
  rock: 16,
  'boom-bap': 8,
  brush: 40,
  light: 0,
  metal: 16,
  soft: 8,
  none: 0,
}

type Role = 'melody' | 'chords' | 'pad' | 'bass'

/** Instruments a description may name that the composer's vocabulary does not steer: word → program and part. */
export const NAMED_GM_INSTRUMENTS: Readonly<Record<string, { program: number; role: Role }>> = {
  trumpet: { program: 56, role: 'melody' },
  trombone: { program: 57, role: 'melody' },
  horn: { program: 60, role: 'melody' },
  violin: { program: 40, role: 'melody' },
  viola: { program: 41, role: 'melody' },
  cello: { program: 42, role: 'melody' },
  clarinet: { program: 71, role: 'melody' },
  oboe: { program: 68, role: 'melody' },
  harmonica: { program: 22, role: 'melody' },
  whistle: { program: 78, role: 'melody' },
  ocarina: { program: 79, role: 'melody' },
  sitar: { program: 104, role: 'melody' },
  marimba: { program: 12, role: 'melody' },
  xylophone: { program: 13, role: 'melody' },
  celesta: { program: 8, role: 'melody' },
  kalimba: { program: 108, role: 'melody' },
  organ: { program: 19, role: 'chords' },
  accordion: { program: 21, role: 'chords' },
  harpsichord: { program: 6, role: 'chords' },
  harp: { program: 46, role: 'chords' },
  banjo: { program: 105, role: 'chords' },
  ukulele: { program: 24, role: 'chords' },
  choir: { program: 52, role: 'pad' },
  voices: { program: 53, role: 'pad' },
}

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)

export function gmVoices(score: Pick<Score, 'description' | 'genre' | 'mood' | 'instruments' | 'instrumentation'>): GmVoices {
  const inst = score.instrumentation
  const named = new Set(score.instruments)
  const voices: GmVoices = {
    melody: LEAD[inst.lead],
    chords: CHORDS[inst.chords],
    pad: score.genre === 'electronic' || score.genre === 'ambient' ? 89 /* Pad 2 (warm) */ : 49 /* Slow Strings */,
    bass: BASS[inst.bass],
    drumKit: KIT[inst.drums],
  }
  // The composer's 'epiano' voice stands for any piano: a description that says piano gets the grand.
  if (named.has('piano')) {
    if (inst.lead === 'epiano') voices.melody = 0
    if (inst.chords === 'epiano') voices.chords = 0
  }
  if (score.genre === 'jazz') {
    if (inst.lead === 'sax') voices.melody = 66 // Tenor Sax
    if (inst.chords === 'guitar') voices.chords = 26 // Electric Guitar (jazz)
  }
  if (score.genre === 'classical' && inst.chords === 'epiano') voices.chords = 0
  if (score.genre === 'folk' && inst.chords === 'guitar') voices.chords = 24 // Acoustic Guitar (nylon)
  if (score.genre === 'rock' && inst.chords === 'power') voices.chords = 29
  if (score.genre === 'metal' && inst.chords === 'power') voices.chords = 30
  if (score.mood === 'sad' && voices.chords === 48) voices.chords = 49
  const taken = new Set<Role>()
  for (const w of words(score.description)) {
    const hit = NAMED_GM_INSTRUMENTS[w] ?? NAMED_GM_INSTRUMENTS[w.replace(/s$/, '')]
    if (!hit || taken.has(hit.role)) continue
    voices[hit.role] = hit.program
    taken.add(hit.role)
  }
  return voices
}
