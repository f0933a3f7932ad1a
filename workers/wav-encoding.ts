/**
 * WAV (RIFF/WAVE) encoding, pure so it runs in the encoder worker and in Node tests.
 *
 *  - 'pcm16':   WAVE_FORMAT_PCM (1), 16-bit little-endian, 44-byte header. Samples are clamped to
 *               [-1, 1] and scaled asymmetrically (-1 → -32768, +1 → 32767), NaN → 0.
 *  - 'float32': WAVE_FORMAT_IEEE_FLOAT (3), 32-bit little-endian; fmt chunk of 18 bytes (cbSize 0)
 *               and a 'fact' chunk, as the format requires for non-PCM data: 58-byte header.
 *               Values are written as given (no clamping), NaN → 0.
 * Channels are interleaved frame by frame; all channels must have the same length.
 */
export type WavFormat = 'pcm16' | 'float32'

export const WAV_FORMATS: readonly WavFormat[] = ['pcm16', 'float32']

export function encodeWav(channels: readonly Float32Array[], sampleRate: number, format: WavFormat): ArrayBuffer {
  const numChannels = channels.length
  if (numChannels < 1 || numChannels > 32) throw new RangeError(`WAV needs 1..32 channels, got ${numChannels}`)
  if (!Number.isInteger(sampleRate) || sampleRate < 1 || sampleRate > 768_000) throw new RangeError(`invalid sample rate ${sampleRate}`)
  if (!WAV_FORMATS.includes(format)) throw new RangeError(`unknown WAV format ${String(format)}`)
  const frames = channels[0]!.length
  if (channels.some((c) => c.length !== frames)) throw new RangeError('all channels must have the same length')

  const float = format === 'float32'
  const bytesPerSample = float ? 4 : 2
  const blockAlign = numChannels * bytesPerSample
  const dataBytes = frames * blockAlign
  const fmtSize = float ? 18 : 16
  const factBytes = float ? 12 : 0
  const headerBytes = 12 + 8 + fmtSize + factBytes + 8
  if (headerBytes + dataBytes - 8 > 0xffffffff) throw new RangeError('audio too long for a WAV file (4 GiB limit)')

  const buffer = new ArrayBuffer(headerBytes + dataBytes)
  const view = new DataView(buffer)
  let o = 0
  const str = (s: string) => {
    for (let i = 0; i < s.length; i++) view.setUint8(o++, s.charCodeAt(i))
  }
  const u32 = (v: number) => {
    view.setUint32(o, v, true)
    o += 4
  }
  const u16 = (v: number) => {
    view.setUint16(o, v, true)
    o += 2
  }
  str('RIFF')
  u32(buffer.byteLength - 8)
  str('WAVE')
  str('fmt ')
  u32(fmtSize)
  u16(float ? 3 : 1)
  u16(numChannels)
  u32(sampleRate)
  u32(sampleRate * blockAlign)
  u16(blockAlign)
  u16(bytesPerSample * 8)
  if (float) {
    u16(0) // cbSize
    str('fact')
    u32(4)
    u32(frames)
  }
  str('data')
  u32(dataBytes)

  if (float) writeFloat32(channels, frames, new Uint8Array(buffer, o))
  else if (LITTLE_ENDIAN) writePcm16(channels, frames, new Int16Array(buffer, o, frames * numChannels))
  else
    for (let f = 0; f < frames; f++)
      for (let c = 0; c < numChannels; c++) {
        view.setInt16(o, floatToPcm16(channels[c]![f]!), true)
        o += 2
      }
  return buffer
}

// The samples are written through typed arrays in the platform's byte order (a DataView call per
// sample made a 3-minute stereo export's encode take about ten times as long); WAV is little-endian,
// as every platform a browser runs on is, and the DataView path stays for any other.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/**
 * Interleaves the channels into `out` as 16-bit samples, exactly as floatToPcm16 converts them:
 * floor(x + 0.5) is Math.round(x) for every product of a float32 and 0x7fff or 0x8000 (no such
 * product lies within a rounding step of a half), and the Int16Array stores NaN as 0.
 */
function writePcm16(channels: readonly Float32Array[], frames: number, out: Int16Array) {
  const stride = channels.length
  for (let c = 0; c < stride; c++) {
    const src = channels[c]!
    for (let f = 0, j = c; f < frames; f++, j += stride) {
      const v = src[f]!
      const s = v < -1 ? -1 : v > 1 ? 1 : v
      out[j] = Math.floor(s * (s < 0 ? 0x8000 : 0x7fff) + 0.5)
    }
  }
}

/** Interleaves the channels as 32-bit floats (NaN → 0) into the bytes at `out`, little-endian. */
function writeFloat32(channels: readonly Float32Array[], frames: number, out: Uint8Array) {
  const stride = channels.length
  // The float data starts at byte 58, where no Float32Array can begin: interleave, then copy bytes.
  const interleaved = new Float32Array(frames * stride)
  for (let c = 0; c < stride; c++) {
    const src = channels[c]!
    for (let f = 0, j = c; f < frames; f++, j += stride) {
      const v = src[f]!
      interleaved[j] = v !== v ? 0 : v
    }
  }
  const bytes = new Uint8Array(interleaved.buffer)
  if (!LITTLE_ENDIAN) for (let i = 0; i < bytes.length; i += 4) bytes.subarray(i, i + 4).reverse()
  out.set(bytes)
}

export function floatToPcm16(v: number): number {
  if (Number.isNaN(v)) return 0
  const s = v < -1 ? -1 : v > 1 ? 1 : v
  return s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff)
}
