/**
 * Beat Match on the shipped catalogue: every song's MP3 decoded by Chromium, analysed exactly as
 * the Remix Studio does (workers/remix-analysis.ts on the decoded channels), against the tempo its
 * recipe was composed at (scripts/sample-catalogue.ts → compose(): the known tempo).
 */
import { describe, expect, it } from 'vitest'
import { ALL_CATALOGUE, sampleAudioUrl } from '../../scripts/sample-catalogue.ts'
import { compose } from '../../workers/composer/index.ts'
import { analyseRemixSource } from '../../workers/remix-analysis.ts'

describe('tempo of the catalogue songs', () => {
  it(`all ${ALL_CATALOGUE.length} catalogue songs: every detected tempo within ±1 BPM of the recipe's`, async () => {
    const rows: string[] = []
    let right = 0
    for (const song of ALL_CATALOGUE) {
      const bytes = await (await fetch(sampleAudioUrl(song.id))).arrayBuffer()
      const buffer = await new OfflineAudioContext(1, 1, 44100).decodeAudioData(bytes)
      const channels = Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c))
      const { bpm } = analyseRemixSource(channels, buffer.sampleRate)
      const truth = compose(song.recipe).bpm
      if (Math.abs(bpm - truth) <= 1) right++
      else rows.push(`${song.id} ${truth} → ${bpm}`)
    }
    console.log(`catalogue tempo: ${right}/${ALL_CATALOGUE.length} within ±1 BPM; misses: ${rows.join('; ') || 'none'}`)
    expect(rows).toEqual([])
  }, 240_000)
})
