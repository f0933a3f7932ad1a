/**
 * The player's deck, on the app's audio context into the master bus (so effects, meters and visuals
 * see it). It follows a snapshot of what the player store wants (deck-machine.ts: the item, the one
 * to follow it, playing or paused, the latest seek, volume, crossfade) and reconciles the audio to
 * it; the pure machine decides, this class carries out its effects and reports back what the audio
 * did. An item the user starts is streamed (deck-stream.ts) so playback begins before the file has
 * downloaded, then switched to its decoded copy on the element's frame (deck-switch.ts). The next
 * item is decoded ahead (deck-ahead.ts) and started on the context clock at the current one's last
 * frame, or crossfaded (deck-handover.ts). A start due now is checked by listening
 * (deck-clock-check.ts). Same-origin only.
 *
 *   getPlayerDeck(): PlayerDeck
 *     follow(snapshot)                       what the store wants now (player-service.ts sends it)
 *     load(audioUrl, label, { gainDb }?): Promise<void>   resolves 'idb:<id>' too; rejects DeckError.
 *     preload(audioUrl | null, label, { gainDb }?); play(): Promise<void> (rejects DeckError)
 *     pause(); seek(seconds); setVolume(0..100); stop(); setCrossfade(seconds 0..12, 0 = gapless)
 *     setItemGainDb(dB); on(listener): () => void   'time' | 'ended' | 'error' | 'playing' | 'paused'
 * The calls are edits of the snapshot the deck follows (for callers without a store: tests, the
 * media-element stand-in). When the next item takes over, the deck emits 'ended' and 'playing'; the
 * store's next load of that item claims it, so it keeps playing. With no next item it stops at the
 * end and emits 'ended', as a media element does.
 */
import { DeckError } from './deck-decode.ts'
import { DeckMedia } from './deck-media.ts'
import { positionAt } from './deck-timeline.ts'
import { DeckGraph } from './deck-graph.ts'
import { DeckStream } from './deck-stream.ts'
import { DeckAhead } from './deck-ahead.ts'
import { DeckTicker } from './deck-ticker.ts'
import { catchUp, scheduleNext } from './deck-handover.ts'
import { setVoiceGain } from './deck-voices.ts'
import { changeCrossfade, claimItem, loadItem, pauseItem, seekItem, startItem, unloadAll, type DeckControl } from './deck-actions.ts'
import { withCrossfade, withItemGain, withLoad, withNext, withPlaying, withSeek, withStop, withVolume } from './deck-requests.ts'
import { clockOf, durationOf, type Incoming, type Voice } from './deck-core.ts'
import type { DeckEvent, DeckItemOptions, PlayerDeck } from './deck-api.ts'
import {
  initialDeckState,
  transition,
  type DeckEffect,
  type DeckInput,
  type DeckPhase,
  type DeckSnapshot,
  type DeckState,
  type LoadRequest,
} from './deck-machine.ts'

export { DeckError }
export { STREAM_OVERLAP_S } from './deck-core.ts'
export type { DeckEvent, DeckItemOptions, PlayerDeck } from './deck-api.ts'
export type { DeckSnapshot } from './deck-machine.ts'

class Deck implements PlayerDeck, DeckControl {
  readonly element: HTMLAudioElement
  private readonly media: DeckMedia
  readonly graph = new DeckGraph()
  readonly stream: DeckStream
  readonly ahead = new DeckAhead(() => this)
  readonly ticker = new DeckTicker(
    () => this,
    () => this.emitTime(),
  )
  current: Voice | null = null
  incoming: Incoming | null = null
  readonly outgoing = new Set<Voice>()
  playing = false
  crossfade = 0
  adoptToken = 0
  loading = false
  private state: DeckState = initialDeckState()
  private listeners = new Set<(e: DeckEvent) => void>()
  private effects: DeckEffect[] = []
  private running = false
  /** The load in flight (the calls' load() and play() wait for it) and the start in flight. */
  private loaded: Promise<void> = Promise.resolve()
  private starting: Promise<void> = Promise.resolve()

  constructor() {
    this.media = new DeckMedia(this)
    // wavesurfer.js drives any object with the media element's surface (its own WebAudioPlayer is one).
    this.element = this.media as unknown as HTMLAudioElement
    const streaming = () => this.current !== null && this.current.buffer === null
    this.stream = new DeckStream({
      durationchange: () => {
        if (!streaming()) return
        this.emitTime()
        if (this.playing) scheduleNext(this)
      },
      progress: () => this.ahead.kick(),
      waiting: () => void this.adoptToken++,
      ended: () => streaming() && this.streamEnded(),
      error: () => streaming() && this.emit({ type: 'error', message: this.stream.errorMessage(this.label) }),
    })
  }

  // ---- following the snapshot -------------------------------------------------------------------

  get desired(): DeckSnapshot {
    return this.state.desired
  }

  /** The machine's phase (for tests and the stand-in). */
  get phase(): DeckState['phase'] {
    return this.state.phase
  }

