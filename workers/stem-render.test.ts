import { describe, expect, it } from 'vitest'
import { WasmChannelStrip } from '../audio-worklets/channel-strip-wasm.ts'
import { stripModule } from '../audio-worklets/strip-module.node.ts'
import { STRIP_PARAM_NAMES, type StripParamName } from '../audio-worklets/channel-strip-params.ts'
import { processStripQuantum, setStripControls } from '../audio-worklets/channel-strip-quantum.ts'
import { StemMix } from './stem-render.ts'
import { noise, rms, SR } from '../audio-worklets/kernels/test-signals.ts'

type Controls = Record<StripParamName, number>
const NEUTRAL: Controls = {
  volume: 100,
  pan: 0,
  reverb: 0,
  lowpass: 0,
  highpass: 0,
  distortion: 0,
  delay: 0,
  compression: 0,
  chorus: 0,
  enabled: 1,
}
const BUSY: Controls = {
  volume: 70,
  pan: -20,
  reverb: 50,
  lowpass: 40,
  highpass: 20,
  distortion: 35,
  delay: 45,
  compression: 60,
  chorus: 30,
  enabled: 1,
}

/** The processor's loop written out: the whole timeline as the worklet's input, quantum by quantum. */
function viaProcessorLoop(controls: Controls, channels: Float32Array[], startFrame: number, length: number): Float32Array[] {
  const chain = new WasmChannelStrip(stripModule(), SR)
  const parameters = Object.fromEntries(STRIP_PARAM_NAMES.map((n) => [n, Float32Array.of(controls[n])]))
  const padded = Math.ceil(length / 128) * 128
  const inL = new Float32Array(padded + channels[0]!.length)
  const inR = new Float32Array(padded + channels[0]!.length)
  inL.set(channels[0]!, startFrame)
  inR.set(channels[1] ?? channels[0]!, startFrame)
  const out = [new Float32Array(length), new Float32Array(length)]
  const l = new Float32Array(128)
  const r = new Float32Array(128)
  for (let pos = 0; pos < length; pos += 128) {
    setStripControls(chain, parameters)
    if (pos === 0) chain.snap()
    processStripQuantum(chain, inL.subarray(pos, pos + 128), inR.subarray(pos, pos + 128), l, r, 128)
    const n = Math.min(128, length - pos)
    out[0]!.set(l.subarray(0, n), pos)
    out[1]!.set(r.subarray(0, n), pos)
  }
  return out
}

describe("StemMix (the export workers' strip renderer)", () => {
  it('with neutral controls places the audio on the timeline bit for bit, mono on both sides', () => {
    const a = noise(1000, 0.5, 1)
    const b = noise(1000, 0.5, 2)
    const mix = new StemMix(2000, SR, stripModule())
    mix.addTrack({ controls: NEUTRAL, channels: [a, b], startFrame: 0 })
    mix.addTrack({ controls: NEUTRAL, channels: [a], startFrame: 1300 })
    expect(Array.from(mix.left.subarray(0, 1000))).toEqual(Array.from(a))
    expect(Array.from(mix.right.subarray(0, 1000))).toEqual(Array.from(b))
    expect(mix.left.subarray(1000, 1300).every((v) => v === 0)).toBe(true)
    // Cut at the mix's end, as the offline context's length cuts the graph.
    expect(Array.from(mix.left.subarray(1300))).toEqual(Array.from(a.subarray(0, 700)))
    expect(Array.from(mix.right.subarray(1300))).toEqual(Array.from(a.subarray(0, 700)))
  })

  it("equals the worklet processor's loop sample for sample with every effect on, at an odd start frame", () => {
    const a = noise(SR / 2, 0.4, 3)
    const b = noise(SR / 2, 0.4, 4)
    const length = SR
    const mix = new StemMix(length, SR, stripModule())
    mix.addTrack({ controls: BUSY, channels: [a, b], startFrame: 4321 })
    const ref = viaProcessorLoop(BUSY, [a, b], 4321, length)
    expect(rms(mix.left)).toBeGreaterThan(0.01)
    expect(Array.from(mix.left)).toEqual(Array.from(ref[0]!))
    expect(Array.from(mix.right)).toEqual(Array.from(ref[1]!))
  })

  it('sums tracks: two strips equal the sum of each alone', () => {
    const a = noise(SR / 4, 0.4, 5)
    const b = noise(SR / 4, 0.4, 6)
    const both = new StemMix(SR / 2, SR, stripModule())
    both.addTrack({ controls: BUSY, channels: [a], startFrame: 0 })
    both.addTrack({ controls: { ...BUSY, pan: 30 }, channels: [b], startFrame: 777 })
    const one = viaProcessorLoop(BUSY, [a], 0, SR / 2)
    const two = viaProcessorLoop({ ...BUSY, pan: 30 }, [b], 777, SR / 2)
    let max = 0
    for (let i = 0; i < SR / 2; i++) max = Math.max(max, Math.abs(both.left[i]! - (one[0]![i]! + two[0]![i]!)))
    expect(max).toBeLessThan(1e-6)
  })

  it('rounds controls as an AudioParam does (float32)', () => {
    const a = noise(2000, 0.4, 7)
    const odd = { ...NEUTRAL, volume: 33.3333333333, pan: 12.345678901 }
    const mix = new StemMix(2000, SR, stripModule())
    mix.addTrack({ controls: odd, channels: [a], startFrame: 0 })
    const ref = viaProcessorLoop({ ...odd, volume: Math.fround(odd.volume), pan: Math.fround(odd.pan) }, [a], 0, 2000)
    expect(Array.from(mix.left)).toEqual(Array.from(ref[0]!))
  })

  it('reports progress in whole frames, rising, ending at the length', () => {
    const mix = new StemMix(3 * SR, SR, stripModule())
    const seen: number[] = []
    mix.addTrack({ controls: BUSY, channels: [noise(SR, 0.3, 8)], startFrame: 0 }, (f) => seen.push(f))
    expect(seen.length).toBeGreaterThanOrEqual(3)
    expect(seen.every((f, i) => i === 0 || f >= seen[i - 1]!)).toBe(true)
    expect(seen.at(-1)).toBe(3 * SR)
  })

  it('refuses malformed jobs with a clear RangeError', () => {
    expect(() => new StemMix(0, SR, stripModule())).toThrow(RangeError)
    expect(() => new StemMix(10.5, SR, stripModule())).toThrow(/whole number/)
    expect(() => new StemMix(100, 0, stripModule())).toThrow(/sample rate/)
    const mix = new StemMix(100, SR, stripModule())
    const x = new Float32Array(10)
    expect(() => mix.addTrack({ controls: NEUTRAL, channels: [], startFrame: 0 })).toThrow(/1 or 2 channels/)
    expect(() => mix.addTrack({ controls: NEUTRAL, channels: [x, x, x], startFrame: 0 })).toThrow(/1 or 2 channels/)
    expect(() => mix.addTrack({ controls: NEUTRAL, channels: [x, new Float32Array(9)], startFrame: 0 })).toThrow(/differ in length/)
    expect(() => mix.addTrack({ controls: NEUTRAL, channels: [x], startFrame: 0.5 })).toThrow(/whole frame/)
    expect(mix.left.every((v) => v === 0)).toBe(true)
  })
})
