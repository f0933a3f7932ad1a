/**
 * The limiter on strip.wasm against kernels/true-peak-limiter.ts (≤ 2^-20 on every sample; measured
 * bit for bit) and against its analytic promise: the output's true peak (BS.1770-4, dsp/true-peak.ts)
 * at or below the ceiling, and below the ceiling the input passes only delayed.
 */
import { describe, expect, it } from 'vitest'
import { truePeakDbtp } from '../dsp/true-peak.ts'
import { TruePeakLimiter } from './kernels/true-peak-limiter.ts'
import { noise, SR } from './kernels/test-signals.ts'
import { WasmTruePeakLimiter } from './true-peak-limiter-wasm.ts'
import { stripModule } from './strip-module.node.ts'

const Q = 128

function limitBoth(input: Float32Array[], ceilingDb: number) {
  const js = new TruePeakLimiter(SR, 2, { ceilingDb })
  const wasm = new WasmTruePeakLimiter(stripModule(), SR, { ceilingDb })
  const n = input[0]!.length
  const outJs = [new Float32Array(n), new Float32Array(n)]
  const outWasm = [new Float32Array(n), new Float32Array(n)]
  for (let pos = 0; pos + Q <= n; pos += Q) {
    const ins = input.map((c) => c.subarray(pos, pos + Q))
    js.process(
      ins,
      outJs.map((c) => c.subarray(pos, pos + Q)),
      Q,
    )
    wasm.inL.set(ins[0]!)
    wasm.inR.set(ins[1]!)
    wasm.process(true)
    outWasm[0]!.set(wasm.outL, pos)
    outWasm[1]!.set(wasm.outR, pos)
  }
  return { outJs, outWasm, js, wasm }
}

describe('the true-peak limiter on strip.wasm', () => {
  it('equals the JS limiter within 2^-20 on loud noise (limiting all the time) and reports the same lowest gain', () => {
    const input = [noise(SR, 1.4, 21), noise(SR, 1.4, 22)]
    const { outJs, outWasm, js, wasm } = limitBoth(input, -1)
    let worst = 0
    for (let c = 0; c < 2; c++) for (let i = 0; i < SR; i++) worst = Math.max(worst, Math.abs(outJs[c]![i]! - outWasm[c]![i]!))
    expect(worst).toBeLessThanOrEqual(2 ** -20)
    expect(wasm.latencyFrames).toBe(js.latencyFrames)
    expect(Math.abs(wasm.takeLowestGain() - js.takeLowestGain())).toBeLessThan(1e-9)
  })

  it('keeps the output true peak at or below −1 dBTP, and passes a quiet signal only delayed', () => {
    const loud = [noise(SR, 1.4, 23), noise(SR, 1.4, 24)]
    const { outWasm } = limitBoth(loud, -1)
    expect(truePeakDbtp(outWasm.map((c) => c.subarray(SR / 10)))).toBeLessThanOrEqual(-1)
    const quiet = [noise(SR, 0.3, 25), noise(SR, 0.3, 26)]
    const { outWasm: passed, wasm } = limitBoth(quiet, -1)
    const d = wasm.latencyFrames
    let worst = 0
    for (let c = 0; c < 2; c++) for (let i = d; i < SR - Q; i++) worst = Math.max(worst, Math.abs(passed[c]![i]! - quiet[c]![i - d]!))
    expect(worst).toBe(0)
    expect(wasm.takeLowestGain()).toBe(1)
  })
})
