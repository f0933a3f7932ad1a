/**
 * MPEG audio Layer III frame splitting. Pure (no DOM, no WebCodecs), so it runs in the decode
 * worker and in Node tests.
 *
 *   parseFrameHeader(bytes, at): Mp3FrameHeader | null     one validated 4-byte header
 *   id3v2Size(bytes, at): number                           bytes of an ID3v2 tag starting there (0 if none)
 *   parseMp3(bytes): Mp3Stream | null                      every audio frame, or null if this is not
 *                                                          an MP3 we can split (other format, layer I/II,
 *                                                          free format, mid-stream format change)
 *   splitFrames(stream, seconds): FrameRange[]             consecutive runs of about `seconds` of audio
 *
 * A LAME/Xing "Info" first frame carries no audio: it is dropped from `frames` and its encoder
 * delay/padding are read, so `decodedLength` and `leadingSkip` give the same gapless timeline
 * the native decoder gives (the decoder itself adds MP3_DECODER_DELAY samples at the start).
 */
export interface Mp3FrameHeader {
  version: 1 | 2 | 2.5
  bitrate: number // bits per second
  sampleRate: number
  padding: boolean
  channels: 1 | 2
  samplesPerFrame: 1152 | 576
  length: number // bytes, header included
}

export interface Mp3Stream {
  sampleRate: number
  channels: 1 | 2
  samplesPerFrame: number
  /** Byte offset and length of each audio frame (metadata frame excluded). */
  offsets: Uint32Array
  lengths: Uint32Array
  /** From the LAME tag; 0 when there is none. */
  encoderDelay: number
  encoderPadding: number
  /** True when a LAME tag gave the delay/padding (the native decoder then trims them). */
  gapless: boolean
}

export interface FrameRange {
  first: number // frame index, inclusive
  end: number // frame index, exclusive
}

/** Samples of delay the MPEG Layer III synthesis filterbank adds ahead of the encoded signal. */
export const MP3_DECODER_DELAY = 529

const BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
const BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
const RATES_V1 = [44100, 48000, 32000]

