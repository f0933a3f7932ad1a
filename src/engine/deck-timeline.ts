/**
 * The player deck's timing rules as pure functions (no audio; unit-tested in Node), all in seconds on
 * the audio context's clock:
 *
 *   clampCrossfade(s)                         0..MAX_CROSSFADE_S, default 0 for anything unusable
 *   fadeInGain(f), fadeOutGain(f)             equal-power gains (sin, cos) at a fraction 0..1 of the fade
 *   fadeCurve('in' | 'out', points)           the same as an AudioParam.setValueCurveAtTime curve
 *   positionAt(now, item)                     where in its item the playhead is (clamped to 0..duration)
 *   startFrom(now, offset, lead, sampleRate)  the item's anchor when playback (re)starts at an offset
 *   transitionPlan(now, current, nextDuration, crossfade, lead)
 *                                             when the next item starts and how long the two overlap
 *   Preloader<T>                              at most one item decoded ahead, with stale results ignored
 *
 * An item playing on the clock is anchored by `startAt`: the context time at which its offset 0 plays
 * (in the past once it is playing, possibly a virtual instant before a seek). Its end is startAt + duration.
 * Anchors sit on the sample grid, so the next item's start lands on exactly the frame after the last one.
 */

export const MAX_CROSSFADE_S = 12
export const DEFAULT_CROSSFADE_S = 0

export function clampCrossfade(seconds: unknown): number {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return DEFAULT_CROSSFADE_S
  return Math.min(MAX_CROSSFADE_S, Math.max(0, seconds))
}

const unit = (f: number) => Math.min(1, Math.max(0, Number.isFinite(f) ? f : 0))
/** sin² + cos² = 1: two uncorrelated signals keep their summed power through the fade. */
export const fadeInGain = (fraction: number): number => Math.sin((unit(fraction) * Math.PI) / 2)
export const fadeOutGain = (fraction: number): number => Math.cos((unit(fraction) * Math.PI) / 2)

/** The gain over the fade, sampled at `points` evenly spaced instants including both ends. */
export function fadeCurve(direction: 'in' | 'out', points = 256): Float32Array<ArrayBuffer> {
  const curve = new Float32Array(Math.max(2, points))
  const gain = direction === 'in' ? fadeInGain : fadeOutGain
  for (let i = 0; i < curve.length; i++) curve[i] = gain(i / (curve.length - 1))
  return curve
}

export interface ClockItem {
  /** Context time at which offset 0 of the item plays. */
  startAt: number
  /** Seconds of audio in the item. */
  duration: number
}

export const positionAt = (now: number, item: ClockItem): number => Math.min(item.duration, Math.max(0, now - item.startAt))

/** Rounds a context time to the nearest sample frame. */
export const onGrid = (t: number, sampleRate: number): number => Math.round(t * sampleRate) / sampleRate

/**
 * The anchor for playing from `offset` a little after now (`lead` gives the graph time to receive the
 * start before it is due). Offset and lead are both snapped to the grid, so the anchor is on it too.
 */
export function startFrom(
  now: number,
  offset: number,
  lead: number,
  sampleRate: number,
): { when: number; offset: number; startAt: number } {
  const when = onGrid(now + lead, sampleRate)
  const at = onGrid(Math.max(0, offset), sampleRate)
  return { when, offset: at, startAt: when - at }
}

export interface TransitionPlan {
  /** Context time the next item starts (offset 0). */
  at: number
  /** Seconds the two items overlap; 0 = the next starts on the frame after the current's last. */
  fade: number
}

/**
 * When the next item takes over. With crossfade 0 it starts exactly at the current item's end
 * (gapless). With a crossfade it starts `fade` seconds before that end, and `fade` is at most half
 * of either item, so a short song never fades across its whole length. When the playhead is already
 * past the start of the fade (a seek near the end), the next starts after `lead` and the overlap is
 * what remains of the current item. Null when the current item has already ended.
 */
export function transitionPlan(
  now: number,
  current: ClockItem,
  nextDuration: number,
  crossfade: number,
  lead: number,
): TransitionPlan | null {
  const end = current.startAt + current.duration
  const earliest = now + lead
  if (end < earliest) return null
  const fade = Math.min(clampCrossfade(crossfade), current.duration / 2, Math.max(0, nextDuration) / 2)
  const at = end - fade
  if (at >= earliest) return { at, fade }
  return { at: earliest, fade: end - earliest }
}

/** One decode in flight or done, for one key (the next item's address). */
interface Slot<T> {
  key: string
  promise: Promise<T>
  /** Set once the decode has finished. */
  value?: T
}

/**
 * At most one item decoded ahead. `want(key)` starts decoding it (or keeps the decode already under
 * way for the same key); asking for another key drops the old one, and `isCurrent(key, promise)`
 * tells whether a finished decode is still the one wanted, so a skip made while the old one was
 * decoding never lets it be scheduled. `peek(key)` lends the decode to a load of that same item.
 */
export class Preloader<T> {
  private slot: Slot<T> | null = null

  constructor(private readonly decode: (key: string) => Promise<T>) {}

  get key(): string | null {
    return this.slot?.key ?? null
  }

  want(key: string | null): Promise<T> | null {
    if (key === null) {
      this.slot = null
      return null
    }
    if (this.slot?.key === key) return this.slot.promise
    const promise = this.decode(key)
    const slot: Slot<T> = { key, promise }
    // A failed decode ahead is reported when (and if) that item is loaded, not now.
    promise.then(
      (value) => void (slot.value = value),
      () => {},
    )
    this.slot = slot
    return promise
  }

  /** True when `promise` is the decode still wanted for `key`. */
  isCurrent(key: string, promise: Promise<T>): boolean {
    return this.slot?.key === key && this.slot.promise === promise
  }

  /** The decode for `key` if one is wanted (it stays preloaded), or null. */
  peek(key: string): Promise<T> | null {
    return this.slot?.key === key ? this.slot.promise : null
  }

  /**
   * The decoded value for `key` once its decode has finished, else null: an item the user starts
   * plays at once (streamed) rather than after a whole download still under way.
   */
  ready(key: string): T | null {
    return this.slot?.key === key && this.slot.value !== undefined ? this.slot.value : null
  }

  clear(): void {
    this.slot = null
  }
}
