/**
 * The player's deck, on the app's audio context into the master bus (so effects, meters and visuals
 * see it). An item the user starts is streamed through a media element (a MediaElementAudioSourceNode),
 * so playback begins before the file has downloaded. The NEXT queue item is fetched and decoded into
 * an AudioBuffer while the current one plays, and an AudioBufferSourceNode starts it on the context
 * clock at the current one's last frame (gapless), or `crossfade` seconds before it with equal-power
 * curves (deck-timeline.ts has the rules). Decoded items hand over to decoded items sample for sample.
 * A streamed item's time is known only as well as the media element reports it, so once its file has
 * downloaded the deck decodes it too, finds the exact frame the element is playing (locate-playback.ts)
 * and hands the item over to the buffer there, seamlessly (a 10 ms crossfade of the same audio); from
 * then on it is a decoded item. Where that cannot be done for sure (a held tone, silence, less than a
 * second left), the decoded item after a streamed one overlaps it by STREAM_OVERLAP_S (equal-power)
 * rather than risk a gap. Same-origin only.
 *
 *   getPlayerDeck(): PlayerDeck
 *     load(audioUrl, label, { gainDb }?): Promise<void>   resolves 'idb:<id>' too; rejects DeckError.
 *          Loading the item the deck has just advanced to on its own keeps it playing (no restart).
 *     preload(audioUrl | null, label, { gainDb }?)         the item to follow the current one
 *     play(): Promise<void>                  unlocks the audio context; rejects DeckError
 *     pause(); seek(seconds); setVolume(0..100); stop()
 *     setCrossfade(seconds 0..12)            0 = gapless
 *     setItemGainDb(dB)                      the current item's own gain (loudness normalisation)
 *     on(listener): () => void               'time' | 'ended' | 'error' | 'playing' | 'paused' events
 *
 * When the next item takes over, the deck emits 'ended' (the store then moves its queue on and loads
 * that item, which the deck recognises) and 'playing'. With no next item it stops at the end and
 * emits 'ended', as a media element does.
 *
 * Volume 0..100 maps to gain (v/100)² so equal slider steps sound roughly equally loud.
 * Graph per item: source (buffer, or the media element) → fade (crossfade curve) → item gain (gainDb)
 * → the true-peak limiter (−1 dBTP; true-peak-limiter.ts) → deck gain (volume) → bus.
 *
 * Beside it: deck-timeline.ts (when things start and end), deck-decode.ts (fetching, decoding and
 * the words for failures), deck-gain.ts (volume and dB curves), deck-media.ts (the media-element
 * stand-in wavesurfer.js drives).
 */
import type {
  IAudioBuffer,
  IAudioBufferSourceNode,
  IAudioContext,
  IGainNode,
  IMediaElementAudioSourceNode,
} from 'standardized-audio-context'
import { unlockAudio, getAudioContext } from './audio-context.ts'
import { getMasterBus } from './master-bus.ts'
import { createTruePeakLimiter, loadTruePeakLimiter } from './true-peak-limiter.ts'
import { resolveAudioUrl } from '../lib/user-audio-store.ts'
import { DeckError, MEDIA_ERRORS, REASON, decodeItem, resolveFailure } from './deck-decode.ts'
import { DeckMedia } from './deck-media.ts'
import { locatePlayback } from './locate-playback.ts'
import { dbToGain, volumeToGain } from './deck-gain.ts'
import { Preloader, clampCrossfade, type ClockItem, fadeCurve, onGrid, positionAt, startFrom, transitionPlan } from './deck-timeline.ts'

export { DeckError }

export type DeckEvent =
  | { type: 'time'; position: number; duration: number }
  | { type: 'ended' }
  | { type: 'playing' }
  | { type: 'paused' }
  | { type: 'error'; message: string }

/** Per-item options. gainDb: the item's own gain in dB (0 = as recorded). */
export interface DeckItemOptions {
  gainDb?: number
}

export interface PlayerDeck {
  load(audioUrl: string, label: string, options?: DeckItemOptions): Promise<void>
  preload(audioUrl: string | null, label?: string, options?: DeckItemOptions): void
  play(): Promise<void>
  pause(): void
  stop(): void
  seek(seconds: number): void
  setVolume(volume: number): void
  setCrossfade(seconds: number): void
  setItemGainDb(gainDb: number): void
  /** Whether a true-peak limiter (−1 dBTP) is in the path, so normalisation may boost past the peaks. */
  readonly hasLimiter: boolean
  on(listener: (e: DeckEvent) => void): () => void
  /**
   * A media-element stand-in that follows the deck (time, duration, play/pause/ended events; setting
   * currentTime seeks), for wavesurfer.js's `media` option, which accepts such a duck-typed element.
   */
  readonly element: HTMLAudioElement
}

