/**
 * The streamed item: an item the user starts plays through one media element (a
 * MediaElementAudioSourceNode), so playback begins before its file has downloaded. One element, so
 * one streamed item at a time. Its time is known only as well as the element reports it.
 */
import type { IGainNode, IMediaElementAudioSourceNode } from 'standardized-audio-context'
import { resolveAudioUrl } from '../lib/user-audio-store.ts'
import { MEDIA_ERRORS, resolveFailure } from './deck-decode.ts'
import type { Ctx, Run, Voice } from './deck-core.ts'

/** What the deck hears from the element. */
export interface StreamEvents {
  durationchange(): void
  /** More of the file arrived (the decode ahead may start). */
  progress(): void
  /** A stall: the element's frames moved against the clock. */
  waiting(): void
  ended(): void
  error(): void
}

export class DeckStream {
  readonly element: HTMLAudioElement
  private source: IMediaElementAudioSourceNode<Ctx> | null = null
  /** The gain the element plays through (its run's fade). */
  fade: IGainNode<Ctx> | null = null
  private releaseUrl: () => void = () => {}

  constructor(on: StreamEvents) {
    const el = new Audio()
    el.preload = 'auto'
    this.element = el
    el.addEventListener('durationchange', () => on.durationchange())
    el.addEventListener('progress', () => on.progress())
    el.addEventListener('canplaythrough', () => on.progress())
    el.addEventListener('waiting', () => on.waiting())
    el.addEventListener('ended', () => on.ended())
    el.addEventListener('error', () => el.getAttribute('src') && on.error())
  }

  get duration(): number {
    const d = this.element.duration
    return Number.isFinite(d) ? d : 0
  }

  get currentTime(): number {
    return this.element.currentTime
  }

  /** Whether the element has been routed into the graph yet. */
  get routed(): boolean {
    return this.source !== null
  }

  /** Opens `url` on the element; false when a newer load superseded it meanwhile (`stillWanted`). */
  async open(url: string, label: string, stillWanted: () => boolean): Promise<boolean> {
    let resolved
    try {
      resolved = await resolveAudioUrl(url)
    } catch (err) {
      throw resolveFailure(label, err)
    }
    if (!stillWanted()) {
      resolved.release()
      return false
    }
    this.releaseUrl()
    this.releaseUrl = resolved.release
    this.element.src = resolved.url
    this.element.load()
    return true
  }

  /** Routes the element into streamed item `v`'s gain, at full level. */
  route(ctx: Ctx, v: Voice, into: IGainNode<Ctx>): Run {
    if (!this.source) {
      this.source = ctx.createMediaElementSource(this.element)
      this.fade = ctx.createGain()
      this.source.connect(this.fade)
    }
    const fade = this.fade!
    fade.disconnect()
    fade.connect(into)
    fade.gain.cancelScheduledValues(0)
    fade.gain.value = 1
    v.run = { source: null, fade }
    return v.run
  }

  /** True once the item has all its bytes (a decode ahead would compete for the network). */
  downloaded(): boolean {
    const el = this.element
    const d = el.duration
    return Number.isFinite(d) && el.buffered.length > 0 && el.buffered.end(el.buffered.length - 1) >= d - 0.05
  }

  /** One wording per failure, whether the element's error event or a rejected play() reports it. */
  errorMessage(label: string): string {
    const reason = MEDIA_ERRORS[this.element.error?.code ?? 4] ?? 'it could not be decoded'
    return `Could not play "${label}": ${reason}.`
  }

  close() {
    this.element.pause()
    this.element.removeAttribute('src')
    this.element.load()
    this.releaseUrl()
    this.releaseUrl = () => {}
  }
}
