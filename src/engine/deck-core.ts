/**
 * What the player deck's audio parts share: the item voices, the handover in flight, the timing
 * constants, and the DeckCore record each part (deck-handover.ts, deck-switch.ts, deck-clock-check.ts,
 * deck-ahead.ts, deck-ticker.ts) reads and moves on. The Deck (player-deck.ts) owns it.
 */
import type { IAudioBuffer, IAudioBufferSourceNode, IAudioContext, IGainNode } from 'standardized-audio-context'
import type { DeckEvent } from './deck-api.ts'
import type { DeckGraph } from './deck-graph.ts'
import type { DeckStream } from './deck-stream.ts'
import type { DeckAhead } from './deck-ahead.ts'
import type { ClockItem } from './deck-timeline.ts'

export type Ctx = IAudioContext

/** Handovers are scheduled this far ahead, so the audio thread has them before they are due. */
export const LEAD_S = 0.03
/**
 * A start the user asked for (Play, Next, a seek) is due now: any lead, even 1.5 ms, cost a whole
 * device period (~10 ms) before the sound. The audio thread may reach it a render quantum or more
 * later, so the item's clock is then checked by listening (deck-clock-check.ts) before its handover
 * relies on it; handovers themselves keep LEAD_S and are exact.
 */
export const START_LEAD_S = 0
/** How far a streamed item's element clock may be off. */
export const STREAM_RADIUS_S = 0.1
/** Stopping ramps the item down with this time constant first (no click). */
export const DECLICK_S = 0.004
/**
 * A decoded item after an item that stayed streamed overlaps it this long at least: the element's
 * clock was 0–16 ms off in the tests, and once over 40 ms on a loaded machine.
 */
export const STREAM_OVERLAP_S = 0.06
export const TIME_EVENT_MS = 250
export const CURVE_POINTS = 256

/** One start of an item: a buffer source (null for the media element) and the fade gain it plays through. */
export interface Run {
  source: IAudioBufferSourceNode<Ctx> | null
  fade: IGainNode<Ctx>
}

/** Attempts at something that may fail for now (a capture that cannot be matched): how many, and the next one's earliest time. */
export interface Retries {
  tries: number
  notBefore: number
}

/** Whether an attempt may start at `now`; if so it is counted and the next one held back `retryS`. */
export function takeAttempt(r: Retries, max: number, retryS: number, now: number): boolean {
  if (r.tries >= max || now < r.notBefore) return false
  r.tries++
  r.notBefore = now + retryS
  return true
}

/** An item on the deck: streamed (buffer null) or decoded. */
export interface Voice {
  url: string
  label: string
  /** Null while the item is streamed through the media element. */
  buffer: IAudioBuffer | null
  itemGain: IGainNode<Ctx> | null
  gainDb: number
  /** Context time of offset 0 while playing (estimated from the element's time when streamed). */
  startAt: number
  /** Where it is while not playing (buffer items). */
  offset: number
  run: Run | null
  /** A streamed item's decoded copy, once decoded, for the switch to it; and the attempts so far. */
  adoption: Retries & { buffer: IAudioBuffer | null }
  /** Whether startAt is known to the frame (false after a start due now, until checked). */
  clock: Retries & { sure: boolean }
}

export function createVoice(url: string, label: string, buffer: IAudioBuffer | null, gainDb = 0): Voice {
  return {
    url,
    label,
    buffer,
    itemGain: null,
    gainDb,
    startAt: 0,
    offset: 0,
    run: null,
    adoption: { buffer: null, tries: 0, notBefore: 0 },
    clock: { sure: true, tries: 0, notBefore: 0 },
  }
}

/** The next item started on the clock: from `at`, overlapping the current one `fade` seconds. */
export interface Incoming {
  voice: Voice
  at: number
  fade: number
}

export interface DeckCore {
  readonly graph: DeckGraph
  readonly stream: DeckStream
  readonly ahead: DeckAhead
  current: Voice | null
  incoming: Incoming | null
  /** Items fading or ringing out after a handover. */
  readonly outgoing: Set<Voice>
  playing: boolean
  crossfade: number
  /** Moves on whenever a streamed item's timing may change under a switch in flight (seek, pause, load). */
  adoptToken: number
  /** Whether an item is being loaded (the decode ahead waits for it). */
  loading: boolean
  emit(e: DeckEvent): void
  /** The audio moved on to the next item by itself. */
  advanced(to: Voice): void
  /** The current item played to its end with nothing after it. */
  reachedEnd(): void
  /** Re-arms the timer for the next instant something happens. */
  armWake(): void
}

export const durationOf = (core: DeckCore, v: Voice): number => (v.buffer ? v.buffer.duration : core.stream.duration)

export const clockOf = (v: Voice, duration: number): ClockItem => ({ startAt: v.startAt, duration })
