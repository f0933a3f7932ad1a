/**
 * A track's clips played into its strip's input, in plain JavaScript: what the live graph's
 * AudioBufferSourceNodes and fade GainNodes produce, computed sample by sample from the same plan
 * (src/engine/arrangement/clip-plan.ts), for the export's workers. Only exact cases are taken:
 * every start, offset, loop point and stop on a whole frame at the audio's own rate (then a source
 * copies samples, no interpolation); anything else returns null and the caller lets the browser
 * render it natively.
 *
 *   clipPlaysExact(plays, frames, sampleRate) → boolean   can this module render them exactly?
 *   clipComposer(plays, channels, sampleRate) → { fill(pos, outL, outR) } | null (null: not exact)
 * Gain curves follow the Web Audio rule for setValueCurveAtTime: linear between the curve's points
 * over [start, start + duration), then its last value; before the first curve, gain0.
 */
export interface ClipCurve {
  start: number
  duration: number
  values: Float32Array
}

export interface ClipPlay {
  /** Context seconds the source starts and stops (timeline 0 = context 0 in an export). */
  startAt: number
  stopAt: number
  /** Seconds into the audio at startAt. */
  offset: number
  /** The looped region in seconds of the audio, or null (plays on to the audio's end). */
  loop: { start: number; end: number } | null
  gain0: number
  curves: ClipCurve[]
}

const EPS = 1e-6

function wholeFrame(seconds: number, sampleRate: number): number | null {
  const f = seconds * sampleRate
  const n = Math.round(f)
  return Math.abs(f - n) < EPS ? n : null
}

/** The gain at time t (seconds), as the AudioParam computes it from these events. */
function gainAt(play: ClipPlay, t: number): number {
  let g = play.gain0
  for (const c of play.curves) {
    if (t < c.start) break
    const n = c.values.length
    if (t >= c.start + c.duration || n === 1) {
      g = c.values[n - 1]!
      continue
    }
    const v = ((n - 1) * (t - c.start)) / c.duration
    const k = Math.floor(v)
    const a = c.values[k]!
    const b = c.values[Math.min(n - 1, k + 1)]!
    return a + (b - a) * (v - k)
  }
  return g
}

interface Prepared {
  p: ClipPlay
  start: number
  stop: number
  offset: number
  loopStart: number
  loopEnd: number
}

function prepare(plays: readonly ClipPlay[], frames: number, sampleRate: number): Prepared[] | null {
  const prepared: Prepared[] = []
  for (const p of plays) {
    const start = wholeFrame(p.startAt, sampleRate)
    const stop = wholeFrame(p.stopAt, sampleRate)
    const offset = wholeFrame(p.offset, sampleRate)
    const loopStart = p.loop ? wholeFrame(p.loop.start, sampleRate) : 0
    const loopEnd = p.loop ? wholeFrame(p.loop.end, sampleRate) : frames
    if (start === null || stop === null || offset === null || loopStart === null || loopEnd === null) return null
    if (p.loop && !(loopEnd > loopStart && loopEnd <= frames && offset >= loopStart && offset < loopEnd)) return null
    for (const c of p.curves) if (!(c.duration > 0) || c.values.length === 0) return null
    prepared.push({ p, start, stop, offset, loopStart, loopEnd })
  }
  return prepared
}

export const clipPlaysExact = (plays: readonly ClipPlay[], frames: number, sampleRate: number): boolean =>
  prepare(plays, frames, sampleRate) !== null

export interface ClipComposer {
  /** Adds the clips' frames [pos, pos + outL.length) into outL/outR (which the caller zeroes). */
  fill(pos: number, outL: Float32Array, outR: Float32Array): void
}

/**
 * The clips composed a render quantum at a time (no full-length copy of the track: a 5-minute
 * track would otherwise cost two 58 MB arrays per worker), or null when they cannot be exact here.
 */
export function clipComposer(plays: readonly ClipPlay[], channels: readonly Float32Array[], sampleRate: number): ClipComposer | null {
  const srcL = channels[0]
  const srcR = channels[1] ?? srcL
  if (!srcL || !srcR || channels.length > 2) return null
  const frames = srcL.length
  const prepared = prepare(plays, frames, sampleRate)
  if (!prepared) return null
  const runs = prepared.map((pr) => ({
    ...pr,
    end: Math.min(pr.stop, pr.p.loop ? Infinity : pr.start + (frames - pr.offset)),
    // Frames inside a fade: only there does the gain change from sample to sample.
    fades: pr.p.curves.map((c) => [Math.ceil(c.start * sampleRate - EPS), Math.ceil((c.start + c.duration) * sampleRate - EPS)] as const),
  }))
  return {
    fill(pos, outL, outR) {
      const q = outL.length
      for (const r of runs) {
        const a = Math.max(pos, r.start)
        const b = Math.min(pos + q, r.end)
        if (b <= a) continue
        let j = r.offset + (a - r.start)
        if (r.p.loop && j >= r.loopEnd) j = r.loopStart + ((j - r.loopStart) % (r.loopEnd - r.loopStart))
        const fading = r.fades.some(([f0, f1]) => f0 < b && f1 > a)
        const g0 = Math.fround(gainAt(r.p, a / sampleRate))
        for (let n = a; n < b; n++, j++) {
          if (j >= r.loopEnd) j = r.loopStart
          // The GainNode's product is float32, as the graph's is.
          const g = fading ? Math.fround(gainAt(r.p, n / sampleRate)) : g0
          const k = n - pos
          outL[k] = outL[k]! + Math.fround(srcL[j]! * g)
          outR[k] = outR[k]! + Math.fround(srcR[j]! * g)
        }
      }
    },
  }
}
