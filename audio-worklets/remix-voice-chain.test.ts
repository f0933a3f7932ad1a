import { describe, expect, it } from 'vitest'
import { RemixVoiceChain } from './remix-voice-chain.ts'
import type { RemixVoiceOptions } from './remix-voice-params.ts'

const SR = 48000
const Q = 128

/** A ramp source (value = frame index / 1e6) so every output sample names the frame it came from. */
const ramp = (n: number) => Float32Array.from({ length: n }, (_, i) => i / 1e6)

function run(chain: RemixVoiceChain, quanta: number): [Float32Array, Float32Array] {
  const outL = new Float32Array(quanta * Q)
  const outR = new Float32Array(quanta * Q)
  const l = new Float32Array(Q)
  const r = new Float32Array(Q)
  for (let q = 0; q < quanta; q++) {
    chain.process(l, r, Q)
    outL.set(l, q * Q)
    outR.set(r, q * Q)
  }
  return [outL, outR]
}

const options = (over: Partial<RemixVoiceOptions> = {}): RemixVoiceOptions => ({
  source: [ramp(SR)],
  layers: {},
  playing: true,
  position: 0,
  ...over,
})

describe('RemixVoiceChain (source player + layers)', () => {
  it('plays the source from the position, both channels, and stops at its end (ended once)', () => {
    const chain = new RemixVoiceChain(SR, options({ position: 1000 }))
    chain.snap()
    const [l, r] = run(chain, 400)
    expect(l[0]).toBe(Math.fround(1000 / 1e6))
    expect(l[5000]).toBe(Math.fround(6000 / 1e6))
    expect(r[5000]).toBe(l[5000])
    // 47000 frames left: silence after them, and the chain reports it ended.
    expect(l[47_000 - 1]).toBe(Math.fround((SR - 1) / 1e6))
    expect(l[47_000]).toBe(0)
    expect(chain.ended).toBe(true)
    expect(chain.playing).toBe(false)
  })

  it('a loop region wraps sample-exactly; seek and pause do what they say', () => {
    const chain = new RemixVoiceChain(SR, options())
    chain.setLoop(10_000, 10_300)
    expect(chain.position).toBe(10_000)
    const [l] = run(chain, 5)
    for (let i = 0; i < 640; i++) expect(l[i]).toBe(Math.fround((10_000 + (i % 300)) / 1e6))
    chain.setLoop(0, 0)
    chain.seek(30_000)
    chain.pause()
    expect(run(chain, 2)[0].every((v) => v === 0)).toBe(true)
    chain.play()
    expect(run(chain, 1)[0][0]).toBe(Math.fround(30_000 / 1e6))
  })

  it('layers follow the timeline: after a seek or a loop wrap a layer is still on the grid', () => {
    const loop = new Float32Array(2400).fill(0)
    loop[0] = 1 // a click at each repetition start
    const period = 0.125 // 6000 frames
    const chain = new RemixVoiceChain(SR, options({ source: [new Float32Array(SR)], layers: { drums: { loop, firstBeat: 0.01, period } } }))
    chain.set('drums', 100)
    chain.snap()
    chain.seek(20_000)
    const [l] = run(chain, 200)
    const clicks = [...l.keys()].filter((i) => l[i]! > 0.5).map((i) => i + 20_000)
    expect(clicks.slice(0, 3)).toEqual([480 + 4 * 6000, 480 + 5 * 6000, 480 + 6 * 6000])
    chain.setLoop(480 + 6000 - 100, 480 + 6000 + 200)
    const [w] = run(chain, 10)
    const wrapped = [...w.keys()].filter((i) => w[i]! > 0.5)
    expect(wrapped).toEqual([100, 400, 700, 1000])
  })

  it('a layer switched on or off glides (no step over 0.02 on a full-scale loop) and a level of 0 adds nothing', () => {
    const loop = new Float32Array(SR).fill(1)
    const chain = new RemixVoiceChain(SR, options({ source: [new Float32Array(SR)], layers: { bass: { loop, firstBeat: 0, period: 1 } } }))
    chain.snap()
    expect(run(chain, 10)[0].every((v) => v === 0)).toBe(true)
    chain.set('bass', 100)
    const [up] = run(chain, 40)
    let worst = 0
    for (let i = 1; i < up.length; i++) worst = Math.max(worst, Math.abs(up[i]! - up[i - 1]!))
    expect(worst).toBeLessThan(0.02)
    expect(up[up.length - 1]).toBeGreaterThan(0.99)
  })

  it('refuses a source without audio', () => {
    expect(() => new RemixVoiceChain(SR, options({ source: [] }))).toThrow(RangeError)
  })
})
