import { describe, expect, it } from 'vitest'
import { render, settle } from '../../../tests/component/render.tsx'
import { slotAt } from '../../engine/station/programme.ts'
import type { StationState } from '../../engine/station/station-player.ts'
import { StationMiniControls, type StationControls } from './StationMiniControls.tsx'

/** A station whose state the test moves, as the player's half-second tick does. */
function fakeStation(initial: StationState): StationControls & { emit(patch: Partial<StationState>): void } {
  let state = initial
  const listeners = new Set<(s: StationState) => void>()
  return {
    get state() {
      return state
    },
    subscribe(listener) {
      listeners.add(listener)
      listener(state)
      return () => void listeners.delete(listener)
    },
    skip() {},
    stop() {},
    emit(patch) {
      state = { ...state, ...patch }
      for (const l of listeners) l(state)
    },
  }
}

describe('StationMiniControls', () => {
  it("shows the station's own clock in the player bar, moving with the piece on air", async () => {
    const current = slotAt(Date.UTC(2026, 11, 2, 9, 30))
    const station = fakeStation({ status: 'playing', current, next: null, position: 6.4, steer: {}, skipped: 0, error: null })
    const host = render(<StationMiniControls station={station} />)
    const clock = () => host.querySelector('[data-testid="mini-station-position"]')?.textContent
    expect(clock()).toBe('0:06 / 1:00')
    await settle(() => station.emit({ position: 12.9 }))
    expect(clock()).toBe('0:12 / 1:00')
  })

  it('shows no clock while tuning in to nothing yet, and nothing once stopped', async () => {
    const station = fakeStation({ status: 'tuning', current: null, next: null, position: 0, steer: {}, skipped: 0, error: null })
    const host = render(<StationMiniControls station={station} />)
    expect(host.textContent).toContain('Tuning in…')
    expect(host.querySelector('[data-testid="mini-station-position"]')).toBeNull()
    await settle(() => station.emit({ status: 'stopped' }))
    expect(host.querySelector('[data-testid="mini-station"]')).toBeNull()
  })
})
