/**
 * The deck machine's effects on the audio (deck-machine.ts decides, these carry out): loading an
 * item (decoded if a decode of it has finished, else streamed), starting and pausing it, seeking,
 * keeping the item the deck moved on to, unloading. Each reports back to the machine when the
 * audio has done it (loaded, started, or failed in words).
 */
import { unlockAudio } from './audio-context.ts'
import { DeckError, REASON } from './deck-decode.ts'
import { startFrom } from './deck-timeline.ts'
import { catchUp, estimateStreamStart, scheduleNext, silenceAll, cancelIncoming } from './deck-handover.ts'
import { itemGainOf, release, setVoiceGain, startRun } from './deck-voices.ts'
import { clockToCheck } from './deck-clock-check.ts'
import { START_LEAD_S, createVoice, durationOf, type DeckCore } from './deck-core.ts'
import type { DeckTicker } from './deck-ticker.ts'
import type { DeckInput, DeckPhase, LoadRequest } from './deck-machine.ts'

/** The deck as its effects see it. */
export interface DeckControl extends DeckCore {
  readonly ticker: DeckTicker
  readonly position: number
  /** The label of the item held (for messages). */
  readonly label: string
  emitTime(): void
  report(input: DeckInput): void
  /** The gain the store wants for `item` now (it may have changed while it loaded). */
  gainDbOf(item: LoadRequest): number
  /** Whether the machine still holds request `seq` in `phase` (a newer request supersedes it). */
  holds(seq: number, phase: DeckPhase): boolean
  /** Media-element stand-in notices around a seek. */
  seeking(start: boolean): void
}

/** Stops what plays and loads `item`; resolves once it is loaded or superseded, rejects DeckError. */
export async function loadItem(deck: DeckControl, item: LoadRequest): Promise<void> {
  const wasPlaying = deck.playing
  const previous = deck.current
  deck.playing = false
  deck.ticker.stop()
  silenceAll(deck)
  if (previous) release(deck, previous)
  deck.current = null
  if (wasPlaying) deck.emit({ type: 'paused' })
  deck.emitTime()
  // Only a buffer already decoded: one still downloading (a queue of one preloads its own song) would
  // hold the start back until the whole file has arrived, so that item streams instead.
  const decoded = previous?.url === item.url && previous.buffer ? previous.buffer : deck.ahead.decoded(item.url)
  if (!decoded) deck.ahead.dropPending(item.url)
  const still = () => deck.holds(item.seq, 'loading')
  deck.loading = true
  try {
    if (decoded) {
      deck.current = createVoice(item.url, item.label, decoded, deck.gainDbOf(item))
      deck.emitTime()
    } else {
      if (!(await deck.stream.open(item.url, item.label, still))) return
      deck.current = createVoice(item.url, item.label, null, deck.gainDbOf(item))
    }
  } catch (err) {
    if (!still()) return
    deck.loading = false
    deck.ahead.dropPending(item.url)
    const message = err instanceof DeckError ? err.message : `Could not play "${item.label}": ${REASON.decode}.`
    deck.report({ type: 'loadFailed', seq: item.seq, message })
    throw err instanceof DeckError ? err : new DeckError(message)
  }
  deck.loading = false
  deck.ahead.kick()
  deck.report({ type: 'loaded', seq: item.seq })
}

/** The deck already moved on to this item at the end of the previous one: it keeps playing. */
export function claimItem(deck: DeckControl, item: LoadRequest) {
  const v = deck.current
  if (v) {
    v.label = item.label
    if (v.gainDb !== item.gainDb) setVoiceGain(v, item.gainDb)
  }
  deck.ahead.kick()
}