/** Handovers are scheduled this far ahead, so the audio thread has them before they are due. */
const LEAD_S = 0.03
/**
 * A start the user asked for (Play, Next, a seek) is due now: any lead, even 1.5 ms, cost a whole
 * device period (~10 ms) before the sound. The audio thread may reach it a render quantum or more
 * later, so the item's clock is then checked by listening (checkClock) before its handover relies
 * on it; handovers themselves keep LEAD_S and are exact.
 */
const START_LEAD_S = 0
/** How late a start due now may sound, at most, for the check to find it. */
const CLOCK_RADIUS_S = 0.05
/** Checks of a started item's clock: attempts, their spacing, and the time left below which none starts. */
const CLOCK_TRIES = 3
const CLOCK_RETRY_S = 1
const CLOCK_MIN_REMAINING_S = 0.5
/** How far a streamed item's element clock may be off. */
const STREAM_RADIUS_S = 0.1
/** Stopping ramps the item down with this time constant first (no click). */
const DECLICK_S = 0.004
/**
 * A decoded item after an item that stayed streamed overlaps it this long at least (see the header):
 * the element's clock was 0–16 ms off in the tests, and once over 40 ms on a loaded machine.
 */
export const STREAM_OVERLAP_S = 0.06
/** The streamed-to-decoded switch of one item: the same audio on both sides, so short and linear. */
const ADOPT_SWAP_S = 0.01
/** Less than this left of a streamed item and it ends streamed (the overlap covers its end). */
const ADOPT_MIN_REMAINING_S = 1
/** Attempts per item to find the element's frame (an intro of silence fails), this far apart. */
const ADOPT_TRIES = 4
const ADOPT_RETRY_S = 2
const TIME_EVENT_MS = 250
const CURVE_POINTS = 256

type Ctx = IAudioContext

/** One start of an item: a buffer source (null for the media element) and the fade gain it plays through. */
interface Run {
  source: IAudioBufferSourceNode<Ctx> | null
  fade: IGainNode<Ctx>
}

interface Voice {
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

/** Attempts at something that may fail for now (a capture that cannot be matched): how many, and the next one's earliest time. */
interface Retries {
  tries: number
  notBefore: number
}

/** Whether an attempt may start at `now`; if so it is counted and the next one held back `retryS`. */
function takeAttempt(r: Retries, max: number, retryS: number, now: number): boolean {
  if (r.tries >= max || now < r.notBefore) return false
  r.tries++
  r.notBefore = now + retryS
  return true
}

interface Incoming {
  voice: Voice
  at: number
  fade: number
}

interface Next {
  url: string
  label: string
  gainDb: number
}

const clockOf = (v: Voice, duration: number): ClockItem => ({ startAt: v.startAt, duration })

class Deck implements PlayerDeck {
  readonly element: HTMLAudioElement
  private readonly media: DeckMedia
  /** Streams the items that were not decoded ahead. */
  private readonly streamer: HTMLAudioElement
  private streamSource: IMediaElementAudioSourceNode<Ctx> | null = null
  private streamFade: IGainNode<Ctx> | null = null
  private releaseStream: () => void = () => {}
  private listeners = new Set<(e: DeckEvent) => void>()
  private ctx: Ctx | null = null
  private output: IGainNode<Ctx> | null = null
  private items: IGainNode<Ctx> | null = null
  private limiterReady: Promise<void> | null = null
  private limited = true
  private volume = 80
  private crossfade = 0
  private playing = false
  private current: Voice | null = null
  private incoming: Incoming | null = null
  private outgoing = new Set<Voice>()
  /** The item the deck advanced to on its own, until the store's load of it claims it. */
  private claimable: Voice | null = null
  private next: Next | null = null
  private nextBuffer: { url: string; buffer: IAudioBuffer } | null = null
  /**
   * The decoded item a preload() has just replaced. When the user presses Next the store makes that
   * item current, asks for the one after it (preload) and only then loads it: it must still be here.
   */
  private spare: { url: string; buffer: IAudioBuffer } | null = null
  private readonly preloader = new Preloader<IAudioBuffer>((url) => decodeItem(this.context(), url, this.next?.label ?? url))
  private loading: Promise<void> | null = null
  private loadToken = 0
  private label = ''
  private ticker: ReturnType<typeof setInterval> | null = null
  private wake: ReturnType<typeof setTimeout> | null = null
  /** Moves on whenever a streamed item's timing may change under a switch in flight (seek, pause, load). */
  private adoptToken = 0
  private adopting = false
  private checkingClock = false