  follow(snapshot: DeckSnapshot) {
    if (!this.running) catchUp(this)
    this.dispatch({ type: 'follow', snapshot })
  }

  /** Moves the machine on at once; its effects run in order, after any still running. */
  private dispatch(input: DeckInput) {
    const step = transition(this.state, input)
    this.state = step.state
    this.effects.push(...step.effects)
    if (this.running) return
    this.running = true
    try {
      for (let e = this.effects.shift(); e; e = this.effects.shift()) this.run(e)
    } finally {
      this.running = false
    }
  }

  private run(e: DeckEffect) {
    switch (e.do) {
      case 'volume':
        return this.graph.setVolume(e.volume)
      case 'crossfade':
        return changeCrossfade(this, e.seconds)
      case 'load':
        this.loaded = loadItem(this, e.item)
        return void this.loaded.catch(() => {})
      case 'claim':
        return claimItem(this, e.item)
      case 'unload':
        return unloadAll(this)
      case 'itemGain':
        return this.current && setVoiceGain(this.current, e.gainDb)
      case 'next':
        return this.ahead.set(e.item)
      case 'seek':
        return seekItem(this, e.seconds)
      case 'start':
        this.starting = startItem(this, this.state.item?.seq ?? 0)
        return void this.starting.catch(() => {})
      case 'pause':
        return pauseItem(this)
      case 'error':
        return this.emit({ type: 'error', message: e.message })
    }
  }

  // ---- what the audio reports -------------------------------------------------------------------

  advanced(to: Voice) {
    this.dispatch({ type: 'handedOver', to: { url: to.url, label: to.label, gainDb: to.gainDb } })
    this.emit({ type: 'ended' })
    this.emit({ type: 'playing' })
    this.emitTime()
  }

  reachedEnd() {
    this.ticker.stop()
    this.emitTime()
    this.dispatch({ type: 'reachedEnd' })
    this.emit({ type: 'ended' })
  }

  armWake() {
    this.ticker.arm()
  }

  private streamEnded() {
    catchUp(this)
    if (this.current?.buffer !== null || !this.playing) return
    this.playing = false
    this.current.run = null
    this.reachedEnd()
  }

  emit(e: DeckEvent) {
    this.media.onDeckEvent(e)
    for (const l of this.listeners) l(e)
  }

  emitTime() {
    this.emit({ type: 'time', position: this.position, duration: this.duration })
  }

  get label(): string {
    return this.state.item?.label ?? ''
  }

  get position(): number {
    const v = this.current
    const ctx = this.graph.ctxIfAny
    if (!v) return 0
    if (!v.buffer) return this.stream.currentTime
    return this.playing && ctx ? positionAt(ctx.currentTime, clockOf(v, v.buffer.duration)) : v.offset
  }

  get duration(): number {
    return this.current ? durationOf(this, this.current) : 0
  }

  get isPlaying(): boolean {
    return this.playing
  }

  get hasItem(): boolean {
    return this.current !== null
  }

  get hasLimiter(): boolean {
    return this.graph.hasLimiter
  }

  /** The next item's decoded buffer, once decoded (tests wait on it). */
  get nextBuffer() {
    return this.ahead.nextBuffer
  }

  // ---- what the effects ask of the deck ------------------------------------------------------------

  report(input: DeckInput) {
    this.dispatch(input)
  }

  holds(seq: number, phase: DeckPhase): boolean {
    return this.state.item?.seq === seq && this.state.phase === phase
  }

  gainDbOf(item: LoadRequest): number {
    return this.state.item?.seq === item.seq ? this.state.item.gainDb : item.gainDb
  }

  seeking(start: boolean) {
    this.media.onSeek(start)
  }

  // ---- the calls: edits of the snapshot -------------------------------------------------------------

  async load(audioUrl: string, label: string, options: DeckItemOptions = {}): Promise<void> {
    this.follow(withLoad(this.state, audioUrl, label, options))
    await this.loaded
  }

  preload(audioUrl: string | null, label = '', options: DeckItemOptions = {}): void {
    this.follow(withNext(this.desired, audioUrl, label, options))
  }

  async play(): Promise<void> {
    // Played to its end: a play starts it again, as a media element's does.
    if (this.state.phase === 'ended') this.follow(withPlaying(this.desired, false))
    this.follow(withPlaying(this.desired, true))
    await this.loaded.catch(() => {})
    await this.starting
  }

  pause() {
    this.follow(withPlaying(this.desired, false))
  }

  stop() {
    this.follow(withStop(this.desired))
  }

  seek(seconds: number) {
    this.follow(withSeek(this.desired, seconds))
  }

  setVolume(volume: number) {
    this.follow(withVolume(this.desired, volume))
  }

  setCrossfade(seconds: number) {
    this.follow(withCrossfade(this.desired, seconds))
  }

  setItemGainDb(gainDb: number) {
    this.follow(withItemGain(this.desired, gainDb))
  }

  on(listener: (e: DeckEvent) => void) {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }
}

let deck: PlayerDeck | null = null

export function getPlayerDeck(): PlayerDeck {
  if (!deck) deck = new Deck()
  return deck
}
