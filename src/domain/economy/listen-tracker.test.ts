import { describe, expect, it } from 'vitest'
import { ListenTracker, qualifyingSeconds, type ListenReport, type PlaybackSnapshot } from './listen-tracker.ts'

/** A fake player: a fake clock plus the snapshot the player store would publish. */
function harness(opts: { duration?: number; fail?: number; canReport?: () => boolean } = {}) {
  let clock = 0
  let failuresLeft = opts.fail ?? 0
  const reports: ListenReport[] = []
  const errors: unknown[] = []
  const tracker = new ListenTracker({
    now: () => clock,
    report: async (listen) => {
      reports.push(listen)
      if (failuresLeft > 0) {
        failuresLeft -= 1
        throw new Error('network down')
      }
    },
    canReport: opts.canReport,
    onError: (e) => errors.push(e),
  })
  const state: PlaybackSnapshot = { songId: 'neon-drift', playId: 1, isPlaying: false, position: 0, duration: opts.duration ?? 80 }
  const push = () => tracker.observe({ ...state })
  return {
    tracker,
    reports,
    errors,
    state,
    start(songId = state.songId, playId = state.playId + 1) {
      Object.assign(state, { songId, playId, position: 0, isPlaying: true })
      push()
    },
    /** Plays for `seconds` of wall time, the media clock advancing with it, 4 updates a second. */
    play(seconds: number, rate = 1) {
      for (let t = 0; t < seconds * 4; t++) {
        clock += 250
        state.position += 0.25 * rate
        push()
      }
    },
    wait(seconds: number) {
      clock += seconds * 1000
      push()
    },
    pause() {
      state.isPlaying = false
      push()
    },
    resume() {
      state.isPlaying = true
      push()
    },
    seek(to: number) {
      state.position = to
      push()
    },
    flush: () => new Promise((r) => setTimeout(r, 0)),
  }
}

describe('qualifyingSeconds', () => {
  it('is 30 s or half the track, whichever is less', () => {
    expect(qualifyingSeconds(80)).toBe(30)
    expect(qualifyingSeconds(60)).toBe(30)
    expect(qualifyingSeconds(40)).toBe(20)
    expect(qualifyingSeconds(9)).toBe(4.5)
  })
  it('falls back to 30 s while the duration is unknown', () => {
    expect(qualifyingSeconds(0)).toBe(30)
    expect(qualifyingSeconds(Number.NaN)).toBe(30)
  })
})

describe('ListenTracker', () => {
  it('reports nothing before the threshold and exactly once when it is crossed', async () => {
    const h = harness()
    h.start()
    h.play(29.75)
    await h.flush()
    expect(h.reports).toEqual([])
    expect(h.tracker.listenedSeconds).toBeCloseTo(29.75, 6)
    h.play(0.25)
    await h.flush()
    expect(h.reports).toEqual([{ songId: 'neon-drift', seconds: 30, playId: 2 }])
  })

  it('reports whole seconds only once they reach a fractional threshold (45 s track: 22.5 s → 23 s)', async () => {
    const h = harness({ duration: 45 })
    h.start()
    h.play(22.75)
    await h.flush()
    expect(h.reports).toHaveLength(0)
    h.play(0.25)
    await h.flush()
    expect(h.reports).toEqual([{ songId: 'neon-drift', seconds: 23, playId: 2 }])
  })

  it('uses half the track for short tracks', async () => {
    const h = harness({ duration: 40 })
    h.start()
    h.play(19.75)
    await h.flush()
    expect(h.reports).toHaveLength(0)
    h.play(0.25)
    await h.flush()
    expect(h.reports).toEqual([{ songId: 'neon-drift', seconds: 20, playId: 2 }])
  })

  it('reports once per play, and again for a fresh play of the same song', async () => {
    const h = harness()
    h.start()
    h.play(79)
    await h.flush()
    expect(h.reports).toHaveLength(1)
    h.start('neon-drift', 3)
    h.play(31)
    await h.flush()
    expect(h.reports.map((r) => r.playId)).toEqual([2, 3])
  })

  it('does not count seeks forward or backward', async () => {
    const h = harness()
    h.start()
    h.play(5)
    h.seek(70)
    h.play(2)
    h.seek(10)
    h.play(2)
    await h.flush()
    expect(h.tracker.listenedSeconds).toBeCloseTo(9, 6)
    expect(h.reports).toHaveLength(0)
    // Skipping to the end of the track after a few seconds never makes it a listen.
    h.seek(79)
    h.play(1)
    await h.flush()
    expect(h.reports).toHaveLength(0)
  })

  it('does not count time spent paused or stalled, nor faster-than-real-time media clocks', async () => {
    const h = harness()
    h.start()
    h.play(10)
    h.pause()
    h.wait(120)
    h.resume()
    h.play(5)
    h.play(5, 0) // stalled: isPlaying but the position stands still
    h.play(5, 4) // media clock racing ahead of the wall clock
    await h.flush()
    expect(h.tracker.listenedSeconds).toBeCloseTo(20, 6)
    expect(h.reports).toHaveLength(0)
  })

  it('ignores a long gap between updates (frozen tab) beyond a short step', async () => {
    const h = harness()
    h.start()
    h.play(1)
    h.state.position += 60
    h.wait(60)
    expect(h.tracker.listenedSeconds).toBeLessThanOrEqual(3)
  })

  it('holds the report for a visitor and sends it once they sign in during the same play', async () => {
    let signedIn = false
    const h = harness({ canReport: () => signedIn })
    h.start()
    h.play(35)
    await h.flush()
    expect(h.reports).toHaveLength(0)
    signedIn = true
    h.play(0.25)
    await h.flush()
    expect(h.reports).toEqual([{ songId: 'neon-drift', seconds: 35, playId: 2 }])
  })

  it('retries a failed report after a delay, a bounded number of times, with the same play id', async () => {
    const h = harness({ fail: 5 })
    h.start()
    h.play(30)
    await h.flush()
    expect(h.reports).toHaveLength(1)
    h.play(4) // inside the retry delay
    await h.flush()
    expect(h.reports).toHaveLength(1)
    h.play(1.25)
    await h.flush()
    expect(h.reports).toHaveLength(2)
    h.play(30)
    await h.flush()
    expect(h.reports).toHaveLength(3)
    expect(new Set(h.reports.map((r) => r.playId))).toEqual(new Set([2]))
    expect(h.errors).toHaveLength(3)
    expect(h.tracker.reported).toBe(true)
  })

  it('starts over when the song changes or playback stops', async () => {
    const h = harness()
    h.start()
    h.play(20)
    h.start('circuit-breaker', 3)
    h.play(20)
    await h.flush()
    expect(h.reports).toHaveLength(0)
    h.state.songId = null
    h.state.isPlaying = false
    h.tracker.observe({ ...h.state })
    expect(h.tracker.listenedSeconds).toBe(0)
  })
})
