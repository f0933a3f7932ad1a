// Loudness normalisation measured on rendered output: signals and catalogue songs of different
// loudness go through the deck's gain (deckGain at full volume, the gain songGainDb gives for the
// Normal setting) in an OfflineAudioContext, and the output is measured with BS.1770-4.
import { describe, expect, it } from 'vitest'
import { integratedLoudness } from '../../dsp/loudness.ts'
import { truePeakDbtp } from '../../dsp/true-peak.ts'
import { measureSongLoudness } from '../../dsp/song-loudness.ts'
import { deckGain } from '../../src/engine/deck-gain.ts'
import { songGainDb } from '../../src/domain/playback/loudness-normalisation.ts'
import { CATALOGUE_SONGS } from '../../src/lib/catalogue/sample-songs.ts'
import type { Song } from '../../src/lib/catalogue/song.ts'

const SR = 48000

/** Through a GainNode as the deck's, at full volume: the rendered stereo output. */
async function playThroughDeckGain(channels: Float32Array[], sampleRate: number, gainDb: number): Promise<Float32Array[]> {
  const ctx = new OfflineAudioContext(2, channels[0]!.length, sampleRate)
  const buffer = ctx.createBuffer(channels.length, channels[0]!.length, sampleRate)
  channels.forEach((c, i) => buffer.copyToChannel(new Float32Array(c), i))
  const source = ctx.createBufferSource()
  source.buffer = buffer
  const gain = ctx.createGain()
  gain.gain.value = deckGain(100, gainDb)
  source.connect(gain).connect(ctx.destination)
  source.start()
  const out = await ctx.startRendering()
  return [out.getChannelData(0), out.getChannelData(1)]
}

/** A music-like test signal: a chord with a beat, scaled to `lufs`. */
function programme(lufs: number, seconds = 12): Float32Array[] {
  const n = SR * seconds
  const l = new Float32Array(n)
  const r = new Float32Array(n)
  for (let i = 0; i < n; i++) {
    const t = i / SR
    const beat = 0.5 + 0.5 * Math.exp(-((t * 2) % 1) * 6)
    l[i] = beat * (Math.sin(2 * Math.PI * 110 * t) + 0.5 * Math.sin(2 * Math.PI * 277 * t) + 0.3 * Math.sin(2 * Math.PI * 1650 * t))
    r[i] = beat * (Math.sin(2 * Math.PI * 110 * t) + 0.5 * Math.sin(2 * Math.PI * 330 * t) + 0.3 * Math.sin(2 * Math.PI * 2200 * t))
  }
  const scale = 10 ** ((lufs - integratedLoudness([l, r], SR)) / 20)
  for (let i = 0; i < n; i++) {
    l[i]! *= scale
    r[i]! *= scale
  }
  return [l, r]
}

describe('loudness normalisation on rendered output (Normal: −14 LUFS)', () => {
  it('two signals stored at −20 and −8 LUFS both come out within 1 LU of −14, true peak ≤ −1 dBTP', async () => {
    for (const lufs of [-20, -8]) {
      const signal = programme(lufs)
      const stored = measureSongLoudness(signal, SR)
      expect(stored.loudnessLufs).toBeCloseTo(lufs, 1)
      const song: Song = { id: `test${lufs}`, title: 't', artist: 'a', duration: '0:12', image: '', audioUrl: '', ...stored } as Song
      const out = await playThroughDeckGain(signal, SR, songGainDb(song, 'normal'))
      expect(Math.abs(integratedLoudness(out, SR) + 14), `stored ${lufs} LUFS`).toBeLessThanOrEqual(1)
      expect(truePeakDbtp(out), `stored ${lufs} LUFS`).toBeLessThanOrEqual(-1)
    }
  })

  it('two catalogue songs of different loudness play within 1 LU of −14 LUFS, true peak ≤ −1 dBTP', async () => {
    const loud = CATALOGUE_SONGS.find((s) => s.id === 'clockwork-prelude')!
    const quieter = CATALOGUE_SONGS.find((s) => s.id === 'holo-hearts')!
    expect(loud.loudnessLufs! - quieter.loudnessLufs!).toBeGreaterThan(3)
    for (const song of [loud, quieter]) {
      const bytes = await (await fetch(song.audioUrl)).arrayBuffer()
      const decoded = await new OfflineAudioContext(2, 1, 44100).decodeAudioData(bytes)
      const channels = [decoded.getChannelData(0), decoded.getChannelData(decoded.numberOfChannels > 1 ? 1 : 0)]
      const out = await playThroughDeckGain(channels, decoded.sampleRate, songGainDb(song, 'normal'))
      expect(Math.abs(integratedLoudness(out, decoded.sampleRate) + 14), song.id).toBeLessThanOrEqual(1)
      expect(truePeakDbtp(out), song.id).toBeLessThanOrEqual(-1)
    }
  })

  it('Off plays a song as it is, Quiet −19 LUFS turns it down to within 1 LU of −19', async () => {
    const signal = programme(-8, 6)
    const song = { id: 't', title: 't', artist: 'a', duration: '0:06', image: '', audioUrl: '', ...measureSongLoudness(signal, SR) } as Song
    const off = await playThroughDeckGain(signal, SR, songGainDb(song, 'off'))
    expect(integratedLoudness(off, SR)).toBeCloseTo(-8, 1)
    const quiet = await playThroughDeckGain(signal, SR, songGainDb(song, 'quiet'))
    expect(Math.abs(integratedLoudness(quiet, SR) + 19)).toBeLessThanOrEqual(1)
  })
})
