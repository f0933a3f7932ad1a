/**
 * Waveform peaks from song bytes in real Chromium (src/engine/song-peaks-decoder.ts): the WebCodecs
 * path (decode in the worker) and the frame-split path (bounded native decodes) both draw the same
 * waveform as one native whole-file decode of a shipped sample; other formats go through the whole
 * decode; bad bytes give the user-facing error.
 */
import { describe, expect, it } from 'vitest'
import { OfflineAudioContext } from 'standardized-audio-context'
import { peaksFromBytes, splitDecodeRate } from '../../src/engine/song-peaks-decoder.ts'
import { encodeWavBuffer } from '../../src/engine/workers.ts'
import { computePeaks, toWaveSurferPeaks, type ChannelPeaks } from '../../workers/peaks.ts'

const SAMPLE = '/audio/samples/neon-drift.mp3'
const BUCKETS = 2000

const fetchBytes = async (url: string) => (await fetch(url)).arrayBuffer()

/** The reference: one native decode of the whole file (at `rate`), peaks on the main thread. */
async function wholeDecodePeaks(bytes: ArrayBuffer, rate: number): Promise<{ peaks: ChannelPeaks[]; duration: number }> {
  const decoded = await new OfflineAudioContext({ numberOfChannels: 1, length: 1, sampleRate: rate }).decodeAudioData(bytes)
  const channels = Array.from({ length: decoded.numberOfChannels }, (_, c) => decoded.getChannelData(c))
  return { peaks: computePeaks(channels, BUCKETS), duration: decoded.duration }
}

/** Largest and mean difference between two waveforms as drawn ([max, min] over channels), relative to the full scale of the reference. */
function waveformDifference(a: ChannelPeaks[], b: ChannelPeaks[]): { max: number; mean: number } {
  const [at, ab] = toWaveSurferPeaks(a)
  const [bt, bb] = toWaveSurferPeaks(b)
  let scale = 0
  for (let i = 0; i < bt.length; i++) scale = Math.max(scale, Math.abs(bt[i]!), Math.abs(bb[i]!))
  let max = 0
  let sum = 0
  for (let i = 0; i < bt.length; i++) {
    const d = Math.max(Math.abs(at[i]! - bt[i]!), Math.abs(ab[i]! - bb[i]!)) / scale
    max = Math.max(max, d)
    sum += d
  }
  return { max, mean: sum / bt.length }
}

describe('peaksFromBytes on a shipped sample MP3', () => {
  it('WebCodecs in the worker: same duration and waveform as a whole-file native decode', async () => {
    const bytes = await fetchBytes(SAMPLE)
    const ref = await wholeDecodePeaks(bytes.slice(0), 44100)
    const got = await peaksFromBytes(bytes, BUCKETS)
    expect(got.via).toBe('webcodecs')
    expect(got.peaks.length).toBe(2)
    expect(got.peaks[0]!.max.length).toBe(BUCKETS)
    expect(Math.abs(got.duration - ref.duration)).toBeLessThan(0.002)
    const d = waveformDifference(got.peaks, ref.peaks)
    // Measured: identical (same decoder, same gapless trim, same samples).
    expect(d.max).toBeLessThan(1e-3)
    expect(d.mean).toBeLessThan(1e-4)
  })

  it('frame-split native decodes (no WebCodecs): same duration and waveform as a whole-file decode at the same rate', async () => {
    const bytes = await fetchBytes(SAMPLE)
    expect(splitDecodeRate(44100, 1152)).toBe(3675)
    const ref = await wholeDecodePeaks(bytes.slice(0), 3675)
    const got = await peaksFromBytes(bytes, BUCKETS, { webCodecs: false })
    expect(got.via).toBe('split')
    expect(Math.abs(got.duration - ref.duration)).toBeLessThan(0.002)
    const d = waveformDifference(got.peaks, ref.peaks)
    // Measured: at most 1.8 % of full scale in any bucket, 0.3 % on average (under a pixel at the
    // Now Playing height); chunk edges and the resampler's phase against the gapless trim differ.
    expect(d.max).toBeLessThan(0.03)
    expect(d.mean).toBeLessThan(0.005)
  })
})

describe('peaksFromBytes on other input', () => {
  it('an MP3 behind an ID3v2 tag and cut mid-frame still decodes in the worker, tag ignored', async () => {
    const bytes = new Uint8Array(await fetchBytes(SAMPLE))
    // Bigger than the junk parseMp3 tolerates before a first frame: only skipping the tag finds the audio.
    const tag = new Uint8Array(10 + 6000).fill(0xff)
    tag.set([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 46, 112]) // "ID3" v2.4, synchsafe size 46·128 + 112 = 6000
    const cut = Math.floor(bytes.length / 2) + 100
    const tagged = new Uint8Array(tag.length + cut)
    tagged.set(tag)
    tagged.set(bytes.subarray(0, cut), tag.length)
    const whole = await peaksFromBytes(bytes.slice().buffer, BUCKETS)
    const plain = await peaksFromBytes(bytes.slice(0, cut).buffer, BUCKETS)
    const got = await peaksFromBytes(tagged.buffer, BUCKETS)
    expect(got.via).toBe('webcodecs')
    expect(Math.abs(got.duration - whole.duration / 2)).toBeLessThan(0.1)
    expect(got.duration).toBe(plain.duration)
    // The tag changes nothing: the same frames are decoded.
    expect(waveformDifference(got.peaks, plain.peaks).max).toBeLessThan(1e-6)
    // Its first bucket is the song's first 43 ms, as in the untouched file.
    expect(got.peaks[0]!.max[0]).toBeCloseTo(whole.peaks[0]!.max[0]!, 2)
  })

  it('a WAV goes through one native decode and gives its exact peaks', async () => {
    const sr = 8000
    const left = Float32Array.from({ length: sr }, (_, i) => (i < sr / 2 ? 0.5 : 0.25) * Math.sin((2 * Math.PI * 100 * i) / sr))
    const right = new Float32Array(sr).fill(-0.125)
    const got = await peaksFromBytes(await encodeWavBuffer([left, right], sr, 'float32'), 4)
    expect(got.via).toBe('whole')
    expect(got.duration).toBeCloseTo(1, 3)
    expect(got.peaks[0]!.max[0]).toBeCloseTo(0.5, 2)
    expect(got.peaks[0]!.max[3]).toBeCloseTo(0.25, 2)
    expect(got.peaks[1]!.min[2]).toBeCloseTo(-0.125, 3)
  })

  it('bytes that are no audio reject with the user-facing message', async () => {
    const junk = new TextEncoder().encode('this is not audio '.repeat(200)).buffer
    await expect(peaksFromBytes(junk, 100)).rejects.toThrow('the audio file is corrupt or in an unsupported format')
  })
})
