import { afterEach, describe, expect, it } from 'vitest'
import { deviceOutputLatency, setUnreportedOutputLatency } from '../../engine/output-latency.ts'
import { parseOutputDelay, startOutputDelay, useOutputDelayStore } from './output-delay-store.ts'

const safari = { baseLatency: 0, _nativeAudioContext: {} } as unknown as Parameters<typeof deviceOutputLatency>[0]

afterEach(() => {
  useOutputDelayStore.setState({ delayMs: 0 })
  setUnreportedOutputLatency(0)
})

describe('output delay setting', () => {
  it('reads stored and typed values as 10 ms steps from 0 to 500, anything else as none', () => {
    expect(parseOutputDelay('200')).toBe(200)
    expect(parseOutputDelay(187)).toBe(190)
    expect(parseOutputDelay(9000)).toBe(500)
    expect(parseOutputDelay(-20)).toBe(0)
    for (const bad of [null, '', 'loud', Number.NaN, Number.POSITIVE_INFINITY, {}]) expect(parseOutputDelay(bad)).toBe(0)
  })

  it('reaches the engine when started and on every change', () => {
    useOutputDelayStore.setState({ delayMs: 120 })
    const stop = startOutputDelay()
    expect(deviceOutputLatency(safari)).toBeCloseTo(0.12, 9)
    useOutputDelayStore.getState().setDelayMs(210)
    expect(deviceOutputLatency(safari)).toBeCloseTo(0.21, 9)
    stop()
    useOutputDelayStore.getState().setDelayMs(50)
    expect(deviceOutputLatency(safari)).toBeCloseTo(0.21, 9)
  })
})
