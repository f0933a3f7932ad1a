/**
 * CPU cost of each DSP kernel and of the whole chain in Node (V8, the same JIT as Chromium's audio
 * thread), without any Web Audio overhead: 60 s of stereo noise at 48 kHz, in 128-frame blocks,
 * each effect alone at 50, then all together, for strip.wasm (what the app runs) and for the JS
 * kernels it replaced (the "before"). CPU time of this process, not wall time, so other load on
 * the machine disturbs it less.
 */
import { ChannelStripChain } from '../../audio-worklets/channel-strip-chain.ts'
import { STRIP_PARAM_NAMES } from '../../audio-worklets/channel-strip-params.ts'
import { WasmChannelStrip } from '../../audio-worklets/channel-strip-wasm.ts'
import { stripModule } from '../../audio-worklets/strip-module.node.ts'
import type { BenchResult } from '../types.ts'

const SR = 48000
const SECONDS = 60
const EFFECTS = ['highpass', 'lowpass', 'distortion', 'compression', 'chorus', 'delay', 'reverb'] as const

function cpuSeconds(
  settings: Partial<Record<(typeof STRIP_PARAM_NAMES)[number], number>>,
  noiseL: Float32Array,
  noiseR: Float32Array,
  kind: 'wasm' | 'js',
): number {
  const chain = kind === 'js' ? new ChannelStripChain(SR) : null
  const strip = kind === 'wasm' ? new WasmChannelStrip(stripModule(), SR) : null
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
  STRIP_PARAM_NAMES.forEach((n, i) => (chain ? chain.set(n, values[n], i) : strip!.set(n, values[n])))
  if (chain) chain.snap()
  else strip!.snap()
  const l = new Float32Array(128)
  const r = new Float32Array(128)
  const blocks = (SECONDS * SR) / 128
  const start = process.cpuUsage()
  for (let b = 0; b < blocks; b++) {
    const off = (b % (noiseL.length / 128)) * 128
    if (strip) {
      strip.inL.set(noiseL.subarray(off, off + 128))
      strip.inR.set(noiseR.subarray(off, off + 128))
      strip.process(true)
      l.set(strip.outL)
      r.set(strip.outR)
      continue
    }
    for (let i = 0; i < 128; i++) {
      l[i] = noiseL[off + i]!
      r[i] = noiseR[off + i]!
    }
    chain!.process(l, r, 128)
  }
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1e6
}

export async function run(): Promise<BenchResult[]> {
  const noiseL = Float32Array.from({ length: SR }, () => Math.random() - 0.5)
  const noiseR = Float32Array.from({ length: SR }, () => Math.random() - 0.5)
  const allAt50 = { ...Object.fromEntries(EFFECTS.map((e) => [e, 50])), volume: 50, pan: 25 }
  const results: BenchResult[] = []
  for (const kind of ['wasm', 'js'] as const) {
    const label = kind === 'wasm' ? 'strip.wasm' : 'JS kernels (before)'
    cpuSeconds(allAt50, noiseL, noiseR, kind) // JIT warm-up
    // Best of three: the first pass of a configuration still pays for compilation, which made the
    // subtracted baseline too large (and some effects' cost negative).
    const best = (params: Partial<Record<string, number>>) => Math.min(...[0, 1, 2].map(() => cpuSeconds(params, noiseL, noiseR, kind)))
    const base = best({})
    results.push({
      name: `${label}: copy only (every stage skipped)`,
      value: SECONDS / base,
      unit: 'x real time',
      detail: `${(base * 1000).toFixed(0)} ms CPU`,
    })
    for (const e of EFFECTS) {
      const t = best({ [e]: 50 }) - base
      results.push({
        name: `${label}: ${e} at 50`,
        value: t * 1000,
        unit: 'ms CPU per 60 s',
        detail: `${(SECONDS / t).toFixed(0)}x real time`,
      })
    }
    const all = best(allAt50)
    results.push({
      name: `${label}: whole strip, every effect at 50`,
      value: SECONDS / all,
      unit: 'x real time',
      detail: `${(all * 1000).toFixed(0)} ms CPU per 60 s stereo`,
    })
  }
  return results
}