/** Starts the item held; resolves once it plays or a newer request superseded it, rejects DeckError. */
export async function startItem(deck: DeckControl, seq: number): Promise<void> {
  deck.graph.input()
  const ctx = await unlockAudio()
  // The first sound waits for the limiter (once per page), so no boosted peak goes out unlimited.
  await deck.graph.limiterReady
  if (!deck.holds(seq, 'starting')) return
  const blocked = `Could not play "${deck.label}": the browser blocked playback; press play again.`
  const fail = (message: string) => {
    deck.report({ type: 'startFailed', message })
    throw new DeckError(message)
  }
  if (ctx.state !== 'running') return fail(blocked)
  const v = deck.current
  if (!v || deck.playing) return
  if (!v.buffer) {
    deck.stream.route(ctx, v, itemGainOf(deck, v))
    try {
      await deck.stream.element.play()
    } catch (err) {
      // AbortError means a newer load or a pause superseded this play: not a failure.
      if (err instanceof DOMException && err.name === 'AbortError') return deck.report({ type: 'startFailed', message: null })
      const message = err instanceof DOMException && err.name === 'NotAllowedError' ? blocked : deck.stream.errorMessage(deck.label)
      console.error('[player]', message, err)
      return fail(message)
    }
    if (!deck.holds(seq, 'starting') || deck.current !== v) return
    estimateStreamStart(deck, v)
  } else {
    if (v.offset >= v.buffer.duration) v.offset = 0
    const { when, offset } = startFrom(ctx.currentTime, v.offset, START_LEAD_S, ctx.sampleRate)
    startRun(deck, v, when, offset)
    clockToCheck(v, when)
  }
  deck.playing = true
  deck.ticker.start()
  scheduleNext(deck)
  deck.report({ type: 'started' })
  deck.emit({ type: 'playing' })
  deck.emitTime()
}

export function pauseItem(deck: DeckControl) {
  catchUp(deck)
  if (!deck.playing) {
    // A start still waiting for the element must not start it after this.
    if (deck.current && !deck.current.buffer) deck.stream.element.pause()
    return
  }
  const v = deck.current!
  v.offset = deck.position
  deck.playing = false
  deck.ticker.stop()
  // A crossfade in progress is abandoned: the item that was fading in resumes alone.
  silenceAll(deck)
  deck.emit({ type: 'paused' })
  deck.emitTime()
}

export function seekItem(deck: DeckControl, seconds: number) {
  catchUp(deck)
  const v = deck.current
  const ctx = deck.graph.ctxIfAny
  if (!v) return
  const to = Math.min(Math.max(0, seconds), durationOf(deck, v) || Infinity)
  deck.seeking(true)
  if (!v.buffer) {
    // A seek during a crossfade ends it; the handover is planned again from the new place.
    deck.adoptToken++
    cancelIncoming(deck)
    for (const o of [...deck.outgoing]) release(deck, o)
    deck.stream.element.currentTime = to
    if (deck.playing) scheduleNext(deck)
  } else if (deck.playing && ctx) {
    // A seek during a crossfade ends it: the outgoing item stops, the current one jumps.
    silenceAll(deck)
    const { when, offset } = startFrom(ctx.currentTime, to, START_LEAD_S, ctx.sampleRate)
    startRun(deck, v, when, offset)
    clockToCheck(v, when)
    scheduleNext(deck)
  } else v.offset = to
  deck.emitTime()
  deck.seeking(false)
}

/** Stops everything and lets the item, the one decoded ahead and the element's file go. */
export function unloadAll(deck: DeckControl) {
  const wasPlaying = deck.playing
  deck.playing = false
  deck.loading = false
  deck.ticker.stop()
  silenceAll(deck)
  if (deck.current) release(deck, deck.current)
  deck.current = null
  deck.ahead.clear()
  deck.stream.close()
  if (wasPlaying) deck.emit({ type: 'paused' })
  deck.emitTime()
}

/** A handover not yet begun moves to the new crossfade; one already fading keeps its course. */
export function changeCrossfade(deck: DeckControl, seconds: number) {
  if (seconds === deck.crossfade) return
  deck.crossfade = seconds
  const ctx = deck.graph.ctxIfAny
  if (deck.incoming && ctx && ctx.currentTime < deck.incoming.at) scheduleNext(deck)
}
