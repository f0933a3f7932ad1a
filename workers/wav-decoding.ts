/**
 * WAV (RIFF/WAVE) decoding, pure so it runs in the WAV worker and in Node tests: what
 * wav-encoding.ts writes (16-bit PCM, 32-bit IEEE float) and the same formats from other
 * writers (WAVE_FORMAT_EXTENSIBLE, extra chunks, odd-sized chunks padded to even). Float data is
 * returned bit for bit; 16-bit PCM is scaled by 1/32768. Anything else is a RangeError that says
 * what is wrong, never a silent guess.
 */
export interface DecodedWav {
  sampleRate: number
  channels: Float32Array[]
}

const PCM = 1
const IEEE_FLOAT = 3
const EXTENSIBLE = 0xfffe

export function decodeWav(buffer: ArrayBuffer): DecodedWav {
  const view = new DataView(buffer)
  const tag = (o: number) =>
    o + 4 <= buffer.byteLength
      ? String.fromCharCode(view.getUint8(o), view.getUint8(o + 1), view.getUint8(o + 2), view.getUint8(o + 3))
      : ''
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new RangeError('Not a WAV file (no RIFF/WAVE header)')

  let format = 0
  let numChannels = 0
  let sampleRate = 0
  let bits = 0
  let data: { offset: number; bytes: number } | null = null
  for (let o = 12; o + 8 <= buffer.byteLength; ) {
    const id = tag(o)
    const size = view.getUint32(o + 4, true)
    const body = o + 8
    if (id === 'fmt ') {
      if (size < 16 || body + size > buffer.byteLength) throw new RangeError('Malformed WAV fmt chunk')
      format = view.getUint16(body, true)
      numChannels = view.getUint16(body + 2, true)
      sampleRate = view.getUint32(body + 4, true)
      bits = view.getUint16(body + 14, true)
      // The real format of an extensible file is the first two bytes of its sub-format GUID.
      if (format === EXTENSIBLE && size >= 40) format = view.getUint16(body + 24, true)
    } else if (id === 'data') {
      // A writer that streamed may leave the size too large; take what is there.
      data = { offset: body, bytes: Math.min(size, buffer.byteLength - body) }
      break
    }
    o = body + size + (size & 1)
  }
  if (!format) throw new RangeError('WAV file has no fmt chunk')
  if (!data) throw new RangeError('WAV file has no data chunk')
  if (numChannels < 1 || numChannels > 32) throw new RangeError(`WAV file has ${numChannels} channels`)
  if (sampleRate < 1 || sampleRate > 768_000) throw new RangeError(`WAV file has an invalid sample rate ${sampleRate}`)
  const float = format === IEEE_FLOAT && bits === 32
  const pcm16 = format === PCM && bits === 16
  if (!float && !pcm16)
    throw new RangeError(`Unsupported WAV encoding (format ${format}, ${bits} bits): only 16-bit PCM and 32-bit float are read`)

  const bytesPerSample = bits / 8
  const frames = Math.floor(data.bytes / (bytesPerSample * numChannels))
  const channels = Array.from({ length: numChannels }, () => new Float32Array(frames))
  if (float) {
    // One aligned copy, then de-interleave from a typed view (DataView per sample is far slower;
    // typed views are little-endian on every platform a browser runs on, as WAV is).
    const samples = new Float32Array(buffer.slice(data.offset, data.offset + frames * numChannels * 4))
    for (let c = 0; c < numChannels; c++) {
      const out = channels[c]!
      for (let f = 0, i = c; f < frames; f++, i += numChannels) out[f] = samples[i]!
    }
  } else {
    const samples = new Int16Array(buffer.slice(data.offset, data.offset + frames * numChannels * 2))
    for (let c = 0; c < numChannels; c++) {
      const out = channels[c]!
      for (let f = 0, i = c; f < frames; f++, i += numChannels) out[f] = samples[i]! / 32768
    }
  }
  return { sampleRate, channels }
}
