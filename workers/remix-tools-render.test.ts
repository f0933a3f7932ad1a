import { describe, expect, it } from 'vitest'
import { RemixToolsChain } from '../audio-worklets/remix-tools-chain.ts'
import { REMIX_TOOLS_NEUTRAL, REMIX_TOOLS_PARAM_NAMES, type RemixToolsControls } from '../audio-worklets/remix-tools-params.ts'
import { processRemixToolsQuantum, setRemixToolControls } from '../audio-worklets/remix-tools-quantum.ts'
import { noise, rms, sine } from '../audio-worklets/kernels/test-signals.ts'
import { renderRemixTools } from './remix-tools-render.ts'

const SR = 44100
const ALL_ON: RemixToolsControls = { autoTune: 1, retune: 90, harmonize: 1, harmonyMix: 60, tonic: 9, mode: 0 }

/** The processor's loop written out (what the worklet does per quantum), the input zero-padded past its end. */
function viaProcessorLoop(controls: RemixToolsControls, channels: Float32Array[], length: number): Float32Array[] {
  const chain = new RemixToolsChain(SR)
  const parameters = Object.fromEntries(REMIX_TOOLS_PARAM_NAMES.map((n) => [n, Float32Array.of(controls[n])]))
  const padded = Math.ceil(length / 128) * 128 + 128
  const inL = new Float32Array(padded),
    inR = new Float32Array(padded)
  inL.set(channels[0]!)
  inR.set(channels[1] ?? channels[0]!)
  const out = [new Float32Array(length), new Float32Array(length)]
  const l = new Float32Array(128),
    r = new Float32Array(128)
  for (let pos = 0; pos < length; pos += 128) {
    setRemixToolControls(chain, parameters)
    if (pos === 0) chain.snap()
    const live = pos < channels[0]!.length
    processRemixToolsQuantum(
      chain,
      live ? inL.subarray(pos, pos + 128) : undefined,
      live ? inR.subarray(pos, pos + 128) : undefined,
      l,
      r,
      128,
    )
    const n = Math.min(128, length - pos)
    out[0]!.set(l.subarray(0, n), pos)
    out[1]!.set(r.subarray(0, n), pos)
  }
  return out
}

describe("renderRemixTools (the export worker's remix tools)", () => {
  it("equals the processor's quantum loop sample for sample with both tools on (stereo, odd length, a tail past the input)", () => {
    const tone = sine(SR, 233, 0.4, SR)
    const hiss = noise(SR, 0.05, 3)
    const l = tone.map((v, i) => v + hiss[i]!)
    const r = tone.map((v) => 0.7 * v)
    const length = SR + 5000 + 77
    const [wl, wr] = renderRemixTools([l, r], ALL_ON, SR, length)
    const [pl, pr] = viaProcessorLoop(ALL_ON, [l, r], length)
    expect(rms(wl)).toBeGreaterThan(0.1)
    expect(Array.from(wl)).toEqual(Array.from(pl!))
    expect(Array.from(wr)).toEqual(Array.from(pr!))
  })

  it("duplicates mono input, as the worklet's input up-mix does", () => {
    const x = sine(SR / 2, 330, 0.5, SR)
    const [ml, mr] = renderRemixTools([x], ALL_ON, SR)
    const [sl, sr] = renderRemixTools([x, x], ALL_ON, SR)
    expect(Array.from(ml)).toEqual(Array.from(sl))
    expect(Array.from(mr)).toEqual(Array.from(sr))
  })

  it('is bit-transparent with the neutral controls', () => {
    const a = noise(10_000, 0.9, 1),
      b = noise(10_000, 0.9, 2)
    const [l, r] = renderRemixTools([a, b], REMIX_TOOLS_NEUTRAL, SR)
    expect(l).toEqual(a)
    expect(r).toEqual(b)
  })

  it('rounds controls as an AudioParam does (float32)', () => {
    const x = sine(SR / 2, 300, 0.5, SR)
    const odd = { ...ALL_ON, retune: 77.7777777777, harmonyMix: 33.3333333333 }
    const [l] = renderRemixTools([x], odd, SR)
    const [ref] = viaProcessorLoop({ ...odd, retune: Math.fround(odd.retune), harmonyMix: Math.fround(odd.harmonyMix) }, [x], x.length)
    expect(Array.from(l)).toEqual(Array.from(ref!))
  })
})
