/**
 * A start due now, checked: the audio thread may reach a buffer started "now" a render quantum or
 * more late, so the item's clock is an assumption until heard. From 100 ms in the deck listens to it
 * (locate-playback.ts), moves the item's clock to where it really is, and the handover with it.
 */
import { locatePlayback } from './locate-playback.ts'
import { positionAt } from './deck-timeline.ts'
import { scheduleNext } from './deck-handover.ts'
import { LEAD_S, clockOf, takeAttempt, type DeckCore, type Run, type Voice } from './deck-core.ts'

/** How late a start due now may sound, at most, for the check to find it. */
const RADIUS_S = 0.05
/** Checks of a started item's clock: attempts, their spacing, and the time left below which none starts. */
const TRIES = 4
const RETRY_S = 0.25
const MIN_REMAINING_S = 0.5
/** A check captures one block from this long after the start was due: past the latest it may sound. */
const FIRST_CHECK_S = RADIUS_S + 0.05

let checking = false

/**
 * After a start due now at `when`: its clock is an assumption until heard. The first check waits
 * until the item must be sounding, so the captured block holds none of the silence before it.
 */
export function clockToCheck(v: Voice, when: number) {
  v.clock = { sure: false, tries: 0, notBefore: when + FIRST_CHECK_S }
}

export function maybeCheckClock(core: DeckCore) {
  const v = core.current
  const run = v?.run
  const ctx = core.graph.ctxIfAny
  if (!v?.buffer || !run?.source || v.clock.sure || checking || !core.playing || !ctx) return
  const now = ctx.currentTime
  if (v.buffer.duration - positionAt(now, clockOf(v, v.buffer.duration)) < MIN_REMAINING_S) return
  if (takeAttempt(v.clock, TRIES, RETRY_S, now)) void checkClock(core, v, run)
}

/** Hears where `run` of `v` really is and moves the item's clock (and its handover) there. */
async function checkClock(core: DeckCore, v: Voice, run: Run) {
  checking = true
  const ctx = core.graph.ctx
  try {
    const startAt = await locatePlayback(ctx, run.fade, v.buffer!, v.startAt, RADIUS_S)
    if (startAt === null || v.run !== run || core.current !== v || !core.playing) return
    v.clock.sure = true
    if (Math.abs(startAt - v.startAt) * ctx.sampleRate < 0.5) return
    v.startAt = startAt
    // A handover not yet due moves with the clock; one under way keeps its course.
    const inc = core.incoming
    if (!inc || inc.at - ctx.currentTime > LEAD_S) scheduleNext(core)
  } catch (err) {
    v.clock.tries = TRIES
    console.warn("[player] an item's start could not be checked:", err)
  } finally {
    checking = false
  }
}