export function parseFrameHeader(b: Uint8Array, at: number): Mp3FrameHeader | null {
  if (at < 0 || at + 4 > b.length) return null
  const b1 = b[at + 1]!
  const b2 = b[at + 2]!
  const b3 = b[at + 3]!
  if (b[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return null
  const versionBits = (b1 >> 3) & 3
  if (versionBits === 1) return null // reserved
  if (((b1 >> 1) & 3) !== 1) return null // only Layer III
  const bitrateIndex = b2 >> 4
  const rateIndex = (b2 >> 2) & 3
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null // free format / bad
  if ((b3 & 3) === 2) return null // reserved emphasis
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5
  const bitrate = (version === 1 ? BITRATES_V1_L3 : BITRATES_V2_L3)[bitrateIndex]! * 1000
  const sampleRate = RATES_V1[rateIndex]! / (version === 1 ? 1 : version === 2 ? 2 : 4)
  const padding = ((b2 >> 1) & 1) === 1
  const samplesPerFrame = version === 1 ? 1152 : 576
  const length = Math.floor(((samplesPerFrame / 8) * bitrate) / sampleRate) + (padding ? 1 : 0)
  return { version, bitrate, sampleRate, padding, channels: b3 >> 6 === 3 ? 1 : 2, samplesPerFrame, length }
}

export function id3v2Size(b: Uint8Array, at: number): number {
  if (at + 10 > b.length || b[at] !== 0x49 || b[at + 1] !== 0x44 || b[at + 2] !== 0x33) return 0 // "ID3"
  const size = [b[at + 6]!, b[at + 7]!, b[at + 8]!, b[at + 9]!]
  if (size.some((x) => x & 0x80)) return 0 // not synchsafe: not a tag
  const footer = b[at + 5]! & 0x10 ? 10 : 0
  return 10 + ((size[0]! << 21) | (size[1]! << 14) | (size[2]! << 7) | size[3]!) + footer
}

const sameStream = (a: Mp3FrameHeader, b: Mp3FrameHeader) => a.version === b.version && a.sampleRate === b.sampleRate

/** Where the first frame whose successor also parses as a frame of the same stream starts. */
function findSync(b: Uint8Array, from: number, like: Mp3FrameHeader | null): number {
  for (let i = from; i + 4 <= b.length; i++) {
    if (b[i] !== 0xff) continue
    const h = parseFrameHeader(b, i)
    if (!h || (like && !sameStream(h, like))) continue
    const next = parseFrameHeader(b, i + h.length)
    // A lone frame at the very end of the data is accepted: nothing follows it to disagree.
    if ((next && sameStream(h, next)) || i + h.length === b.length) return i
  }
  return -1
}

interface InfoTag {
  delay: number
  padding: number
  gapless: boolean
}

/** A Xing/Info/VBRI metadata frame (no audio), with LAME's encoder delay and padding if present. */
function readInfoFrame(b: Uint8Array, at: number, h: Mp3FrameHeader): InfoTag | null {
  const sideInfo = h.version === 1 ? (h.channels === 2 ? 32 : 17) : h.channels === 2 ? 17 : 9
  const x = at + 4 + sideInfo
  const tag = String.fromCharCode(...b.subarray(x, x + 4))
  if (String.fromCharCode(...b.subarray(at + 36, at + 40)) === 'VBRI') return { delay: 0, padding: 0, gapless: false }
  if (tag !== 'Xing' && tag !== 'Info') return null
  const flags = b[x + 7]!
  const lame = x + 8 + (flags & 1 ? 4 : 0) + (flags & 2 ? 4 : 0) + (flags & 4 ? 100 : 0) + (flags & 8 ? 4 : 0)
  if (lame + 24 > at + h.length) return { delay: 0, padding: 0, gapless: false }
  const encoder = String.fromCharCode(...b.subarray(lame, lame + 4))
  if (!/^(LAME|Lavc|Lavf|L3.9|GOGO)/.test(encoder)) return { delay: 0, padding: 0, gapless: false }
  const d0 = b[lame + 21]!
  const d1 = b[lame + 22]!
  const d2 = b[lame + 23]!
  return { delay: (d0 << 4) | (d1 >> 4), padding: ((d1 & 0x0f) << 8) | d2, gapless: true }
}

export function parseMp3(bytes: Uint8Array): Mp3Stream | null {
  let at = 0
  // Leading tags (several may be stacked).
  for (let s = id3v2Size(bytes, at); s > 0; s = id3v2Size(bytes, at)) at += s
  const start = findSync(bytes, at, null)
  // Anything other than tags before the first frame means this is probably not an MP3 at all.
  if (start < 0 || start - at > 4096) return null
  const first = parseFrameHeader(bytes, start)!
  const offsets: number[] = []
  const lengths: number[] = []
  let info: InfoTag | null = readInfoFrame(bytes, start, first)
  let pos = info ? start + first.length : start
  info ??= { delay: 0, padding: 0, gapless: false }
  while (pos + 4 <= bytes.length) {
    const h = parseFrameHeader(bytes, pos)
    if (h && sameStream(h, first) && pos + h.length <= bytes.length) {
      offsets.push(pos)
      lengths.push(h.length)
      pos += h.length
      continue
    }
    if (h && !sameStream(h, first) && parseFrameHeader(bytes, pos + h.length)) return null // format change: not splittable
    // Junk, a trailing tag or a truncated last frame: resynchronise on the same stream.
    const next = findSync(bytes, pos + 1, first)
    if (next < 0) break
    pos = next
  }
  if (offsets.length === 0) return null
  return {
    sampleRate: first.sampleRate,
    channels: first.channels,
    samplesPerFrame: first.samplesPerFrame,
    offsets: Uint32Array.from(offsets),
    lengths: Uint32Array.from(lengths),
    encoderDelay: info.delay,
    encoderPadding: info.padding,
    gapless: info.gapless,
  }
}

/** Samples the decoder drops at the start of its output for the gapless timeline. */
export function leadingSkip(s: Mp3Stream): number {
  return s.gapless ? s.encoderDelay + MP3_DECODER_DELAY : 0
}

/** Samples per channel of the decoded, gapless-trimmed stream. */
export function decodedLength(s: Mp3Stream): number {
  const raw = s.offsets.length * s.samplesPerFrame
  return Math.max(0, s.gapless ? raw - s.encoderDelay - s.encoderPadding : raw)
}

export function splitFrames(s: Mp3Stream, seconds: number): FrameRange[] {
  const per = Math.max(1, Math.round((seconds * s.sampleRate) / s.samplesPerFrame))
  const out: FrameRange[] = []
  for (let first = 0; first < s.offsets.length; first += per) out.push({ first, end: Math.min(s.offsets.length, first + per) })
  return out
}
