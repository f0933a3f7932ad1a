/**
 * Starting and stopping the deck's item voices. Graph per item: source (buffer, or the media
 * element) → fade (crossfade curve) → item gain (gainDb) → the deck graph (deck-graph.ts).
 */
import type { IGainNode } from 'standardized-audio-context'
import { dbToGain } from './deck-gain.ts'
import { DECLICK_S, type Ctx, type DeckCore, type Run, type Voice } from './deck-core.ts'

export function itemGainOf(core: DeckCore, v: Voice): IGainNode<Ctx> {
  if (!v.itemGain) {
    v.itemGain = core.graph.ctx.createGain()
    v.itemGain.gain.value = dbToGain(v.gainDb)
    v.itemGain.connect(core.graph.input())
  }
  return v.itemGain
}

/** The item's own gain, smoothed (15 ms) while it plays. */
export function setVoiceGain(v: Voice, gainDb: number) {
  v.gainDb = Number.isFinite(gainDb) ? gainDb : 0
  if (v.itemGain) v.itemGain.gain.setTargetAtTime(dbToGain(v.gainDb), v.itemGain.context.currentTime, 0.015)
}

/** Starts buffer item `v` at context time `when` from `offset`; its fade gain starts at `gain`. */
export function startRun(core: DeckCore, v: Voice, when: number, offset: number, gain = 1): Run {
  const ctx = core.graph.ctx
  const source = ctx.createBufferSource()
  source.buffer = v.buffer
  const fade = ctx.createGain()
  fade.gain.value = gain
  source.connect(fade)
  fade.connect(itemGainOf(core, v))
  const run = { source, fade }
  source.onended = () => {
    source.disconnect()
    fade.disconnect()
    if (v.run === run) v.run = null
    if (core.outgoing.has(v) && !v.run) release(core, v)
  }
  source.start(when, offset)
  v.run = run
  v.startAt = when - offset
  return run
}

/** Stops `v` now (a few ms ramp, so no click). */
export function stopRun(core: DeckCore, v: Voice) {
  const run = v.run
  v.run = null
  const ctx = core.graph.ctxIfAny
  if (!run || !ctx) return
  const now = ctx.currentTime
  if (!run.source) {
    run.fade.gain.cancelScheduledValues(0)
    // The element may already stream the item loaded after this one.
    const elementTaken = core.current !== null && core.current !== v && core.current.buffer === null
    if (!elementTaken) core.stream.element.pause()
    return
  }
  run.fade.gain.cancelScheduledValues(now)
  run.fade.gain.setTargetAtTime(0, now, DECLICK_S)
  try {
    run.source.stop(now + 6 * DECLICK_S)
  } catch {
    // Never started or already stopped.
  }
}

export function release(core: DeckCore, v: Voice) {
  stopRun(core, v)
  core.outgoing.delete(v)
  const gain = v.itemGain
  v.itemGain = null
  if (gain) setTimeout(() => gain.disconnect(), 50)
}
