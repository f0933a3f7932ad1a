/**
 * Golden renders: a short reference render per case, committed as a mono float32 WAV in
 * tests/browser/golden/, and the sample-wise comparison of a new render with it.
 *
 *   compareWithGolden(name, samples, golden, tolerance) → { ok, message, maxAbsDb, rmsDiffDb }
 *   encodeGoldenWav(samples, sampleRate) → bytes;  decodeGoldenWav(bytes) → { samples, sampleRate }
 *
 * The figures are in dBFS of the difference (full scale 1.0): the largest sample difference and the
 * RMS of the difference over the whole render; a length or rate change fails on its own.
 */

export interface Tolerance {
  /** The largest |new − golden| allowed, dBFS. */
  maxAbsDb: number
  /** The RMS of (new − golden) allowed, dBFS. */
  rmsDb: number
}

/**
 * What a change may move without failing: far below anything audible (−80 dBFS peak, −90 dBFS RMS),
 * far above float rounding in another build of the same Chromium.
 */
export const GOLDEN_TOLERANCE: Tolerance = { maxAbsDb: -80, rmsDb: -90 }

export interface Verdict {
  ok: boolean
  maxAbsDb: number
  rmsDiffDb: number
  message: string
}

const dbfs = (x: number) => (x > 0 ? 20 * Math.log10(x) : -Infinity)

export function compareWithGolden(
  name: string,
  samples: Float32Array,
  golden: { samples: Float32Array; sampleRate: number },
  sampleRate: number,
  tolerance: Tolerance = GOLDEN_TOLERANCE,
): Verdict {
  if (golden.sampleRate !== sampleRate || golden.samples.length !== samples.length) {
    const got = `${samples.length} frames at ${sampleRate} Hz`
    const message = `golden "${name}": ${got} against the golden's ${golden.samples.length} at ${golden.sampleRate} Hz`
    return { ok: false, maxAbsDb: Infinity, rmsDiffDb: Infinity, message }
  }
  let max = 0
  let sum = 0
  let at = 0
  for (let i = 0; i < samples.length; i++) {
    const d = Math.abs(samples[i]! - golden.samples[i]!)
    sum += d * d
    if (d > max) [max, at] = [d, i]
  }
  const maxAbsDb = dbfs(max)
  const rmsDiffDb = dbfs(Math.sqrt(sum / samples.length))
  const ok = maxAbsDb <= tolerance.maxAbsDb && rmsDiffDb <= tolerance.rmsDb
  const message =
    `golden "${name}": max |diff| ${maxAbsDb.toFixed(1)} dBFS at ${(at / sampleRate).toFixed(4)} s ` +
    `(allowed ${tolerance.maxAbsDb}), RMS of the difference ${rmsDiffDb.toFixed(1)} dBFS (allowed ${tolerance.rmsDb})` +
    (ok ? '' : '; if the change in sound is meant, re-bless with `npm run golden:update`')
  return { ok, maxAbsDb, rmsDiffDb, message }
}

/** A mono IEEE-float WAV (format 3), little-endian. */
export function encodeGoldenWav(samples: Float32Array, sampleRate: number): Uint8Array {
  const data = samples.length * 4
  const out = new DataView(new ArrayBuffer(44 + data))
  const text = (at: number, s: string) => [...s].forEach((c, i) => out.setUint8(at + i, c.charCodeAt(0)))
  text(0, 'RIFF')
  out.setUint32(4, 36 + data, true)
  text(8, 'WAVE')
  text(12, 'fmt ')
  out.setUint32(16, 16, true)
  out.setUint16(20, 3, true)
  out.setUint16(22, 1, true)
  out.setUint32(24, sampleRate, true)
  out.setUint32(28, sampleRate * 4, true)
  out.setUint16(32, 4, true)
  out.setUint16(34, 32, true)
  text(36, 'data')
  out.setUint32(40, data, true)
  for (let i = 0; i < samples.length; i++) out.setFloat32(44 + 4 * i, samples[i]!, true)
  return new Uint8Array(out.buffer)
}

export function decodeGoldenWav(bytes: Uint8Array): { samples: Float32Array; sampleRate: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint16(20, true) !== 3 || view.getUint16(22, true) !== 1) throw new Error('a golden render is a mono float32 WAV')
  const frames = view.getUint32(40, true) / 4
  const samples = new Float32Array(frames)
  for (let i = 0; i < frames; i++) samples[i] = view.getFloat32(44 + 4 * i, true)
  return { samples, sampleRate: view.getUint32(24, true) }
}

export function toBase64(bytes: Uint8Array): string {
  let s = ''
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(s)
}

export function fromBase64(text: string): Uint8Array {
  const s = atob(text)
  const out = new Uint8Array(s.length)
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i)
  return out
}
