import { describe, expect, it } from 'vitest'
import { decodeWav } from './wav-decoding.ts'
import { encodeWav } from './wav-encoding.ts'

const ramp = (n: number, k: number) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * k) * 0.9)

describe('decodeWav', () => {
  it('reads back what encodeWav wrote in float32, bit for bit (mono and stereo, odd lengths, -0 and tiny values)', () => {
    for (const channels of [[ramp(1001, 0.01)], [ramp(777, 0.02), ramp(777, 0.03)]]) {
      channels[0]![3] = -0
      channels[0]![4] = 1e-40
      const out = decodeWav(encodeWav(channels, 44100, 'float32'))
      expect(out.sampleRate).toBe(44100)
      expect(out.channels).toHaveLength(channels.length)
      out.channels.forEach((c, i) => expect(new Uint32Array(c.buffer)).toEqual(new Uint32Array(channels[i]!.slice().buffer)))
    }
  })

  it('reads 16-bit PCM within two steps (the encoder scales positive values by 32767)', () => {
    const x = ramp(500, 0.05)
    const out = decodeWav(encodeWav([x, x], 48000, 'pcm16'))
    expect(out.channels[1]!.length).toBe(500)
    for (let i = 0; i < 500; i++) expect(Math.abs(out.channels[1]![i]! - x[i]!)).toBeLessThan(2 / 32768)
  })

  it('skips unknown chunks (odd sizes padded) and reads WAVE_FORMAT_EXTENSIBLE float', () => {
    const plain = new Uint8Array(encodeWav([ramp(10, 0.5)], 8000, 'pcm16'))
    // RIFF header, then a 3-byte LIST chunk (padded to 4), then the original fmt and data chunks.
    const extra = new Uint8Array([...'LIST'].map((c) => c.charCodeAt(0)).concat([3, 0, 0, 0, 1, 2, 3, 0]))
    const withList = new Uint8Array(plain.length + extra.length)
    withList.set(plain.subarray(0, 12))
    withList.set(extra, 12)
    withList.set(plain.subarray(12), 12 + extra.length)
    expect(decodeWav(withList.buffer).channels[0]!.length).toBe(10)

    // Extensible: fmt of 40 bytes whose sub-format GUID starts with 3 (IEEE float).
    const frames = Float32Array.of(0.25, -0.5, 0.75)
    const buf = new ArrayBuffer(12 + 8 + 40 + 8 + 12)
    const v = new DataView(buf)
    const w = (o: number, s: string) => [...s].forEach((c, i) => v.setUint8(o + i, c.charCodeAt(0)))
    w(0, 'RIFF')
    v.setUint32(4, buf.byteLength - 8, true)
    w(8, 'WAVE')
    w(12, 'fmt ')
    v.setUint32(16, 40, true)
    v.setUint16(20, 0xfffe, true)
    v.setUint16(22, 1, true)
    v.setUint32(24, 22050, true)
    v.setUint32(28, 22050 * 4, true)
    v.setUint16(32, 4, true)
    v.setUint16(34, 32, true)
    v.setUint16(36, 22, true)
    v.setUint16(44, 3, true)
    w(60, 'data')
    v.setUint32(64, 12, true)
    frames.forEach((x, i) => v.setFloat32(68 + i * 4, x, true))
    const out = decodeWav(buf)
    expect(out.sampleRate).toBe(22050)
    expect(Array.from(out.channels[0]!)).toEqual([0.25, -0.5, 0.75])
  })

  it('refuses what it cannot read with a clear RangeError', () => {
    expect(() => decodeWav(new TextEncoder().encode('hello world, not a wav file').buffer)).toThrow(/Not a WAV file/)
    const noData = encodeWav([ramp(4, 1)], 8000, 'pcm16').slice(0, 36)
    expect(() => decodeWav(noData)).toThrow(/no data chunk/)
    const pcm8 = new Uint8Array(encodeWav([ramp(4, 1)], 8000, 'pcm16'))
    new DataView(pcm8.buffer).setUint16(34, 8, true)
    expect(() => decodeWav(pcm8.buffer)).toThrow(/Unsupported WAV encoding/)
    expect(() => decodeWav(new ArrayBuffer(0))).toThrow(RangeError)
  })
})
