// Loudness normalisation measured on rendered output: signals and catalogue songs of different
// loudness go through the deck's gain (deckGain at full volume, the gain songGainDb gives for the
// Normal setting) in an OfflineAudioContext, and the output is measured with BS.1770-4.
import { describe, expect, it } from 'vitest'
import { integratedLoudness } from '../../dsp/loudness.ts'
import { truePeakDbtp } from '../../dsp/true-peak.ts'
import { measureSongLoudness } from '../../dsp/song-loudness.ts'
import { deckGain } from '../../src/engine/deck-gain.ts'
import { MAX_LIMITING_DB, songGainDb, targetLufs } from '../../src/domain/playback/loudness-normalisation.ts'
import limiterUrl from '../../audio-worklets/true-peak-limiter-processor.ts?worker&url'
import { TRUE_PEAK_LIMITER_PROCESSOR } from '../../audio-worklets/true-peak-limiter-params.ts'
import { loadStripModule } from '../../src/engine/strip-wasm.ts'
import { CATALOGUE_SONGS } from '../../src/lib/catalogue/sample-songs.ts'
import type { Song } from '../../src/lib/catalogue/song.ts'

const SR = 48000

/**
 * Through a GainNode as the deck's, at full volume (and, with `limited`, the deck's true-peak limiter,
 * the real processor): the rendered stereo output.
 */
async function playThroughDeckGain(channels: Float32Array[], sampleRate: number, gainDb: number, limited = false): Promise<Float32Array[]> {
  const ctx = new OfflineAudioContext(2, channels[0]!.length, sampleRate)
  if (limited) await ctx.audioWorklet.addModule(limiterUrl)
  const stripModule = limited ? await loadStripModule() : null
  const buffer = ctx.createBuffer(channels.length, channels[0]!.length, sampleRate)
  channels.forEach((c, i) => buffer.copyToChannel(new Float32Array(c), i))
  const source = ctx.createBufferSource()
  source.buffer = buffer
  const gain = ctx.createGain()
  gain.gain.value = deckGain(100, gainDb)
  source.connect(gain)
  const last: AudioNode = limited
    ? gain.connect(
        new AudioWorkletNode(ctx, TRUE_PEAK_LIMITER_PROCESSOR, {
          outputChannelCount: [2],
          channelCount: 2,
          channelCountMode: 'explicit',
          processorOptions: { ceilingDb: -1, stripModule },
        }),
      )
    : gain
  last.connect(ctx.destination)
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

describe("loudness normalisation with the true-peak limiter (the deck's path)", () => {
  // The catalogue songs with the least headroom: without the limiter they play 2.7–3.1 dB under
  // Normal's −14 and 5.3–6.1 dB under Loud's −11.
  const needy = (setting: 'normal' | 'loud', n: number) =>
    [...CATALOGUE_SONGS]
      .sort(
        (a, b) =>
          songGainDb(a, setting, 0) -
          (targetLufs(setting)! - a.loudnessLufs!) -
          (songGainDb(b, setting, 0) - (targetLufs(setting)! - b.loudnessLufs!)),
      )
      .slice(0, n)

  it.each(['normal', 'loud'] as const)(
    '%s: the songs with the least headroom reach the target within 1 LU, true peak ≤ −1 dBTP',
    async (setting) => {
      for (const song of needy(setting, 2)) {
        const bytes = await (await fetch(song.audioUrl)).arrayBuffer()
        const decoded = await new OfflineAudioContext(2, 1, 44100).decodeAudioData(bytes)
        const channels = [decoded.getChannelData(0), decoded.getChannelData(decoded.numberOfChannels > 1 ? 1 : 0)]
        const withoutLimiter = songGainDb(song, setting, 0)
        const gainDb = songGainDb(song, setting, MAX_LIMITING_DB)
        expect(gainDb - withoutLimiter, song.id).toBeGreaterThan(2.5)
        const out = await playThroughDeckGain(channels, decoded.sampleRate, gainDb, true)
        const target = targetLufs(setting)!
        expect(Math.abs(integratedLoudness(out, decoded.sampleRate) - target), `${song.id} at ${target} LUFS`).toBeLessThanOrEqual(1)
        expect(truePeakDbtp(out), song.id).toBeLessThanOrEqual(-1)
      }
    },
    120_000,
  )

  it('a song with headroom passes the limiter unchanged (null test against the gain alone, after its latency)', async () => {
    const signal = programme(-20, 4)
    const song = { id: 't', title: 't', artist: 'a', duration: '0:04', image: '', audioUrl: '', ...measureSongLoudness(signal, SR) } as Song
    const gainDb = songGainDb(song, 'normal', MAX_LIMITING_DB)
    const plain = await playThroughDeckGain(signal, SR, gainDb)
    const limited = await playThroughDeckGain(signal, SR, gainDb, true)
    expect(truePeakDbtp(plain)).toBeLessThan(-1.1)
    // Find the limiter's latency, then compare sample by sample.
    let lag = 0
    while (Math.abs(limited[0]![lag]!) < 1e-9 && lag < 500) lag++
    let first = 0
    while (Math.abs(plain[0]![first]!) < 1e-9) first++
    const delay = lag - first
    expect(delay).toBeGreaterThan(0)
    expect(delay).toBeLessThan(0.002 * SR)
    let worst = 0
    for (let i = 0; i < plain[0]!.length - delay; i++) worst = Math.max(worst, Math.abs(limited[0]![i + delay]! - plain[0]![i]!))
    expect(worst).toBeLessThan(1e-6)
  })
})
