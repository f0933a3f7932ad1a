import { describe, expect, it } from 'vitest'
import { encodeWav, floatToPcm16 } from './wav-encoding.ts'

const ascii = (buf: ArrayBuffer, at: number, len: number) => String.fromCharCode(...new Uint8Array(buf, at, len))

describe('encodeWav pcm16', () => {
  it('writes the exact 44-byte header and interleaved little-endian samples', () => {
    const left = Float32Array.from([0, 1, -1])
    const right = Float32Array.from([0.5, -0.5, 2])
    const buf = encodeWav([left, right], 48000, 'pcm16')
    const bytes = Array.from(new Uint8Array(buf))
    // prettier-ignore
    const expected = [
      0x52,
      0x49,
      0x46,
      0x46,
      48,
      0,
      0,
      0,
      0x57,
      0x41,
      0x56,
      0x45, // RIFF, size 56-8, WAVE
      0x66,
      0x6d,
      0x74,
      0x20,
      16,
      0,
      0,
      0,
      1,
      0,
      2,
      0, // 'fmt ', 16, PCM, 2 ch
      0x80,
      0xbb,
      0,
      0,
      0x00,
      0xee,
      0x02,
      0, // 48000, byte rate 192000
      4,
      0,
      16,
      0, // block align 4, 16 bits
      0x64,
      0x61,
      0x74,
      0x61,
      12,
      0,
      0,
      0, // 'data', 12 bytes
      0x00,
      0x00,
      0x00,
      0x40, // 0, round(0.5*32767)=16384
      0xff,
      0x7f,
      0x00,
      0xc0, // 32767, -16384
      0x00,
      0x80,
      0xff,
      0x7f, // -32768, clamp(2)=32767
    ]
    expect(bytes).toEqual(expected)
  })

  it('round-trips values within one quantisation step', () => {
    const n = 1000
    const ch = new Float32Array(n).map((_, i) => Math.sin((2 * Math.PI * 440 * i) / 44100) * 0.9)
    const buf = encodeWav([ch], 44100, 'pcm16')
    const view = new DataView(buf)
    expect(view.getUint32(40, true)).toBe(n * 2)
    for (let i = 0; i < n; i++) {
      const s = view.getInt16(44 + i * 2, true)
      const back = s < 0 ? s / 0x8000 : s / 0x7fff
      expect(Math.abs(back - ch[i]!)).toBeLessThanOrEqual(0.5 / 0x7fff + 1e-7)
    }
  })

  it('maps NaN to 0 and clamps out-of-range values', () => {
    expect(floatToPcm16(NaN)).toBe(0)
    expect(floatToPcm16(-5)).toBe(-32768)
    expect(floatToPcm16(5)).toBe(32767)
  })

  it('writes every sample as floatToPcm16 converts it: halves, edges, NaN, infinities, subnormals; 1 to 3 channels', () => {
    const special = [0, -0, 0.5 / 0x7fff, -0.5 / 0x8000, 1.5 / 0x7fff, -1.5 / 0x8000, 1, -1, 1 - 2 ** -24, -1 + 2 ** -24, 1e-45, -1e-45]
    const values = [...special, NaN, Infinity, -Infinity, 1.0000001, -1.0000001, 3, -3]
    // Every float32 from -1 to 1 in steps that cross each 16-bit step several times, and random ones.
    for (let i = -70_000; i <= 70_000; i++) values.push(i / 65536 + (i % 7) * 2 ** -30)
    let seed = 7
    for (let i = 0; i < 50_000; i++) values.push(((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 31 - 1) * 1.1)
    const samples = Float32Array.from(values)
    for (const count of [1, 2, 3]) {
      const channels = Array.from({ length: count }, (_, c) => samples.map((_, i) => samples[(i + c * 101) % samples.length]!))
      const view = new DataView(encodeWav(channels, 48000, 'pcm16'))
      for (let f = 0; f < samples.length; f++)
        for (let c = 0; c < count; c++) {
          const got = view.getInt16(44 + (f * count + c) * 2, true)
          if (got !== floatToPcm16(channels[c]![f]!)) expect({ channel: c, value: channels[c]![f], got }).toBe('floatToPcm16')
        }
    }
  })
})

describe('encodeWav float32', () => {
  it('writes IEEE float format 3 with cbSize and a fact chunk, values bit-exact', () => {
    const left = Float32Array.from([0.25, -1.5, 1e-8])
    const right = Float32Array.from([-0.75, 3, NaN])
    const buf = encodeWav([left, right], 44100, 'float32')
    const v = new DataView(buf)
    expect(ascii(buf, 0, 4)).toBe('RIFF')
    expect(v.getUint32(4, true)).toBe(buf.byteLength - 8)
    expect(ascii(buf, 8, 8)).toBe('WAVEfmt ')
    expect(v.getUint32(16, true)).toBe(18)
    expect(v.getUint16(20, true)).toBe(3)
    expect(v.getUint16(22, true)).toBe(2)
    expect(v.getUint32(24, true)).toBe(44100)
    expect(v.getUint32(28, true)).toBe(44100 * 8)
    expect(v.getUint16(32, true)).toBe(8)
    expect(v.getUint16(34, true)).toBe(32)
    expect(v.getUint16(36, true)).toBe(0)
    expect(ascii(buf, 38, 4)).toBe('fact')
    expect(v.getUint32(42, true)).toBe(4)
    expect(v.getUint32(46, true)).toBe(3)
    expect(ascii(buf, 50, 4)).toBe('data')
    expect(v.getUint32(54, true)).toBe(24)
    expect(buf.byteLength).toBe(58 + 24)
    const data = new Float32Array(buf.slice(58))
    expect(Array.from(data)).toEqual([0.25, -0.75, -1.5, 3, Math.fround(1e-8), 0])
  })
})

describe('encodeWav input checks', () => {
  it('rejects no channels, unequal lengths, bad rate and unknown format', () => {
    expect(() => encodeWav([], 48000, 'pcm16')).toThrow(RangeError)
    expect(() => encodeWav([new Float32Array(2), new Float32Array(3)], 48000, 'pcm16')).toThrow(/same length/)
    expect(() => encodeWav([new Float32Array(2)], 0, 'pcm16')).toThrow(/sample rate/)
    expect(() => encodeWav([new Float32Array(2)], 48000, 'mp3' as never)).toThrow(/format/)
  })

  it('encodes zero-length audio as a valid empty file', () => {
    const buf = encodeWav([new Float32Array(0)], 48000, 'pcm16')
    expect(buf.byteLength).toBe(44)
    expect(new DataView(buf).getUint32(40, true)).toBe(0)
  })
})
