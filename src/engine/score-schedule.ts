/**
 * Runs a score's offline render with its notes triggered a little ahead of the render instead of
 * all before it. Every Tone.js note creates native source nodes when it is triggered, and Chromium
 * processes a connected source node in every render quantum from its creation, started or not: a
 * piece's few thousand notes made up front cost far more than their sound (400 idle oscillators
 * cost ~40x a bare 10 s render, 1600 ~700x). Made 1–1.5 s ahead, only the notes near the render
 * exist at a time.
 *
 *   renderAhead(Tone, context, native, triggers, { step, onStep? }) → Promise<AudioBuffer>
 *     triggers: lists of note triggers, each in the order its voices must receive them. The render
 *     is suspended every `step` seconds; at each suspension the triggers due within 3 steps are
 *     made and Tone's clock runs up to 2 steps ahead; onStep(seconds) runs there too and returns
 *     false to leave the render suspended (cancelled).
 *
 * Tone's own OfflineContext.render() runs its clock (the "tick"s that fire its timeouts, which stop
 * each note's source nodes) over the whole piece before the native render starts. Here the same
 * ticks run in the same order at the same clock times, in slices ahead of the render, so every
 * voice receives the same calls with the same times and the render is the same, only cheaper.
 */
type ToneModule = typeof import('tone')
type ToneContext = import('tone').OfflineContext

export interface Trigger {
  /** When the note starts on the context's timeline (seconds). */
  at: number
  fire: () => void
}

/** The parts of Tone's OfflineContext its render() uses: its clock, its tick, its worklets' load. */
interface ToneClock {
  _currentTime: number
  emit(event: 'tick'): void
  workletsAreReady(): Promise<void>
}

/** Each list's triggers with the earliest start of the rest of the list: made in list order. */
class TriggerQueue {
  private readonly lists: { triggers: Trigger[]; due: Float64Array; next: number }[]

  constructor(lists: Trigger[][]) {
    this.lists = lists.map((triggers) => {
      // A trigger is due when any trigger after it is: each voice gets its calls in order.
      const due = new Float64Array(triggers.length)
      let earliest = Infinity
      for (let i = triggers.length - 1; i >= 0; i--) due[i] = earliest = Math.min(earliest, triggers[i]!.at)
      return { triggers, due, next: 0 }
    })
  }

  /** Makes every trigger due before `horizon` (seconds). */
  fireBefore(horizon: number): void {
    for (const list of this.lists)
      while (list.next < list.triggers.length && list.due[list.next]! < horizon) list.triggers[list.next++]!.fire()
  }
}

export async function renderAhead(
  Tone: ToneModule,
  context: ToneContext,
  native: OfflineAudioContext,
  triggers: Trigger[][],
  options: { step: number; onStep?: (seconds: number) => boolean },
): Promise<AudioBuffer> {
  const { step, onStep } = options
  const clock = context as unknown as ToneClock
  const duration = native.length / native.sampleRate
  const tickSeconds = 128 / native.sampleRate
  /** Tone's render clock (OfflineContext._renderClock), from where it is up to `limit`. */
  const tickUntil = (limit: number) => {
    while (duration - clock._currentTime >= 0 && clock._currentTime < limit) {
      const previous = Tone.getContext()
      Tone.setContext(context)
      clock.emit('tick')
      Tone.setContext(previous)
      clock._currentTime += tickSeconds
    }
  }
  const queue = new TriggerQueue(triggers)
  /** At the render's time `now`: the notes of the next 3 steps, the clock 2 steps ahead. */
  const advance = (now: number) => {
    queue.fireBefore(now + 3 * step)
    tickUntil(now + 2 * step >= duration ? Infinity : now + 2 * step)
  }
  await clock.workletsAreReady()
  advance(0)
  // A suspension must fall on a quantum before the last frame.
  for (let t = step; t < duration - tickSeconds; t += step) {
    const at = t
    void native.suspend(at).then(() => {
      if (onStep && !onStep(at)) return // left suspended: the render never finishes and is collected
      advance(at)
      void native.resume()
    })
  }
  return native.startRendering()
}