  constructor() {
    this.media = new DeckMedia(this)
    // wavesurfer.js drives any object with the media element's surface (its own WebAudioPlayer is one).
    this.element = this.media as unknown as HTMLAudioElement
    const el = new Audio()
    el.preload = 'auto'
    this.streamer = el
    const streaming = () => this.current !== null && this.current.buffer === null
    el.addEventListener('durationchange', () => {
      if (!streaming()) return
      this.emitTime()
      if (this.playing) this.scheduleNext()
    })
    el.addEventListener('progress', () => this.kickPreload())
    // A stall moves the element's frames against the clock: a match found before it is stale.
    el.addEventListener('waiting', () => this.adoptToken++)
    el.addEventListener('canplaythrough', () => this.kickPreload())
    el.addEventListener('ended', () => {
      if (!streaming()) return
      this.catchUp()
      if (this.current?.buffer !== null || !this.playing) return
      this.playing = false
      this.current.run = null
      this.stopTicker()
      this.emitTime()
      this.emit({ type: 'ended' })
    })
    el.addEventListener('error', () => {
      if (!el.getAttribute('src') || !streaming()) return
      this.fail(this.mediaErrorMessage())
    })
  }

  /** One wording per failure, whether the element's error event or a rejected play() reports it. */
  private mediaErrorMessage(): string {
    const reason = MEDIA_ERRORS[this.streamer.error?.code ?? 4] ?? 'it could not be decoded'
    return `Could not play "${this.label}": ${reason}.`
  }

  private context(): Ctx {
    return (this.ctx ??= getAudioContext())
  }

  /** Where the items meet: the limiter's input, then the volume (this.output), then the bus. */
  private ensureGraph(): IGainNode<Ctx> {
    if (this.items) return this.items
    const ctx = this.context()
    this.output = ctx.createGain()
    this.output.gain.value = volumeToGain(this.volume)
    this.output.connect(getMasterBus().input)
    this.items = ctx.createGain()
    this.items.connect(this.output)
    this.limiterReady = this.insertLimiter(ctx, this.items, this.output)
    return this.items
  }

  /** Puts the true-peak limiter between the items and the volume once its module has loaded. */
  private async insertLimiter(ctx: Ctx, items: IGainNode<Ctx>, output: IGainNode<Ctx>): Promise<void> {
    try {
      await loadTruePeakLimiter(ctx)
      const limiter = createTruePeakLimiter(ctx)
      limiter.connect(output)
      items.disconnect()
      items.connect(limiter)
    } catch (error) {
      // Normalisation then keeps every song's true peak under the ceiling by gain alone (a song
      // with little headroom plays below the target), as it did before the limiter.
      this.limited = false
      console.warn('[player] the true-peak limiter could not start; songs play unlimited', error)
    }
  }

  /** Whether the true-peak limiter is in the deck's path (false if its worklet could not load). */
  get hasLimiter(): boolean {
    return this.limited
  }

  private emit(e: DeckEvent) {
    this.media.onDeckEvent(e)
    for (const l of this.listeners) l(e)
  }

  private durationOf(v: Voice): number {
    if (v.buffer) return v.buffer.duration
    const d = this.streamer.duration
    return Number.isFinite(d) ? d : 0
  }

  get position(): number {
    const v = this.current
    if (!v) return 0
    if (!v.buffer) return this.streamer.currentTime
    return this.playing && this.ctx ? positionAt(this.ctx.currentTime, clockOf(v, v.buffer.duration)) : v.offset
  }

  get duration(): number {
    return this.current ? this.durationOf(this.current) : 0
  }

  get isPlaying(): boolean {
    return this.playing
  }

  get hasItem(): boolean {
    return this.current !== null
  }

  private emitTime() {
    this.emit({ type: 'time', position: this.position, duration: this.duration })
  }

  private fail(message: string) {
    this.emit({ type: 'error', message })
  }

  // ---- voices and runs ------------------------------------------------------------------------

