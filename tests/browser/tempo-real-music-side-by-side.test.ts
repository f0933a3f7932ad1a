/**
 * Tempo on real music written by people: MIDI files from npm packages
 * (tests/fixtures/tempo-real-music/manifest.json: ragtime, Bach, Mozart, Debussy, Satie, two band
 * arrangements with drums), rendered by the app's SoundFont engine into 30 s excerpts by
 * `npx tsx scripts/tempo-real-music/render.ts` (the WAVs are not in git: render them first). Ours
 * (the Remix Studio's mixdown, then dsp/tempo-detect.ts) against web-audio-beat-detector's
 * `guess` at its default range and at ours, on the same decoded buffers, per split: the tuning part
 * (fitted and tuned on) and the held-out part (never). A hit is within ±1 BPM of the file's tempo;
 * double or half is a miss, counted apart. The figures are pinned; docs/tempo-real-music.md has them.
 */
import { describe, expect, it } from 'vitest'
import { guess } from 'web-audio-beat-detector'
import { remixMixdown } from '../../workers/remix-analysis.ts'
import { detectTempo } from '../../dsp/tempo-detect.ts'
import { scoreSplit, type RenderedExcerpt, type SplitScore } from '../../scripts/tempo-real-music/score.ts'

const DIR = '/reports/tempo-real-music'

/** The library's unrounded tempo: its worker returns it beside `bpm`, its types omit it. */
function libraryTempo(result: { bpm: number }): number {
  const tempo = (result as { tempo?: unknown }).tempo
  return typeof tempo === 'number' ? tempo : result.bpm
}

const line = (name: string, s: SplitScore) =>
  `${name} ${s.split}: ${s.right}/${s.n} within ±1 BPM, ${s.octave} double/half; misses: ${s.misses.join('; ') || 'none'}`

describe('tempo on real music: ours against web-audio-beat-detector', () => {
  it('tuning and held-out splits, pinned', async () => {
    const response = await fetch(`${DIR}/index.json`)
    if (!response.ok) throw new Error('Render the set first: npx tsx scripts/tempo-real-music/render.ts')
    const index = (await response.json()) as RenderedExcerpt[]
    const ours = new Map<string, number>(),
      libDefault = new Map<string, number>(),
      libOurRange = new Map<string, number>()
    for (const ex of index) {
      const bytes = await (await fetch(`${DIR}/${ex.id}.wav`)).arrayBuffer()
      const buffer = await new OfflineAudioContext(1, 1, 44100).decodeAudioData(bytes)
      const channels = Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c))
      const { x, rate } = remixMixdown(channels, buffer.sampleRate)
      ours.set(ex.id, detectTempo(x, rate).bpm)
      libDefault.set(ex.id, libraryTempo(await guess(buffer)))
      libOurRange.set(ex.id, libraryTempo(await guess(buffer, { minTempo: 50, maxTempo: 200 })))
    }
    const figures: Record<string, [number, number]> = {}
    const lines: string[] = []
    for (const [name, found] of [
      ['ours', ours],
      ['library 90–180', libDefault],
      ['library 50–200', libOurRange],
    ] as const) {
      const t = scoreSplit(index, found, 'tuning'),
        h = scoreSplit(index, found, 'held-out')
      figures[name] = [t.right, h.right]
      lines.push(line(name, t), line(name, h))
    }
    console.log(`tempo on real music (${index.length} excerpts)\n${lines.join('\n')}`)
    expect(figures).toEqual(PINNED)
    // The issue: time signatures other than 4/4 and drumless solo pieces must not halve the tempo.
    // None in 2/4 or 3/4 does; Debussy's Arabesque (4/4, triplet arpeggios at 144) does: pinned so
    // a change is seen.
    const halved = index.filter((ex) => Math.abs(ours.get(ex.id)! - ex.bpm / 2) <= 1).map((ex) => ex.id)
    expect(halved).toEqual(['debussy-arabesque-no1-1', 'debussy-arabesque-no1-2'])
  }, 240_000)
})

/**
 * [tuning hits, held-out hits] out of 17 and 16 excerpts. Ours was [7, 6] before the model's
 * 2026-11-27 refit (fitted on the rhythm signals too): Peacherine Rag's second excerpt now reads 160
 * for its notated 80, as its first already did.
 */
const PINNED: Record<string, [number, number]> = {
  ours: [7, 5],
  'library 90–180': [3, 2],
  'library 50–200': [7, 5],
}
