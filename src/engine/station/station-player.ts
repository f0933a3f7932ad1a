/**
 * CUBE Radio on the main thread: the composer worker writes each piece (composeInWorker), it is
 * rendered offline while the current one plays, and every piece is scheduled on the app's audio
 * context at the wall-clock time of its slot, with the equal-power gain curve of programme.ts, so
 * consecutive pieces overlap CROSSFADE_SECONDS and never leave a gap. Joining starts mid-piece: the
 * piece joined is rendered in segments from there (segments.ts), so it sounds within a second; the
 * next one is rendered whole while this one plays (the render queue is piece-renders.ts).
 * No React: the Stream page and the player bar read `state` through subscribe().
 */
import type { IAudioContext, IGainNode } from 'standardized-audio-context'
import { composeInWorker } from '../composer.ts'
import { getAudioContext, unlockAudio } from '../audio-context.ts'
import { renderScore } from '../score-renderer.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { localNow } from '../../lib/clock-offset.ts'
import { PIECE_SECONDS, SLOT_SECONDS, slotAt, type ProgrammeSlot, type Steer } from './programme.ts'
import { makeLimiter, stationGainDb } from './station-output.ts'
import { chainFrom, prerollOf } from './segments.ts'
import { keyOf, PieceRenders, type PieceRender, type RenderedSegment } from './piece-renders.ts'
import { playSegment } from './segment-source.ts'
import { outputLatencySeconds } from '../output-latency.ts'

export type StationStatus = 'stopped' | 'tuning' | 'playing'

export interface StationState {
  status: StationStatus
  current: ProgrammeSlot | null
  next: ProgrammeSlot | null
  /** Seconds into the current piece (wall clock). */
  position: number
  steer: Steer
  /** Slots skipped ahead of the shared programme by this listener. */
  skipped: number
  error: string | null
}

const RENDER_RATE = 32000
/** A change of the measured clock offset smaller than this is not worth retuning for. */
export const CLOCK_STEP_MS = 40

type Listener = (s: StationState) => void

export class StationPlayer {
  state: StationState = { status: 'stopped', current: null, next: null, position: 0, steer: {}, skipped: 0, error: null }
  private listeners = new Set<Listener>()
  /** Scheduled sources by piece, then by segment start. */
  private scheduled = new Map<string, Map<number, () => void>>()
  private timer: ReturnType<typeof setInterval> | null = null
  private generation = 0
  private output: { ctx: IAudioContext; input: IGainNode<IAudioContext> } | null = null

