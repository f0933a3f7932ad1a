/**
 * Integrated loudness (ITU-R BS.1770-4, as EBU R128 uses it): K-weighted mean square per channel
 * over 400 ms blocks overlapping by 75 % (a 100 ms hop), channel weights summed, then gated twice:
 * blocks below −70 LUFS are dropped (absolute gate), then blocks more than 10 LU below the loudness
 * of what remains (relative gate). Whole buffers only (offline analysis, not a live meter).
 *
 *   integratedLoudness(channels, sampleRate, weights?) → LUFS, or -Infinity when every block is gated
 */
import { kWeightedSegmentEnergy } from './k-weighting.ts'

export const ABSOLUTE_GATE_LUFS = -70
export const RELATIVE_GATE_LU = -10
/** The −0.691 dB offset makes a 997 Hz sine read its RMS level in dB (BS.1770-4, eq. 2). */
const OFFSET = -0.691
const HOP_SECONDS = 0.1
const HOPS_PER_BLOCK = 4

/** BS.1770-4's channel weights for up to 5.1 in its usual order (L, R, C, LFE, Ls, Rs): LFE is left out. */
export function channelWeights(count: number): number[] {
  if (count <= 3) return new Array<number>(count).fill(1)
  return Array.from({ length: count }, (_, c) => (c === 3 ? 0 : c >= 4 ? 1.41 : 1))
}

const lufs = (meanSquare: number) => OFFSET + 10 * Math.log10(meanSquare)

/** Mean-square energy (channel-weighted) of every 400 ms block, hopping 100 ms. */
export function blockEnergies(
  channels: readonly Float32Array[],
  sampleRate: number,
  weights = channelWeights(channels.length),
): Float64Array {
  const hop = Math.round(HOP_SECONDS * sampleRate)
  const hops = Math.floor(Math.min(...channels.map((c) => c.length)) / hop)
  const perHop = new Float64Array(hops)
  channels.forEach((channel, c) => {
    const w = weights[c] ?? 1
    if (w === 0) return
    const energy = kWeightedSegmentEnergy(channel.subarray(0, hops * hop), sampleRate, hop)
    for (let i = 0; i < hops; i++) perHop[i]! += w * energy[i]!
  })
  const blocks = Math.max(0, hops - HOPS_PER_BLOCK + 1)
  const out = new Float64Array(blocks)
  const blockLength = hop * HOPS_PER_BLOCK
  for (let b = 0; b < blocks; b++) {
    let sum = 0
    for (let j = 0; j < HOPS_PER_BLOCK; j++) sum += perHop[b + j]!
    out[b] = sum / blockLength
  }
  return out
}

export function integratedLoudness(channels: readonly Float32Array[], sampleRate: number, weights?: number[]): number {
  const blocks = blockEnergies(channels, sampleRate, weights)
  const absoluteFloor = 10 ** ((ABSOLUTE_GATE_LUFS - OFFSET) / 10)
  let sum = 0
  let count = 0
  for (const e of blocks)
    if (e > absoluteFloor) {
      sum += e
      count++
    }
  if (count === 0) return -Infinity
  const relativeFloor = 10 ** ((lufs(sum / count) + RELATIVE_GATE_LU - OFFSET) / 10)
  sum = 0
  count = 0
  for (const e of blocks)
    if (e > absoluteFloor && e > relativeFloor) {
      sum += e
      count++
    }
  return count === 0 ? -Infinity : lufs(sum / count)
}
