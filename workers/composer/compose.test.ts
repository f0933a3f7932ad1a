import { describe, expect, it } from 'vitest'
import { compose, GENRES, MOODS, tempoRange, designedBrightness, scoreTitle, type Mood, type Genre } from './index.ts'
import { modeQuality } from './theory.ts'

const DESC = 'Neon rain falling on an empty city at night'

describe('composer', () => {
  it('is deterministic: the same input gives the same score', () => {
    const a = compose({ description: DESC, mood: 'dark', genre: 'electronic' })
    const b = compose({ description: `  ${DESC.toUpperCase()}  `, mood: 'dark', genre: 'electronic' })
    // Case and spacing of the description are normalised away; everything else is identical.
    expect(b).toEqual(a)
    expect(compose({ description: DESC, mood: 'dark', genre: 'electronic' })).toEqual(a)
  })

  it('gives different pieces for different descriptions', () => {
    const descriptions = ['sunrise over the ocean', 'a robot learning to dance', 'rain on a tin roof', 'midnight drive', 'forest spirits']
    const scores = descriptions.map((description) => compose({ description }))
    const melodies = new Set(scores.map((s) => JSON.stringify(s.tracks.melody.map((n) => n.midi))))
    expect(melodies.size).toBe(descriptions.length)
    // Not only the notes: tempo, key or progression differ across the set too.
    expect(new Set(scores.map((s) => `${s.bpm}/${s.key.tonic}/${s.progressions.verse.join()}`)).size).toBeGreaterThan(1)
  })

  it('defaults to upbeat electronic and refuses an empty description or unknown styles', () => {
    const s = compose({ description: 'x' })
    expect([s.mood, s.genre]).toEqual(['upbeat', 'electronic'])
    expect(() => compose({ description: '   ' })).toThrow(/description/)
    expect(() => compose({ description: 'x', mood: 'angry' as Mood })).toThrow(/mood/)
    expect(() => compose({ description: 'x', genre: 'polka' as Genre })).toThrow(/genre/)
  })

  it('keeps every tempo inside its designed range; energetic > upbeat > chill > sad in every genre', () => {
    for (const genre of GENRES) {
      for (const mood of MOODS) {
        const [lo, hi] = tempoRange(mood, genre)
        for (const description of ['one', 'two', 'three']) {
          const { bpm } = compose({ description, mood, genre })
          expect(bpm).toBeGreaterThanOrEqual(lo)
          expect(bpm).toBeLessThanOrEqual(hi)
        }
      }
      const order: Mood[] = ['energetic', 'upbeat', 'chill', 'sad']
      for (let i = 1; i < order.length; i++) expect(tempoRange(order[i - 1]!, genre)[0]).toBeGreaterThan(tempoRange(order[i]!, genre)[1])
    }
    // Genre moves tempo too: metal is faster than rock, rock than hip-hop, hip-hop than ambient.
    const g: Genre[] = ['metal', 'rock', 'hip-hop', 'ambient']
    for (let i = 1; i < g.length; i++) expect(tempoRange('upbeat', g[i - 1]!)[0]).toBeGreaterThan(tempoRange('upbeat', g[i]!)[1])
  })

  it('picks the mode quality of the mood: major for upbeat/chill/happy/romantic, minor for the rest', () => {
    const major: Mood[] = ['upbeat', 'chill', 'happy', 'romantic']
    for (const mood of MOODS) {
      for (const description of ['alpha', 'beta', 'gamma', 'delta']) {
        const s = compose({ description, mood })
        expect(s.quality).toBe(major.includes(mood) ? 'major' : 'minor')
        expect(modeQuality(s.mode)).toBe(s.quality)
      }
    }
  })

  it('shapes brightness and instrumentation by mood and genre', () => {
    expect(designedBrightness('energetic', 'metal')).toBeGreaterThan(designedBrightness('dark', 'ambient') + 0.5)
    expect(compose({ description: DESC, mood: 'dark' }).brightness).toBeLessThan(
      compose({ description: DESC, mood: 'energetic' }).brightness,
    )
    expect(compose({ description: DESC, genre: 'ambient' }).brightness).toBeLessThan(
      compose({ description: DESC, genre: 'rock' }).brightness,
    )
    const lead = (genre: Genre) => compose({ description: DESC, genre }).instrumentation
    expect(lead('classical').drums).toBe('none')
    expect(compose({ description: DESC, genre: 'classical' }).tracks.drums).toHaveLength(0)
    expect(lead('metal').lead).toBe('distorted')
    expect(lead('jazz').bass).toBe('upright')
    expect(new Set(GENRES.map((g) => JSON.stringify(lead(g)))).size).toBeGreaterThanOrEqual(8)
  })

  it('writes every melodic note inside the key and scale', () => {
    for (const mood of MOODS) {
      for (const genre of GENRES) {
        const s = compose({ description: `${mood} ${genre} test`, mood, genre })
        const notes = [...s.tracks.melody, ...s.tracks.chords, ...s.tracks.bass, ...s.tracks.pad]
        expect(notes.length).toBeGreaterThan(0)
        expect(notes.filter((n) => !s.scale.includes(n.midi % 12))).toEqual([])
        expect(s.chords.flatMap((c) => c.pitchClasses).filter((pc) => !s.scale.includes(pc))).toEqual([])
      }
    }
  })

  it('arranges intro … outro sections covering at least 30 s (or the requested length), contiguously', () => {
    for (const genre of GENRES) {
      for (const mood of ['energetic', 'sad'] as Mood[]) {
        for (const min of [30, 75]) {
          const s = compose({ description: 'sections', mood, genre, minDurationSeconds: min })
          expect(s.sections[0]!.name).toBe('intro')
          expect(s.sections.at(-1)!.name).toBe('outro')
          expect(s.sections.some((x) => x.name === 'verse')).toBe(true)
          expect(s.duration).toBeGreaterThanOrEqual(min)
          expect(s.sections.at(-1)!.endTime).toBeCloseTo(s.duration, 6)
          s.sections.forEach((x, i) => i > 0 && expect(x.startBar).toBe(s.sections[i - 1]!.startBar + s.sections[i - 1]!.bars))
          expect(s.chords).toHaveLength(s.sections.reduce((n, x) => n + x.bars, 0))
          const events = [...s.tracks.melody, ...s.tracks.chords, ...s.tracks.bass, ...s.tracks.drums]
          expect(events.filter((e) => !(e.time >= 0 && e.time < s.duration))).toEqual([])
          expect(s.renderDuration).toBeGreaterThan(s.duration)
        }
      }
    }
  })

  it('titles a piece from its description (mood and genre when the description has no words of its own)', () => {
    const s = compose({ description: DESC, mood: 'upbeat', genre: 'hip-hop' })
    expect(scoreTitle(s)).toMatch(/^Neon Rain Falling on an Empty City #[0-9a-f]{4}$/)
    expect(scoreTitle({ ...s, description: 'make me a sad jazz piano piece on a rainy night, please' })).toBe(
      `Sad Jazz Piano Piece on a Rainy Night #${s.tag}`,
    )
    expect(scoreTitle({ ...s, description: '  ' })).toBe(`Upbeat Hip-Hop #${s.tag}`)
    expect(scoreTitle({ ...s, description: 'make me a …' })).toBe(`Upbeat Hip-Hop #${s.tag}`)
  })
})