  private readonly renders = new PieceRenders<AudioBuffer>({
    compose: (slot) => composeInWorker({ ...slot.recipe, instruments: [], minDurationSeconds: PIECE_SECONDS }),
    render: (score, segment, signal) =>
      renderScore(score, {
        sampleRate: RENDER_RATE,
        from: segment.from,
        to: segment.to,
        preroll: prerollOf(segment),
        normalise: false,
        signal,
      }),
    level: (buffer) => {
      const channels = Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c))
      return 10 ** (stationGainDb(channels, buffer.sampleRate) / 20)
    },
    wanted: () => {
      const { current, next } = this.state
      const onAir = current && keyOf(current)
      return { onAir, keys: new Set(this.stopped() || !onAir ? [] : [onAir, ...(next ? [keyOf(next)] : [])]) }
    },
    rendered: (slot, piece) => this.schedulePiece(slot, piece),
    failed: (e) => {
      if (!this.stopped()) this.set({ error: errorMessage(e) })
    },
  })

  /** Server time minus this page's clock, ms (0 until measured): see setClockOffset. */
  private offsetMs = 0

  constructor(private readonly clock: () => number = localNow) {}

  /** The programme's time now (ms since 1970): the server's clock, as near as this page knows it. */
  programmeTime(): number {
    return this.clock() + this.offsetMs
  }

  /**
   * The programme runs on the server's clock, so listeners whose devices are set differently still
   * hear one moment of it. A measurement that moves the clock by more than CLOCK_STEP_MS from the
   * one in use retunes a playing station at once (what is rendered is scheduled again, moved); a
   * smaller one is not taken: a remeasure is usually a few ms off the last, and retuning for that
   * would be a glitch for nothing, while drift that adds up past the step is taken.
   */
  setClockOffset(offsetMs: number): void {
    if (!Number.isFinite(offsetMs)) return
    const moved = Math.abs(offsetMs - this.offsetMs) > CLOCK_STEP_MS
    if (!moved) return
    this.offsetMs = offsetMs
    if (!this.stopped()) this.restart()
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    listener(this.state)
    return () => this.listeners.delete(listener)
  }

  private set(patch: Partial<StationState>) {
    this.state = { ...this.state, ...patch }
    for (const l of this.listeners) l(this.state)
  }

  /** The station's level and limiter, once per audio context. */
  private stationInput(ctx: IAudioContext): IGainNode<IAudioContext> {
    if (this.output?.ctx === ctx) return this.output.input
    const input = ctx.createGain()
    const limiter = makeLimiter(ctx.createDynamicsCompressor())
    input.connect(limiter)
    limiter.connect(ctx.destination)
    this.output = { ctx, input }
    return input
  }

  /**
   * What the Stream page does when it opens: loads the renderer and has the composer write the piece
   * on air now, so Play has only its first seconds left to render. Renders nothing.
   */
  warm(): void {
    void import('tone').catch(() => undefined)
    const shift = this.shift()
    this.renders.pieceOf(slotAt(this.programmeTime() + shift, this.state.steer))
  }

  /** Schedules what is rendered of a piece, in the chain from where the listener is in it. */
  private schedulePiece(slot: ProgrammeSlot, piece: PieceRender<AudioBuffer>) {
    if (this.state.status === 'stopped') return
    const shift = this.shift()
    const wall = this.programmeTime() + shift
    // Only the pieces around the listener's moment (a skip or a steer left others behind).
    const steer = this.state.steer
    if (![-1, 0, 1].some((offset) => keyOf(slotAt(wall, steer, offset)) === keyOf(slot))) return
    const position = (wall - slot.startsAt) / 1000
    let started = false
    for (const segment of chainFrom(piece.rendered, Math.max(0, position)))
      started = this.schedule(slot, segment, shift, piece.gain ?? 1) || started
    if (started && keyOf(slot) === (this.state.current && keyOf(this.state.current)) && this.state.status !== 'playing')
      this.set({ status: 'playing', error: null })
  }

  /** Starts one segment at its wall-clock time (true when it is, or was already, scheduled). */
  private schedule(slot: ProgrammeSlot, segment: RenderedSegment<AudioBuffer>, shift: number, level: number): boolean {
    const key = keyOf(slot)
    let sources = this.scheduled.get(key)
    if (sources?.has(segment.from)) return true
    const ctx = getAudioContext()
    // Wall clock → context time. `shift` moves a skipping listener's programme earlier.
    // Heard at its time: earlier by this device's output latency (a listener on Bluetooth too).
    const pieceAt = (slot.startsAt - shift - this.programmeTime()) / 1000 + ctx.currentTime - outputLatencySeconds(ctx)
    const segmentAt = pieceAt + segment.from
    const span = segment.to - segment.from
    const offset = Math.max(0, ctx.currentTime + 0.05 - segmentAt)
    if (offset >= span) return false
    const stop = playSegment(ctx, segment, { segmentAt, offset, level, into: this.stationInput(ctx) })
    if (!sources) this.scheduled.set(key, (sources = new Map()))
    sources.set(segment.from, stop)
    return true
  }

  /** Keeps the current and next pieces prepared and scheduled; runs every half second. */
  private tick(generation: number) {
    if (generation !== this.generation) return
    const shift = this.shift()
    const wall = this.programmeTime() + shift
    const current = slotAt(wall, this.state.steer)
    const next = slotAt(wall, this.state.steer, 1)
    const position = (wall - current.startsAt) / 1000
    this.set({ current, next, position })
    // The piece playing first, from where the listener is; then the next one, whole, while it plays.
    this.schedulePiece(current, this.renders.prepare(current, position, false))
    this.schedulePiece(next, this.renders.prepare(next, 0, true))
    // Forget pieces that have finished (the previous one may still be fading out).
    const keep = new Set([keyOf(slotAt(wall, this.state.steer, -1)), keyOf(current), keyOf(next)])
    for (const [key, sources] of this.scheduled) {
      if (keep.has(key)) continue
      for (const stop of sources.values()) stop()
      this.scheduled.delete(key)
    }
  }

  private restart() {
    this.generation++
    this.stopAll()
    const g = this.generation
    if (this.timer) clearInterval(this.timer)
    this.set({ status: 'tuning' })
    this.tick(g)
    this.timer = setInterval(() => this.tick(g), 500)
  }

  /** How far (ms) this listener's skips put them ahead of the shared programme. */
  private shift(): number {
    return this.state.skipped * SLOT_SECONDS * 1000
  }

  private stopped(): boolean {
    return this.state.status === 'stopped'
  }

  private stopAll() {
    for (const sources of this.scheduled.values()) for (const stop of sources.values()) stop()
    this.scheduled.clear()
  }

  async start(): Promise<void> {
    await unlockAudio()
    this.restart()
  }

  stop(): void {
    this.generation++
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    this.stopAll()
    this.set({ status: 'stopped' })
  }

  /** Another channel of the programme (its own shared schedule); back in sync with it at once. */
  setSteer(steer: Steer): void {
    this.set({ steer, skipped: 0 })
    if (this.state.status !== 'stopped') this.restart()
  }

  /** Moves this listener one slot ahead of the shared programme. */
  skip(): void {
    this.set({ skipped: this.state.skipped + 1 })
    if (this.state.status !== 'stopped') this.restart()
  }
}

let station: StationPlayer | null = null
/** The one station of the page (the Stream page and the player bar share it). */
export const getStation = (): StationPlayer => (station ??= new StationPlayer())
