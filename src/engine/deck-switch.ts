/**
 * A streamed item becomes a decoded one: once its file has downloaded the deck decodes it too,
 * finds the exact frame the element is playing (locate-playback.ts) and hands the item over to the
 * buffer there, seamlessly (a 10 ms crossfade of the same audio); from then on it is a decoded item
 * and hands over sample for sample. Where that cannot be done for sure (a held tone, silence, less
 * than a second left), it stays streamed and the next item overlaps it (deck-handover.ts).
 */
import type { IAudioBuffer } from 'standardized-audio-context'
import { decodeItem } from './deck-decode.ts'
import { locatePlayback } from './locate-playback.ts'
import { onGrid } from './deck-timeline.ts'
import { startRun } from './deck-voices.ts'
import { cancelIncoming, scheduleNext } from './deck-handover.ts'
import { LEAD_S, STREAM_RADIUS_S, durationOf, takeAttempt, type DeckCore, type Voice } from './deck-core.ts'

/** The switch of one item: the same audio on both sides, so short and linear. */
const SWAP_S = 0.01
/** Less than this left of a streamed item and it ends streamed (the overlap covers its end). */
const MIN_REMAINING_S = 1
/** Attempts per item to find the element's frame (an intro of silence fails), this far apart. */
const TRIES = 4
const RETRY_S = 2

let switching = false

/** Starts the switch of a streamed current item to its decoded copy, when it can be done now. */
export function maybeSwitchToDecoded(core: DeckCore) {
  const v = core.current
  const ctx = core.graph.ctxIfAny
  if (!v || v.buffer || !v.run || !core.playing || switching || !ctx || !core.stream.routed) return
  const now = ctx.currentTime
  if (!core.stream.downloaded() || durationOf(core, v) - core.stream.currentTime < MIN_REMAINING_S) return
  // A long crossfade may start well before the end; never switch under it.
  if (core.incoming && core.incoming.at - now < MIN_REMAINING_S) return
  if (takeAttempt(v.adoption, TRIES, RETRY_S, now)) void switchWhenFound(core, v, core.adoptToken)
}

async function switchWhenFound(core: DeckCore, v: Voice, token: number) {
  switching = true
  const ctx = core.graph.ctx
  const still = () => token === core.adoptToken && core.current === v && !v.buffer && v.run !== null && core.playing
  try {
    // A queue of one has the same song decoded ahead already: one download serves both.
    const buffer = (v.adoption.buffer ??= await (core.ahead.lend(v.url) ?? decodeItem(ctx, v.url, v.label)))
    if (!still()) return
    const estimate = ctx.currentTime - core.stream.currentTime
    const startAt = await locatePlayback(ctx, core.stream.fade!, buffer, estimate, STREAM_RADIUS_S)
    if (startAt === null || !still()) return
    switchToBuffer(core, v, buffer, startAt)
  } catch (err) {
    // It plays on streamed; the decoded item after it overlaps it as before.
    v.adoption.tries = TRIES
    console.warn('[player] a streamed item stays streamed:', err)
  } finally {
    switching = false
  }
}

/** From `LEAD_S` ahead, `v` plays from its buffer, on the frame the element would have played. */
function switchToBuffer(core: DeckCore, v: Voice, buffer: IAudioBuffer, startAt: number) {
  const ctx = core.graph.ctx
  const element = v.run!
  const at = onGrid(ctx.currentTime + LEAD_S, ctx.sampleRate)
  const offset = onGrid(at - startAt, ctx.sampleRate)
  if (offset < 0 || buffer.duration - offset < MIN_REMAINING_S / 2) return
  if (core.incoming && core.incoming.at <= at + SWAP_S) return
  cancelIncoming(core)
  v.buffer = buffer
  v.adoption.buffer = null
  const run = startRun(core, v, at, offset, 0)
  run.fade.gain.setValueAtTime(0, at)
  run.fade.gain.linearRampToValueAtTime(1, at + SWAP_S)
  element.fade.gain.cancelScheduledValues(0)
  element.fade.gain.setValueAtTime(1, at)
  element.fade.gain.linearRampToValueAtTime(0, at + SWAP_S)
  const ms = (at + SWAP_S - ctx.currentTime) * 1000 + 50
  // Unless the element streams a newer item by then.
  setTimeout(() => core.current?.buffer !== null && core.stream.element.pause(), ms)
  scheduleNext(core)
}
