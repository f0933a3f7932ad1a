/**
 * CPU cost of each DSP kernel and of the whole chain in Node (V8, the same JIT as Chromium's audio
 * thread), without any Web Audio overhead: 60 s of stereo noise at 48 kHz, in 128-frame blocks,
 * each effect alone at 50, then all together. CPU time of this process, not wall time, so
 * other load on the machine disturbs it less.
 */
import { ChannelStripChain } from '../../audio-worklets/channel-strip-chain.ts'
import { STRIP_PARAM_NAMES } from '../../audio-worklets/channel-strip-params.ts'
import type { BenchResult } from '../types.ts'

const SR = 48000
const SECONDS = 60
const EFFECTS = ['highpass', 'lowpass', 'distortion', 'compression', 'chorus', 'delay', 'reverb'] as const

function cpuSeconds(
  settings: Partial<Record<(typeof STRIP_PARAM_NAMES)[number], number>>,
  noiseL: Float32Array,
  noiseR: Float32Array,
): number {
  const chain = new ChannelStripChain(SR)
  const values = {
    volume: 100,
    pan: 0,
    enabled: 1,
    reverb: 0,
    lowpass: 0,
    highpass: 0,
    distortion: 0,
    delay: 0,
    compression: 0,
    chorus: 0,
    ...settings,
  }
  STRIP_PARAM_NAMES.forEach((n, i) => chain.set(n, values[n], i))
  chain.snap()
  const l = new Float32Array(128)
  const r = new Float32Array(128)
  const blocks = (SECONDS * SR) / 128
  const start = process.cpuUsage()
  for (let b = 0; b < blocks; b++) {
    const off = (b % (noiseL.length / 128)) * 128
    for (let i = 0; i < 128; i++) {
      l[i] = noiseL[off + i]!
      r[i] = noiseR[off + i]!
    }
    chain.process(l, r, 128)
  }
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1e6
}

export async function run(): Promise<BenchResult[]> {
  const noiseL = Float32Array.from({ length: SR }, () => Math.random() - 0.5)
  const noiseR = Float32Array.from({ length: SR }, () => Math.random() - 0.5)
  const allAt50 = { ...Object.fromEntries(EFFECTS.map((e) => [e, 50])), volume: 50, pan: 25 }
  cpuSeconds(allAt50, noiseL, noiseR) // JIT warm-up
  // Best of three: the first pass of a configuration still pays for compilation, which made the
  // subtracted baseline too large (and some effects' cost negative).
  const best = (params: Partial<Record<string, number>>) => Math.min(...[0, 1, 2].map(() => cpuSeconds(params, noiseL, noiseR)))
  const base = best({})
  const results: BenchResult[] = [
    { name: 'copy only (every stage skipped)', value: SECONDS / base, unit: 'x real time', detail: `${(base * 1000).toFixed(0)} ms CPU` },
  ]
  for (const e of EFFECTS) {
    const t = best({ [e]: 50 }) - base
    results.push({ name: `${e} at 50`, value: t * 1000, unit: 'ms CPU per 60 s', detail: `${(SECONDS / t).toFixed(0)}x real time` })
  }
  const all = best(allAt50)
  results.push({
    name: 'whole strip, every effect at 50',
    value: SECONDS / all,
    unit: 'x real time',
    detail: `${(all * 1000).toFixed(0)} ms CPU per 60 s stereo`,
  })
  return results
}