  private voice(url: string, label: string, buffer: IAudioBuffer | null, gainDb = 0): Voice {
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

  private itemGainOf(v: Voice): IGainNode<Ctx> {
    if (!v.itemGain) {
      v.itemGain = this.context().createGain()
      v.itemGain.gain.value = dbToGain(v.gainDb)
      v.itemGain.connect(this.ensureGraph())
    }
    return v.itemGain
  }

  /** Starts buffer item `v` at context time `when` from `offset`; its fade gain starts at `gain`. */
  private startRun(v: Voice, when: number, offset: number, gain = 1): Run {
    const ctx = this.context()
    const source = ctx.createBufferSource()
    source.buffer = v.buffer
    const fade = ctx.createGain()
    fade.gain.value = gain
    source.connect(fade)
    fade.connect(this.itemGainOf(v))
    const run = { source, fade }
    source.onended = () => {
      source.disconnect()
      fade.disconnect()
      if (v.run === run) v.run = null
      if (this.outgoing.has(v) && !v.run) this.release(v)
    }
    source.start(when, offset)
    v.run = run
    v.startAt = when - offset
    return run
  }

  /** Routes the media element into streamed item `v` (one element, so one streamed item at a time). */
  private streamRun(v: Voice): Run {
    const ctx = this.context()
    if (!this.streamSource) {
      this.streamSource = ctx.createMediaElementSource(this.streamer)
      this.streamFade = ctx.createGain()
      this.streamSource.connect(this.streamFade)
    }
    const fade = this.streamFade!
    fade.disconnect()
    fade.connect(this.itemGainOf(v))
    fade.gain.cancelScheduledValues(0)
    fade.gain.value = 1
    v.run = { source: null, fade }
    return v.run
  }

  /** Where a streamed item's offset 0 falls on the context clock, as well as the element tells. */
  private estimateStreamStart(v: Voice) {
    if (this.ctx) v.startAt = this.ctx.currentTime - this.streamer.currentTime
  }

  /** Stops `v` now (a few ms ramp, so no click). */
  private stopRun(v: Voice) {
    const run = v.run
    v.run = null
    if (!run || !this.ctx) return
    const now = this.ctx.currentTime
    if (!run.source) {
      run.fade.gain.cancelScheduledValues(0)
      // The element may already stream the item loaded after this one.
      const elementTaken = this.current !== null && this.current !== v && this.current.buffer === null
      if (!elementTaken) this.streamer.pause()
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

  private release(v: Voice) {
    this.stopRun(v)
    this.outgoing.delete(v)
    const gain = v.itemGain
    v.itemGain = null
    if (gain) setTimeout(() => gain.disconnect(), 50)
  }

  private cancelIncoming() {
    const inc = this.incoming
    if (!inc) return
    this.incoming = null
    this.release(inc.voice)
    // The current item plays to its end at full gain again: only its fade-out goes (from inc.at
    // on), not what came before it (the ramp of a switch from the element to the buffer).
    const run = this.current?.run
    if (run && inc.fade > 0) run.fade.gain.cancelScheduledValues(inc.at)
  }

  private silenceAll() {
    this.adoptToken++
    this.cancelIncoming()
    for (const v of [...this.outgoing]) this.release(v)
    if (this.current) this.stopRun(this.current)
  }

  // ---- the clock: advancing to the next item, the end, time events ----------------------------

  /** Applies what the clock has passed since the last look: a started next item, an ended current. */
  private catchUp() {
    if (!this.playing || !this.ctx || !this.current) return
    const now = this.ctx.currentTime
    const inc = this.incoming
    if (inc && now >= inc.at) {
      const old = this.current
      this.outgoing.add(old)
      if (!old.run) this.release(old)
      else if (!old.run.source) {
        // The element fades out under the next item; then it is paused (its own end may come later).
        setTimeout(() => this.outgoing.has(old) && this.release(old), (inc.fade + 0.1) * 1000)
      }
      // A decoded item finishes by itself (the end of its buffer), fading if there is a crossfade.
      this.current = inc.voice
      this.incoming = null
      this.claimable = inc.voice
      this.next = null
      this.nextBuffer = null
      this.preloader.clear()
      this.emit({ type: 'ended' })
      this.emit({ type: 'playing' })
      this.emitTime()
      return
    }
    const cur = this.current
    if (!inc && cur.buffer && now >= cur.startAt + cur.buffer.duration) {
      this.playing = false
      cur.offset = cur.buffer.duration
      cur.run = null
      this.stopTicker()
      this.emitTime()
      this.emit({ type: 'ended' })
    }
  }

  private startTicker() {
    this.ticker ??= setInterval(() => {
      this.catchUp()
      if (!this.playing) return
      this.emitTime()
      // A streamed item's end is re-estimated while there is time to move the handover.
      const inc = this.incoming
      if (this.current && !this.current.buffer && inc && this.ctx && inc.at - this.ctx.currentTime > 0.3) this.scheduleNext()
      this.maybeAdopt()
      this.maybeCheckClock()
      if (!this.wake) this.armWake()
    }, TIME_EVENT_MS)
    this.armWake()
  }

  private stopTicker() {
    if (this.ticker) clearInterval(this.ticker)
    if (this.wake) clearTimeout(this.wake)
    this.ticker = null
    this.wake = null
  }

  /** A timer for the next instant something happens (handover or end), sooner than the ticker. */
  private armWake() {
    if (this.wake) clearTimeout(this.wake)
    this.wake = null
    if (!this.playing || !this.ctx || !this.current) return
    const cur = this.current
    const due = this.incoming ? this.incoming.at : cur.buffer ? cur.startAt + cur.buffer.duration : Infinity
    const ms = Math.max(0, (due - this.ctx.currentTime) * 1000) + 5
    if (ms > TIME_EVENT_MS * 4) return
    this.wake = setTimeout(() => {
      this.wake = null
      this.catchUp()
      this.armWake()
    }, ms)
  }

  // ---- a start due now, checked ----------------------------------------------------------------

  /** After a start due now at `when`: its clock is an assumption until heard (from 50 ms in). */
  private clockToCheck(v: Voice, when: number) {
    v.clock = { sure: false, tries: 0, notBefore: when + 0.05 }
  }

  private maybeCheckClock() {
    const v = this.current
    const run = v?.run
    if (!v?.buffer || !run?.source || v.clock.sure || this.checkingClock || !this.playing || !this.ctx) return
    const now = this.ctx.currentTime
    if (v.buffer.duration - positionAt(now, clockOf(v, v.buffer.duration)) < CLOCK_MIN_REMAINING_S) return
    if (takeAttempt(v.clock, CLOCK_TRIES, CLOCK_RETRY_S, now)) void this.checkClock(v, run)
  }

  /** Hears where `run` of `v` really is and moves the item's clock (and its handover) there. */
  private async checkClock(v: Voice, run: Run) {
    this.checkingClock = true
    const ctx = this.context()
    try {
      const startAt = await locatePlayback(ctx, run.fade, v.buffer!, v.startAt, CLOCK_RADIUS_S)
      if (startAt === null || v.run !== run || this.current !== v || !this.playing) return
      v.clock.sure = true
      if (Math.abs(startAt - v.startAt) * ctx.sampleRate < 0.5) return
      v.startAt = startAt
      // A handover not yet due moves with the clock; one under way keeps its course.
      const inc = this.incoming
      if (!inc || inc.at - ctx.currentTime > LEAD_S) this.scheduleNext()
    } catch (err) {
      v.clock.tries = CLOCK_TRIES
      console.warn("[player] an item's start could not be checked:", err)
    } finally {
      this.checkingClock = false
    }
  }

  // ---- a streamed item becomes a decoded one --------------------------------------------------

  /** Starts the switch of a streamed current item to its decoded copy, when it can be done now. */
  private maybeAdopt() {
    const v = this.current
    if (!v || v.buffer || !v.run || !this.playing || this.adopting || !this.ctx || !this.streamSource) return
    const now = this.ctx.currentTime
    if (!this.streamDownloaded() || this.durationOf(v) - this.streamer.currentTime < ADOPT_MIN_REMAINING_S) return
    // A long crossfade may start well before the end; never switch under it.
    if (this.incoming && this.incoming.at - now < ADOPT_MIN_REMAINING_S) return
    if (takeAttempt(v.adoption, ADOPT_TRIES, ADOPT_RETRY_S, now)) void this.adopt(v, this.adoptToken)
  }

  private async adopt(v: Voice, token: number) {
    this.adopting = true
    const ctx = this.context()
    const still = () => token === this.adoptToken && this.current === v && !v.buffer && v.run !== null && this.playing
    try {
      // A queue of one has the same song decoded ahead already: one download serves both.
      const ahead = this.nextBuffer?.url === v.url ? this.nextBuffer.buffer : this.preloader.peek(v.url)
      const buffer = (v.adoption.buffer ??= await (ahead ?? decodeItem(ctx, v.url, v.label)))
      if (!still()) return
      const startAt = await locatePlayback(ctx, this.streamFade!, buffer, ctx.currentTime - this.streamer.currentTime, STREAM_RADIUS_S)
      if (startAt === null || !still()) return
      this.switchToBuffer(v, buffer, startAt)
    } catch (err) {
      // It plays on streamed; the decoded item after it overlaps it as before.
      v.adoption.tries = ADOPT_TRIES
      console.warn('[player] a streamed item stays streamed:', err)
    } finally {
      this.adopting = false
    }
  }

  /** From `LEAD_S` ahead, `v` plays from its buffer, on the frame the element would have played. */
  private switchToBuffer(v: Voice, buffer: IAudioBuffer, startAt: number) {
    const ctx = this.context()
    const element = v.run!
    const at = onGrid(ctx.currentTime + LEAD_S, ctx.sampleRate)
    const offset = onGrid(at - startAt, ctx.sampleRate)
    if (offset < 0 || buffer.duration - offset < ADOPT_MIN_REMAINING_S / 2) return
    if (this.incoming && this.incoming.at <= at + ADOPT_SWAP_S) return
    this.cancelIncoming()
    v.buffer = buffer
    v.adoption.buffer = null
    const run = this.startRun(v, at, offset, 0)
    run.fade.gain.setValueAtTime(0, at)
    run.fade.gain.linearRampToValueAtTime(1, at + ADOPT_SWAP_S)
    element.fade.gain.cancelScheduledValues(0)
    element.fade.gain.setValueAtTime(1, at)
    element.fade.gain.linearRampToValueAtTime(0, at + ADOPT_SWAP_S)
    const ms = (at + ADOPT_SWAP_S - ctx.currentTime) * 1000 + 50
    // Unless the element streams a newer item by then.
    setTimeout(() => this.current?.buffer !== null && this.streamer.pause(), ms)
    this.scheduleNext()
  }

  // ---- the next item --------------------------------------------------------------------------

  /** True once a streamed current item has all its bytes (a decode ahead would compete for the network). */
  private streamDownloaded(): boolean {
    const el = this.streamer
    const d = el.duration
    return Number.isFinite(d) && el.buffered.length > 0 && el.buffered.end(el.buffered.length - 1) >= d - 0.05
  }

  /** Starts decoding the next item, once the current one is loaded (and, if streamed, downloaded). */
  private kickPreload() {
    const next = this.next
    // Nothing to follow yet: the first load() asks again once its item is there (and streaming).
    if (!next || this.loading || !this.current) return
    if (this.nextBuffer?.url === next.url) return this.scheduleNext()
    const reuse = this.current?.url === next.url ? this.current.buffer : null
    if (reuse) {
      this.nextBuffer = { url: next.url, buffer: reuse }
      return this.scheduleNext()
    }
    // Already decoding it: its completion schedules it.
    if (this.preloader.key === next.url) return
    if (this.current && !this.current.buffer && !this.streamDownloaded()) return
    const promise = this.preloader.want(next.url)
    if (!promise) return
    void promise.then(
      (buffer) => {
        if (!this.preloader.isCurrent(next.url, promise) || this.next?.url !== next.url) return
        this.nextBuffer = { url: next.url, buffer }
        this.scheduleNext()
      },
      () => {
        // Reported when the store loads that item; a retry decodes it again.
        if (this.preloader.isCurrent(next.url, promise)) this.preloader.clear()
      },
    )
  }

  /** Puts the decoded next item on the clock at its handover time (rescheduling what was there). */
  private scheduleNext() {
    this.catchUp()
    this.cancelIncoming()
    const next = this.next
    const cur = this.current
    if (!this.playing || !cur?.run || !next || this.nextBuffer?.url !== next.url) return this.armWake()
    const ctx = this.context()
    const buffer = this.nextBuffer.buffer
    const duration = this.durationOf(cur)
    if (duration <= 0) return
    if (!cur.buffer) this.estimateStreamStart(cur)
    const crossfade = cur.buffer ? this.crossfade : Math.max(this.crossfade, STREAM_OVERLAP_S)
    const plan = transitionPlan(ctx.currentTime, clockOf(cur, duration), buffer.duration, crossfade, LEAD_S)
    if (!plan) return this.armWake()
    const end = cur.startAt + duration
    const at = onGrid(plan.at, ctx.sampleRate)
    const fade = Math.max(0, end - at)
    const voice = this.voice(next.url, next.label, buffer, next.gainDb)
    const run = this.startRun(voice, at, 0, fade > 0 ? 0 : 1)
    if (fade > 0) {
      run.fade.gain.setValueCurveAtTime(fadeCurve('in', CURVE_POINTS), at, fade)
      // Whatever the current run had scheduled before `at` (a switch's ramp) stays.
      cur.run.fade.gain.cancelScheduledValues(at)
      cur.run.fade.gain.setValueCurveAtTime(fadeCurve('out', CURVE_POINTS), at, fade)
    }
    this.incoming = { voice, at, fade }
    this.armWake()
  }

  // ---- the API --------------------------------------------------------------------------------

  async load(audioUrl: string, label: string, options: DeckItemOptions = {}): Promise<void> {
    this.catchUp()
    const claim = this.claimable
    this.claimable = null
    if (claim && claim === this.current && claim.url === audioUrl) {
      // The deck already moved on to this item at the end of the previous one: keep it playing.
      this.label = claim.label = label
      if (options.gainDb !== undefined) this.setItemGainDb(options.gainDb)
      this.kickPreload()
      return
    }
    const token = ++this.loadToken
    const wasPlaying = this.playing
    const previous = this.current
    this.label = label
    this.playing = false
    this.stopTicker()
    this.silenceAll()
    if (previous) this.release(previous)
    this.current = null
    if (wasPlaying) this.emit({ type: 'paused' })
    this.emitTime()
    // Only a buffer already decoded: one still downloading (a queue of one preloads its own song) would
    // hold the start back until the whole file has arrived, so that item streams instead.
    const decoded =
      previous?.url === audioUrl && previous.buffer
        ? previous.buffer
        : this.nextBuffer?.url === audioUrl
          ? this.nextBuffer.buffer
          : this.spare?.url === audioUrl
            ? this.spare.buffer
            : this.preloader.ready(audioUrl)
    this.spare = null
    if (!decoded && this.preloader.key === audioUrl) this.preloader.clear()
    const loading = decoded
      ? this.loadDecoded(token, audioUrl, label, Promise.resolve(decoded), options)
      : this.loadStreamed(token, audioUrl, label, options)
    this.loading = loading
    try {
      await loading
    } catch (err) {
      if (token !== this.loadToken) return
      if (this.preloader.key === audioUrl) this.preloader.clear()
      const message = err instanceof DeckError ? err.message : `Could not play "${label}": ${REASON.decode}.`
      this.fail(message)
      throw err instanceof DeckError ? err : new DeckError(message)
    } finally {
      if (this.loading === loading) this.loading = null
    }
    if (token === this.loadToken) this.kickPreload()
  }

  private async loadDecoded(token: number, url: string, label: string, ready: Promise<IAudioBuffer>, options: DeckItemOptions) {
    const buffer = await ready
    if (token !== this.loadToken) return
    this.current = this.voice(url, label, buffer, options.gainDb ?? 0)
    this.emitTime()
  }

  private async loadStreamed(token: number, url: string, label: string, options: DeckItemOptions) {
    let resolved
    try {
      resolved = await resolveAudioUrl(url)
    } catch (err) {
      throw resolveFailure(label, err)
    }
    if (token !== this.loadToken) {
      resolved.release()
      return
    }
    this.releaseStream()
    this.releaseStream = resolved.release
    this.current = this.voice(url, label, null, options.gainDb ?? 0)
    this.streamer.src = resolved.url
    this.streamer.load()
  }

  preload(audioUrl: string | null, label = '', options: DeckItemOptions = {}): void {
    this.catchUp()
    if (audioUrl === null) {
      this.next = null
      this.spare = this.nextBuffer ?? this.spare
      this.nextBuffer = null
      this.preloader.clear()
      this.cancelIncoming()
      this.armWake()
      return
    }
    const same = this.next?.url === audioUrl
    this.next = { url: audioUrl, label: label || audioUrl, gainDb: options.gainDb ?? 0 }
    if (same && this.incoming?.voice.url === audioUrl) {
      if (this.incoming.voice.itemGain) this.incoming.voice.itemGain.gain.value = dbToGain(this.next.gainDb)
      this.incoming.voice.gainDb = this.next.gainDb
      return
    }
    if (!same) {
      this.spare = this.nextBuffer ?? this.spare
      this.nextBuffer = null
      this.cancelIncoming()
    }
    this.kickPreload()
  }

  async play(): Promise<void> {
    const token = this.loadToken
    if (this.loading) await this.loading.catch(() => {})
    if (token !== this.loadToken) return
    this.ensureGraph()
    const ctx = await unlockAudio()
    // The first sound waits for the limiter (once per page), so no boosted peak goes out unlimited.
    await this.limiterReady
    if (token !== this.loadToken) return
    const blocked = `Could not play "${this.label}": the browser blocked playback; press play again.`
    if (ctx.state !== 'running') throw new DeckError(blocked)
    const v = this.current
    if (!v || this.playing) return
    if (!v.buffer) {
      this.streamRun(v)
      try {
        await this.streamer.play()
      } catch (err) {
        // AbortError means a newer load()/pause() superseded this play: not a failure.
        if (err instanceof DOMException && err.name === 'AbortError') return
        const message = err instanceof DOMException && err.name === 'NotAllowedError' ? blocked : this.mediaErrorMessage()
        console.error('[player]', message, err)
        throw new DeckError(message)
      }
      if (token !== this.loadToken || this.current !== v) return
      this.estimateStreamStart(v)
    } else {
      if (v.offset >= v.buffer.duration) v.offset = 0
      const { when, offset } = startFrom(ctx.currentTime, v.offset, START_LEAD_S, ctx.sampleRate)
      this.startRun(v, when, offset)
      this.clockToCheck(v, when)
    }
    this.playing = true
    this.startTicker()
    this.scheduleNext()
    this.emit({ type: 'playing' })
    this.emitTime()
  }

  pause() {
    this.catchUp()
    if (!this.playing) {
      // A play() still waiting for the element must not start it after this.
      if (this.current && !this.current.buffer) this.streamer.pause()
      return
    }
    const v = this.current!
    v.offset = this.position
    this.playing = false
    this.stopTicker()
    // A crossfade in progress is abandoned: the item that was fading in resumes alone.
    this.silenceAll()
    this.emit({ type: 'paused' })
    this.emitTime()
  }

  stop() {
    this.loadToken++
    const wasPlaying = this.playing
    this.playing = false
    this.stopTicker()
    this.silenceAll()
    if (this.current) this.release(this.current)
    this.current = null
    this.claimable = null
    this.next = null
    this.nextBuffer = null
    this.preloader.clear()
    this.streamer.pause()
    this.streamer.removeAttribute('src')
    this.streamer.load()
    this.releaseStream()
    this.releaseStream = () => {}
    if (wasPlaying) this.emit({ type: 'paused' })
    this.emitTime()
  }

  seek(seconds: number) {
    if (!Number.isFinite(seconds)) return
    this.catchUp()
    const v = this.current
    if (!v) return
    const to = Math.min(Math.max(0, seconds), this.durationOf(v) || Infinity)
    this.media.onSeek(true)
    if (!v.buffer) {
      // A seek during a crossfade ends it; the handover is planned again from the new place.
      this.adoptToken++
      this.cancelIncoming()
      for (const o of [...this.outgoing]) this.release(o)
      this.streamer.currentTime = to
      if (this.playing) this.scheduleNext()
    } else if (this.playing && this.ctx) {
      // A seek during a crossfade ends it: the outgoing item stops, the current one jumps.
      this.silenceAll()
      const { when, offset } = startFrom(this.ctx.currentTime, to, START_LEAD_S, this.ctx.sampleRate)
      this.startRun(v, when, offset)
      this.clockToCheck(v, when)
      this.scheduleNext()
    } else v.offset = to
    this.emitTime()
    this.media.onSeek(false)
  }

  setVolume(volume: number) {
    this.volume = Math.min(100, Math.max(0, Number.isFinite(volume) ? volume : 0))
    if (this.output) this.output.gain.setTargetAtTime(volumeToGain(this.volume), this.output.context.currentTime, 0.015)
  }

  setCrossfade(seconds: number) {
    const next = clampCrossfade(seconds)
    if (next === this.crossfade) return
    this.crossfade = next
    // A handover not yet begun moves to the new time; one already fading keeps its course.
    if (this.incoming && this.ctx && this.ctx.currentTime < this.incoming.at) this.scheduleNext()
  }

  setItemGainDb(gainDb: number) {
    const v = this.current
    if (!v) return
    v.gainDb = Number.isFinite(gainDb) ? gainDb : 0
    if (v.itemGain) v.itemGain.gain.setTargetAtTime(dbToGain(v.gainDb), v.itemGain.context.currentTime, 0.015)
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
