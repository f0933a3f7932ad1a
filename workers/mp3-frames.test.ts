import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { decodedLength, id3v2Size, leadingSkip, MP3_DECODER_DELAY, parseFrameHeader, parseMp3, splitFrames } from './mp3-frames.ts'
import { SAMPLE_SONGS } from '../src/lib/catalogue/sample-songs.ts'

/** A Layer III frame header: version bits 3 = MPEG1, 2 = MPEG2, 0 = MPEG2.5. */
function header(o: {
  versionBits?: number
  layerBits?: number
  bitrateIndex: number
  rateIndex?: number
  padding?: boolean
  mono?: boolean
}): number[] {
  const b1 = 0xe0 | ((o.versionBits ?? 3) << 3) | ((o.layerBits ?? 1) << 1) | 1
  const b2 = (o.bitrateIndex << 4) | ((o.rateIndex ?? 0) << 2) | (o.padding ? 2 : 0)
  return [0xff, b1, b2, o.mono ? 0xc0 : 0x40]
}

/** A stream of `count` frames of the given header, bodies filled with non-sync bytes. */
function stream(h: number[], count: number): Uint8Array {
  const len = parseFrameHeader(Uint8Array.from(h), 0)!.length
  const out = new Uint8Array(len * count).fill(0x11)
  for (let i = 0; i < count; i++) out.set(h, i * len)
  return out
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

describe('parseFrameHeader', () => {
  it('MPEG1 Layer III 128 kbit/s 44.1 kHz: 417 bytes, 418 with padding', () => {
    const h = parseFrameHeader(Uint8Array.from(header({ bitrateIndex: 9 })), 0)!
    expect(h).toMatchObject({ version: 1, bitrate: 128000, sampleRate: 44100, samplesPerFrame: 1152, channels: 2, length: 417 })
    expect(parseFrameHeader(Uint8Array.from(header({ bitrateIndex: 9, padding: true })), 0)!.length).toBe(418)
  })
  it('MPEG1 320 kbit/s 48 kHz mono and 32 kHz', () => {
    expect(parseFrameHeader(Uint8Array.from(header({ bitrateIndex: 14, rateIndex: 1, mono: true })), 0)).toMatchObject({
      sampleRate: 48000,
      bitrate: 320000,
      channels: 1,
      length: 960,
    })
    expect(parseFrameHeader(Uint8Array.from(header({ bitrateIndex: 1, rateIndex: 2 })), 0)).toMatchObject({
      sampleRate: 32000,
      bitrate: 32000,
      length: 144,
    })
  })
  it('MPEG2 and MPEG2.5: half/quarter rates, 576 samples per frame', () => {
    expect(parseFrameHeader(Uint8Array.from(header({ versionBits: 2, bitrateIndex: 8 })), 0)).toMatchObject({
      version: 2,
      sampleRate: 22050,
      bitrate: 64000,
      samplesPerFrame: 576,
      length: 208,
    })
    expect(parseFrameHeader(Uint8Array.from(header({ versionBits: 0, bitrateIndex: 1, rateIndex: 2 })), 0)).toMatchObject({
      version: 2.5,
      sampleRate: 8000,
      bitrate: 8000,
      length: 72,
    })
  })
  it('rejects no sync, reserved version, layers I/II, free format, bad bitrate, reserved rate', () => {
    expect(parseFrameHeader(Uint8Array.from([0xfe, 0xfb, 0x90, 0x40]), 0)).toBeNull()
    expect(parseFrameHeader(Uint8Array.from(header({ versionBits: 1, bitrateIndex: 9 })), 0)).toBeNull()
    expect(parseFrameHeader(Uint8Array.from(header({ layerBits: 2, bitrateIndex: 9 })), 0)).toBeNull()
    expect(parseFrameHeader(Uint8Array.from(header({ layerBits: 3, bitrateIndex: 9 })), 0)).toBeNull()
    expect(parseFrameHeader(Uint8Array.from(header({ bitrateIndex: 0 })), 0)).toBeNull()
    expect(parseFrameHeader(Uint8Array.from(header({ bitrateIndex: 15 })), 0)).toBeNull()
    expect(parseFrameHeader(Uint8Array.from(header({ bitrateIndex: 9, rateIndex: 3 })), 0)).toBeNull()
    expect(parseFrameHeader(Uint8Array.from([0xff, 0xfb]), 0)).toBeNull()
  })
})

describe('parseMp3', () => {
  const h128 = header({ bitrateIndex: 9 })
  it('walks every frame, mixing padded and unpadded ones', () => {
    const bytes = concat(stream(h128, 3), stream(header({ bitrateIndex: 9, padding: true }), 2), stream(h128, 1))
    const s = parseMp3(bytes)!
    expect(s.offsets.length).toBe(6)
    expect([...s.lengths]).toEqual([417, 417, 417, 418, 418, 417])
    expect(s.offsets[3]).toBe(3 * 417)
    expect(decodedLength(s)).toBe(6 * 1152)
    expect(leadingSkip(s)).toBe(0)
  })
  it('skips a leading ID3v2 tag (synchsafe size) and trailing junk / ID3v1', () => {
    const tag = new Uint8Array(10 + 300).fill(0xff) // sync-looking bytes inside the tag must be ignored
    tag.set([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 2, 44]) // size 2*128 + 44 = 300
    expect(id3v2Size(tag, 0)).toBe(310)
    const trailer = new Uint8Array(128).fill(0x20)
    trailer.set([0x54, 0x41, 0x47]) // "TAG"
    const s = parseMp3(concat(tag, stream(h128, 4), trailer))!
    expect(s.offsets.length).toBe(4)
    expect(s.offsets[0]).toBe(310)
  })
  it('resynchronises after garbage between frames', () => {
    const s = parseMp3(concat(stream(h128, 2), new Uint8Array(37).fill(0x5a), stream(h128, 3)))!
    expect(s.offsets.length).toBe(5)
    expect(s.offsets[2]).toBe(2 * 417 + 37)
  })
  it('is null for non-MP3 data (WAV, random bytes, empty) and for a mid-stream format change', () => {
    const wav = new TextEncoder().encode('RIFF\0\0\0\0WAVEfmt ' + 'x'.repeat(5000))
    expect(parseMp3(wav)).toBeNull()
    expect(parseMp3(new Uint8Array(0))).toBeNull()
    expect(parseMp3(concat(stream(h128, 3), stream(header({ versionBits: 2, bitrateIndex: 8 }), 3)))).toBeNull()
  })
  it('reads a LAME Info frame: not an audio frame, encoder delay/padding give the gapless length', () => {
    const info = stream(h128, 1)
    const x = 4 + 32
    info.set([0x49, 0x6e, 0x66, 0x6f, 0, 0, 0, 0x01, 0, 0, 0, 5], x) // "Info", flags = frames, 5 frames
    const lame = x + 8 + 4
    info.set(new TextEncoder().encode('LAME3.100'), lame)
    info.set([0x24, 0x03, 0x78], lame + 21) // delay 576, padding 888
    const s = parseMp3(concat(info, stream(h128, 5)))!
    expect(s.offsets.length).toBe(5)
    expect(s.offsets[0]).toBe(417)
    expect([s.encoderDelay, s.encoderPadding, s.gapless]).toEqual([576, 888, true])
    expect(leadingSkip(s)).toBe(576 + MP3_DECODER_DELAY)
    expect(decodedLength(s)).toBe(5 * 1152 - 576 - 888)
  })
  it('splitFrames covers every frame once in runs of about the asked duration', () => {
    const s = parseMp3(stream(h128, 100))!
    const runs = splitFrames(s, 1) // 1 s at 44.1 kHz = 38.3 frames → 38
    expect(runs.map((r) => r.end - r.first)).toEqual([38, 38, 24])
    expect(runs[0]!.first).toBe(0)
    for (let i = 1; i < runs.length; i++) expect(runs[i]!.first).toBe(runs[i - 1]!.end)
    expect(runs.at(-1)!.end).toBe(100)
  })
})

describe('the shipped sample songs', () => {
  const dir = join(import.meta.dirname, '../public/audio/samples')
  const files = readdirSync(dir).filter((f) => f.endsWith('.mp3'))
  it('there are some', () => expect(files.length).toBeGreaterThanOrEqual(5))
  for (const f of files) {
    it(`${f}: frames × 1152 / rate matches the catalogue duration and the Info frame count`, () => {
      const bytes = new Uint8Array(readFileSync(join(dir, f)))
      const s = parseMp3(bytes)!
      expect(s).not.toBeNull()
      expect([s.sampleRate, s.channels, s.samplesPerFrame, s.gapless]).toEqual([44100, 2, 1152, true])
      // The Info frame's own count of audio frames (it does not count itself).
      const infoFrames = new DataView(bytes.buffer, bytes.byteOffset).getUint32(4 + 32 + 8)
      expect(s.offsets.length).toBe(infoFrames)
      const last = s.offsets.length - 1
      expect(s.offsets[last]! + s.lengths[last]!).toBe(bytes.length)
      const song = SAMPLE_SONGS.find((x) => x.audioUrl.endsWith(`/${f}`))!
      const [m, sec] = song.duration.split(':').map(Number) as [number, number]
      expect(Math.abs(decodedLength(s) / s.sampleRate - (m * 60 + sec))).toBeLessThan(1)
    })
  }
})
