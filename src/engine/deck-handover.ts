/**
 * The handover: the decoded next item put on the context clock at the current one's last frame
 * (gapless), or `crossfade` seconds before it with equal-power curves (deck-timeline.ts has the
 * rules); after an item that stayed streamed, overlapping it by STREAM_OVERLAP_S at least. And
 * catching up with the clock: a handover it has passed, or the end of the current item.
 */
import { fadeCurve, onGrid, transitionPlan } from './deck-timeline.ts'
import { release, startRun, stopRun } from './deck-voices.ts'
import { CURVE_POINTS, LEAD_S, STREAM_OVERLAP_S, clockOf, createVoice, durationOf, type DeckCore, type Voice } from './deck-core.ts'

/** Where a streamed item's offset 0 falls on the context clock, as well as the element tells. */
export function estimateStreamStart(core: DeckCore, v: Voice) {
  const ctx = core.graph.ctxIfAny
  if (ctx) v.startAt = ctx.currentTime - core.stream.currentTime
}

/** Takes the next item off the clock; the current one plays to its end at full gain again. */
export function cancelIncoming(core: DeckCore) {
  const inc = core.incoming
  if (!inc) return
  core.incoming = null
  release(core, inc.voice)
  // Only its fade-out goes (from inc.at on), not what came before it (the ramp of a switch from
  // the element to the buffer).
  const run = core.current?.run
  if (run && inc.fade > 0) run.fade.gain.cancelScheduledValues(inc.at)
}

/** Stops every voice: the next one, those ringing out, and the current one. */
export function silenceAll(core: DeckCore) {
  core.adoptToken++
  cancelIncoming(core)
  for (const v of [...core.outgoing]) release(core, v)
  if (core.current) stopRun(core, core.current)
}

/** Puts the decoded next item on the clock at its handover time (rescheduling what was there). */
export function scheduleNext(core: DeckCore) {
  catchUp(core)
  cancelIncoming(core)
  const next = core.ahead.next
  const cur = core.current
  const buffer = core.ahead.bufferFor(next?.url)
  if (!core.playing || !cur?.run || !next || !buffer) return core.armWake()
  const ctx = core.graph.ctx
  const duration = durationOf(core, cur)
  if (duration <= 0) return
  if (!cur.buffer) estimateStreamStart(core, cur)
  const crossfade = cur.buffer ? core.crossfade : Math.max(core.crossfade, STREAM_OVERLAP_S)
  const plan = transitionPlan(ctx.currentTime, clockOf(cur, duration), buffer.duration, crossfade, LEAD_S)
  if (!plan) return core.armWake()
  const end = cur.startAt + duration
  const at = onGrid(plan.at, ctx.sampleRate)
  const fade = Math.max(0, end - at)
  const voice = createVoice(next.url, next.label, buffer, next.gainDb)
  const run = startRun(core, voice, at, 0, fade > 0 ? 0 : 1)
  if (fade > 0) {
    run.fade.gain.setValueCurveAtTime(fadeCurve('in', CURVE_POINTS), at, fade)
    // Whatever the current run had scheduled before `at` (a switch's ramp) stays.
    cur.run.fade.gain.cancelScheduledValues(at)
    cur.run.fade.gain.setValueCurveAtTime(fadeCurve('out', CURVE_POINTS), at, fade)
  }
  core.incoming = { voice, at, fade }
  core.armWake()
}

/** Applies what the clock has passed since the last look: a started next item, an ended current. */
export function catchUp(core: DeckCore) {
  const ctx = core.graph.ctxIfAny
  if (!core.playing || !ctx || !core.current) return
  const now = ctx.currentTime
  const inc = core.incoming
  if (inc && now >= inc.at) return handOver(core, inc.voice, inc.fade)
  const cur = core.current
  if (!inc && cur.buffer && now >= cur.startAt + cur.buffer.duration) {
    core.playing = false
    cur.offset = cur.buffer.duration
    cur.run = null
    core.reachedEnd()
  }
}

function handOver(core: DeckCore, to: Voice, fade: number) {
  const old = core.current!
  core.outgoing.add(old)
  if (!old.run) release(core, old)
  else if (!old.run.source) {
    // The element fades out under the next item; then it is paused (its own end may come later).
    setTimeout(() => core.outgoing.has(old) && release(core, old), (fade + 0.1) * 1000)
  }
  // A decoded item finishes by itself (the end of its buffer), fading if there is a crossfade.
  core.current = to
  core.incoming = null
  core.ahead.consumed()
  core.advanced(to)
}
