/**
 * The item to follow the current one, decoded ahead into an AudioBuffer while the current one
 * plays (at most one; deck-timeline.ts's Preloader drops a stale decode), so the handover
 * (deck-handover.ts) can start it on the context clock.
 */
import type { IAudioBuffer } from 'standardized-audio-context'
import { decodeItem } from './deck-decode.ts'
import { Preloader } from './deck-timeline.ts'
import { dbToGain } from './deck-gain.ts'
import { scheduleNext, cancelIncoming, catchUp } from './deck-handover.ts'
import type { DeckItem } from './deck-machine.ts'
import type { DeckCore } from './deck-core.ts'

export class DeckAhead {
  next: DeckItem | null = null
  /** The next item's decoded buffer, once decoded. */
  nextBuffer: { url: string; buffer: IAudioBuffer } | null = null
  private readonly preloader: Preloader<IAudioBuffer>

  constructor(private readonly core: () => DeckCore) {
    this.preloader = new Preloader((url) => decodeItem(this.core().graph.ctx, url, this.next?.label ?? url))
  }

  bufferFor(url: string | undefined): IAudioBuffer | null {
    return url !== undefined && this.nextBuffer?.url === url ? this.nextBuffer.buffer : null
  }

  /** A decode of `url` already finished, for a load of that item (never one still downloading). */
  decoded(url: string): IAudioBuffer | null {
    return this.bufferFor(url) ?? this.preloader.ready(url)
  }

  /** A decode of `url` done or under way, lent to the streamed item's switch to its decoded copy. */
  lend(url: string): Promise<IAudioBuffer> | IAudioBuffer | null {
    return this.bufferFor(url) ?? this.preloader.peek(url)
  }

  /** A load of `url` that found nothing decoded does not wait for the decode under way. */
  dropPending(url: string) {
    if (this.preloader.key === url) this.preloader.clear()
  }

  /** The item to follow the current one (null: none). */
  set(item: DeckItem | null) {
    const core = this.core()
    catchUp(core)
    const same = item !== null && this.next?.url === item.url
    this.next = item
    if (item === null) {
      this.nextBuffer = null
      this.preloader.clear()
      cancelIncoming(core)
      core.armWake()
      return
    }
    const inc = core.incoming
    if (same && inc?.voice.url === item.url) {
      if (inc.voice.itemGain) inc.voice.itemGain.gain.value = dbToGain(item.gainDb)
      inc.voice.gainDb = item.gainDb
      inc.voice.label = item.label
      return
    }
    if (!same) {
      this.nextBuffer = null
      cancelIncoming(core)
    }
    this.kick()
  }

  /** The next item took over: what follows it is for the store to say. */
  consumed() {
    this.next = null
    this.nextBuffer = null
    this.preloader.clear()
  }

  /** Starts decoding the next item, once the current one is loaded (and, if streamed, downloaded). */
  kick() {
    const core = this.core()
    const next = this.next
    const cur = core.current
    // Nothing to follow yet: the load asks again once its item is there (and streaming).
    if (!next || core.loading || !cur) return
    if (this.nextBuffer?.url === next.url) return scheduleNext(core)
    if (cur.url === next.url && cur.buffer) {
      this.nextBuffer = { url: next.url, buffer: cur.buffer }
      return scheduleNext(core)
    }
    // Already decoding it: its completion schedules it.
    if (this.preloader.key === next.url) return
    if (!cur.buffer && !core.stream.downloaded()) return
    const promise = this.preloader.want(next.url)
    if (!promise) return
    void promise.then(
      (buffer) => {
        if (!this.preloader.isCurrent(next.url, promise) || this.next?.url !== next.url) return
        this.nextBuffer = { url: next.url, buffer }
        scheduleNext(this.core())
      },
      () => {
        // Reported when the store loads that item; a retry decodes it again.
        if (this.preloader.isCurrent(next.url, promise)) this.preloader.clear()
      },
    )
  }

  clear() {
    this.consumed()
  }
}
