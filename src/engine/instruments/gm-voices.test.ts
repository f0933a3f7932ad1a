import { describe, expect, it } from 'vitest'
import { compose } from '../../../workers/composer/index.ts'
import { DRUM_CHANNEL, SYNTH_NOTE_OFF, SYNTH_NOTE_ON, SYNTH_PROGRAM } from '../../../audio-worklets/soundfont-sequence.ts'
import { gmVoices } from './gm-voices.ts'
import { scoreToSynthEvents } from './score-midi.ts'
import { ambienceOf } from './ambience.ts'

describe('GM voices from the description, mood and genre', () => {
  it('gives a piano description the acoustic grand, jazz its upright bass and brush kit', () => {
    const v = gmVoices(compose({ description: 'sad jazz piano on a rainy night' }))
    expect(v).toMatchObject({ melody: 0, chords: 0, bass: 32, drumKit: 40 })
  })

  it('gives a named GM instrument its part: cello lead, church organ chords, choir pad', () => {
    expect(gmVoices(compose({ description: 'a cello over an organ', genre: 'classical' }))).toMatchObject({ melody: 42, chords: 19 })
    expect(gmVoices(compose({ description: 'choir in the cathedral', genre: 'ambient' })).pad).toBe(52)
  })

  it('keeps the saxophone a saxophone (tenor in jazz, alto elsewhere) and electronic pieces synthetic', () => {
    expect(gmVoices(compose({ description: 'smoky bar saxophone', genre: 'jazz' })).melody).toBe(66)
    expect(gmVoices(compose({ description: 'lonely saxophone', genre: 'electronic' })).melody).toBe(65)
    expect(gmVoices(compose({ description: 'festival', mood: 'upbeat', genre: 'electronic' }))).toMatchObject({
      melody: 81,
      chords: 90,
      bass: 38,
    })
  })
})

describe('score as MIDI events', () => {
  const score = compose({ description: 'sad jazz piano on a rainy night' })
  const events = scoreToSynthEvents(score, { sampleRate: 44100 })

  it('sets each part’s program before any note, puts the drums on channel 10 and sorts by frame', () => {
    const programs = events.filter((e) => e.kind === SYNTH_PROGRAM)
    expect(programs.map((e) => [e.channel, e.a])).toEqual(
      expect.arrayContaining([
        [0, 0],
        [1, 0],
        [DRUM_CHANNEL, 40],
      ]),
    )
    const firstNote = events.findIndex((e) => e.kind === SYNTH_NOTE_ON)
    expect(events.slice(firstNote).some((e) => e.kind === SYNTH_PROGRAM)).toBe(false)
    expect(events.filter((e) => e.kind === SYNTH_NOTE_ON && e.channel === DRUM_CHANNEL)).toHaveLength(score.tracks.drums.length)
    for (let i = 1; i < events.length; i++) expect(events[i]!.frame).toBeGreaterThanOrEqual(events[i - 1]!.frame)
  })

  it('plays every note of the score once, with its velocity, and ends it', () => {
    const ons = events.filter((e) => e.kind === SYNTH_NOTE_ON && e.channel === 0)
    expect(ons).toHaveLength(score.tracks.melody.length)
    expect(ons[0]!.a).toBe(score.tracks.melody[0]!.midi)
    expect(ons[0]!.b).toBe(Math.round(score.tracks.melody[0]!.velocity * 127))
    expect(events.filter((e) => e.kind === SYNTH_NOTE_OFF && e.channel === 0)).toHaveLength(ons.length)
  })
})

describe('ambience words', () => {
  it('hears rain, vinyl and city in order of mention, and nothing in a plain description', () => {
    expect(ambienceOf('Lo-fi beats, vinyl crackle and rain on a city street')).toEqual(['vinyl', 'rain', 'city'])
    expect(ambienceOf('a stormy night')).toEqual(['rain'])
    expect(ambienceOf('sad jazz piano')).toEqual([])
  })
})
