/**
 * WSOLA time-stretch: changes a signal's length without changing its pitch.
 *
 * Output frames of `frameMs` (Hann, 50 % overlap, so the windows sum to one) are taken from the
 * input near where the time map says, each shifted within ±`searchMs` to the offset whose
 * waveform best continues the previous frame (normalised cross-correlation), so periodic
 * material keeps its phase (no beating). The search is wide (±12 ms) so a chord, whose common
 * period is long (18 ms for a major triad on A3), finds a splice that fits; attacks are found
 * first, and a frame whose mapped input holds one is read exactly there, while no other frame may
 * read one, so drum hits keep their place on the grid and are never skipped or doubled.
 * `stretch` is output length / input length (0.8 = faster and shorter, 1.25 = slower and longer).
 */
export interface StretchOptions {
  frameMs?: number
  searchMs?: number
}

/** Attack detection: energy in blocks of this many ms against the mean of the previous ATTACK_HISTORY. */
const ATTACK_BLOCK_MS = 2
const ATTACK_HISTORY = 8
/** An attack: a block this many times louder than the blocks before it… */
const ATTACK_RATIO = 8
/** …and not quieter than this fraction of the loudest block (no attacks out of near-silence noise). */
const ATTACK_FLOOR = 1e-4

/** Input sample positions where an attack starts (sorted). */
export function attackPositions(input: Float32Array, sampleRate: number): number[] {
  const block = Math.max(1, Math.round((ATTACK_BLOCK_MS * sampleRate) / 1000))
  const blocks = Math.floor(input.length / block)
  const e = new Float64Array(blocks)
  let loudest = 0
  for (let b = 0; b < blocks; b++) {
    let v = 0
    for (let i = b * block; i < (b + 1) * block; i++) v += input[i]! * input[i]!
    e[b] = v
    if (v > loudest) loudest = v
  }
  const out: number[] = []
  let recent = 0
  for (let b = 0; b < blocks; b++) {
    const mean = b > 0 ? recent / Math.min(b, ATTACK_HISTORY) : 0
    if (
      e[b]! > ATTACK_FLOOR * loudest &&
      e[b]! > ATTACK_RATIO * mean &&
      (out.length === 0 || b * block - out.at(-1)! > ATTACK_HISTORY * block)
    )
      out.push(b * block)
    recent += e[b]!
    if (b >= ATTACK_HISTORY) recent -= e[b - ATTACK_HISTORY]!
  }
  return out
}

/** The coarse search's lag step and read step, in samples. */
const COARSE_LAG = 4
const COARSE_STEP = 16
/** How much a fit at the edge of the search is discounted against one on the time map. */
const NEARER = 0.01

export function timeStretch(input: Float32Array, stretch: number, sampleRate: number, options: StretchOptions = {}): Float32Array {
  if (!(stretch > 0)) throw new RangeError('stretch must be positive')
  const outLength = Math.round(input.length * stretch)
  const out = new Float32Array(outLength)
  if (input.length === 0) return out
  const n = Math.max(64, 2 * Math.round(((options.frameMs ?? 20) * sampleRate) / 2000))
  const hop = n / 2
  const search = Math.round(((options.searchMs ?? 12) * sampleRate) / 1000)
  const attacks = attackPositions(input, sampleRate)
  let firstAttack = 0
  const window = new Float32Array(n)
  for (let i = 0; i < n; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n)
  const at = (i: number) => (i >= 0 && i < input.length ? input[i]! : 0)
  // Normalised cross-correlation of the overlapping half (what the new frame's rising window
  // meets) between where the previous frame would continue and a candidate, on every step-th sample.
  const score = (natural: number, cand: number, step: number): number => {
    let xy = 0
    let yy = 1e-12
    if (natural >= 0 && cand >= 0 && natural + hop <= input.length && cand + hop <= input.length) {
      for (let i = 0; i < hop; i += step) {
        const y = input[cand + i]!
        xy += input[natural + i]! * y
        yy += y * y
      }
    } else {
      for (let i = 0; i < hop; i += step) {
        const y = at(cand + i)
        xy += at(natural + i) * y
        yy += y * y
      }
    }
    return xy / Math.sqrt(yy)
  }
  // Among near-equal fits (a pure tone fits every period), the one nearest the time map wins.
  const nearer = (s: number, d: number) => s - Math.abs(s) * NEARER * (Math.abs(d) / (search || 1))
  // Where the previous frame would naturally continue in the input.
  let natural = 0
  for (let start = -hop; start < outLength; start += hop) {
    const target = Math.round((start + hop) / stretch) - hop
    let best = target
    // Attacks: a frame whose mapped input holds one is read exactly where the time map says (the
    // attack keeps its place on the stretched grid); any other frame may not read one (the wide
    // search that lets a sustained chord splice cleanly would move a drum hit, or skip it).
    while (firstAttack < attacks.length && attacks[firstAttack]! < target - search) firstAttack++
    const holdsAttack = (c: number): boolean => {
      for (let k = firstAttack; k < attacks.length && attacks[k]! < c + n; k++) if (attacks[k]! >= c) return true
      return false
    }
    const locked = holdsAttack(target)
    const allowed = (c: number): boolean => !holdsAttack(c)
    if (start > -hop && !locked) {
      // Coarse then fine: every COARSE_LAG-th offset on a sparse read finds the peak's
      // neighbourhood (a tenth of the work), then every offset around it on the usual read.
      let bestScore = -Infinity
      for (let d = -search; d <= search; d += COARSE_LAG) {
        if (!allowed(target + d)) continue
        const s = nearer(score(natural, target + d, COARSE_STEP), d)
        if (s > bestScore) {
          bestScore = s
          best = target + d
        }
      }
      const centre = best
      bestScore = -Infinity
      for (let c = Math.max(target - search, centre - COARSE_LAG); c <= Math.min(target + search, centre + COARSE_LAG); c++) {
        if (!allowed(c)) continue
        const s = nearer(score(natural, c, 2), c - target)
        if (s > bestScore) {
          bestScore = s
          best = c
        }
      }
    }
    for (let i = 0; i < n; i++) {
      const o = start + i
      if (o >= 0 && o < outLength) out[o]! += window[i]! * at(best + i)
    }
    natural = best + hop
  }
  return out
}

/** Linear-phase-free resampling by `ratio` (output length = input length / ratio), cubic Hermite. */
export function resample(input: Float32Array, ratio: number, outLength = Math.round(input.length / ratio)): Float32Array {
  const out = new Float32Array(outLength)
  const last = input.length - 1
  const at = (i: number) => input[i < 0 ? 0 : i > last ? last : i]!
  for (let j = 0; j < outLength; j++) {
    const x = j * ratio
    const i = Math.floor(x)
    const f = x - i
    const y0 = at(i - 1),
      y1 = at(i),
      y2 = at(i + 1),
      y3 = at(i + 2)
    const c1 = 0.5 * (y2 - y0)
    const c2 = y0 - 2.5 * y1 + 2 * y2 - 0.5 * y3
    const c3 = 0.5 * (y3 - y0) + 1.5 * (y1 - y2)
    out[j] = ((c3 * f + c2) * f + c1) * f + y1
  }
  return out
}

/** Pitch shift by `semitones`, same length: stretch by the ratio, then resample back. */
export function pitchShift(input: Float32Array, semitones: number, sampleRate: number): Float32Array {
  const ratio = 2 ** (semitones / 12)
  if (ratio === 1) return input.slice()
  const stretched = timeStretch(input, ratio, sampleRate)
  return resample(stretched, ratio, input.length)
}
