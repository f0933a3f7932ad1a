import { describe, expect, it } from 'vitest'
import { localNow } from '../../lib/clock-offset.ts'
import { CLOCK_STEP_MS, StationPlayer, type StationState } from '../../engine/station/station-player.ts'
import { createStationClock } from './station-clock.ts'

const stopped: StationState = { status: 'stopped', current: null, next: null, position: 0, steer: {}, skipped: 0, error: null }

/** A station whose state the test sets, recording the offsets it is given; a server whose clock is `aheadMs` ahead. */
function setup(aheadMs: number) {
  const subscribers = new Set<(s: StationState) => void>()
  const offsets: number[] = []
  const station = {
    state: stopped,
    subscribe(listener: (s: StationState) => void) {
      subscribers.add(listener)
      listener(station.state)
      return () => subscribers.delete(listener)
    },
    setClockOffset: (ms: number) => offsets.push(ms),
  }
  const set = (patch: Partial<StationState>) => {
    station.state = { ...station.state, ...patch }
    for (const l of subscribers) l(station.state)
  }
  let probes = 0
  const serverTime = async () => {
    probes += 1
    return localNow() + aheadMs
  }
  return { set, offsets, clock: createStationClock(station, serverTime), probes: () => probes }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

describe("CUBE Radio on the server's clock", () => {
  it('measures while the Stream page is open and gives the station the offset, to within the round trip', async () => {
    const s = setup(7_000)
    await settle()
    expect(s.probes()).toBe(0)
    const release = s.clock.watch()
    await settle()
    expect(s.offsets).toHaveLength(1)
    expect(Math.abs(s.offsets[0]! - 7_000)).toBeLessThan(20)
    release()
    s.clock.stop()
  })

  it('keeps measuring while the station plays after the page closed, and stops when nobody is near the radio', async () => {
    const s = setup(-3_000)
    const release = s.clock.watch()
    s.set({ status: 'playing' })
    release()
    await settle()
    expect(Math.abs(s.offsets[0]! + 3_000)).toBeLessThan(20)
    s.set({ status: 'stopped' })
    await settle()
    const probes = s.probes()
    const again = s.clock.watch()
    await settle()
    // A new measurement started: the old tracker was stopped, not left running.
    expect(s.probes()).toBeGreaterThan(probes)
    expect(s.offsets).toHaveLength(2)
    again()
    s.clock.stop()
  })

  it("the station's programme time follows the offset; a step smaller than CLOCK_STEP_MS or not a number is not taken", () => {
    const T = Date.UTC(2026, 11, 3, 9, 0)
    const station = new StationPlayer(() => T)
    expect(station.programmeTime()).toBe(T)
    station.setClockOffset(7_000)
    expect(station.programmeTime()).toBe(T + 7_000)
    station.setClockOffset(7_000 + CLOCK_STEP_MS / 2)
    expect(station.programmeTime()).toBe(T + 7_000)
    station.setClockOffset(Number.NaN)
    expect(station.programmeTime()).toBe(T + 7_000)
    station.setClockOffset(-2_000)
    expect(station.programmeTime()).toBe(T - 2_000)
  })
})
