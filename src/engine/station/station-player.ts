/**
 * CUBE Radio on the main thread: the composer worker writes each piece (composeInWorker), it is
 * rendered offline while the current one plays, and every piece is scheduled on the app's audio
 * context at the wall-clock time of its slot, with the equal-power gain curve of programme.ts, so
 * consecutive pieces overlap CROSSFADE_SECONDS and never leave a gap. Joining starts mid-piece.
 * No React: the Stream page and the player bar read `state` through subscribe().
 */
import { composeInWorker } from '../composer.ts'
import { getAudioContext, unlockAudio } from '../audio-context.ts'
import { renderScore } from '../score-renderer.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { PIECE_SECONDS, SLOT_SECONDS, pieceGain, slotAt, type ProgrammeSlot, type Steer } from './programme.ts'

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
const CURVE_POINTS = 256

interface Scheduled {
  key: string
  stop: () => void
}

type Listener = (s: StationState) => void

const keyOf = (slot: ProgrammeSlot) => `${slot.recipe.description}|${slot.recipe.mood}|${slot.recipe.genre}`

export class StationPlayer {
  state: StationState = { status: 'stopped', current: null, next: null, position: 0, steer: {}, skipped: 0, error: null }
  private listeners = new Set<Listener>()
  private buffers = new Map<string, Promise<AudioBuffer>>()
  private scheduled = new Map<string, Scheduled>()
  private timer: ReturnType<typeof setInterval> | null = null
  private generation = 0

  constructor(private readonly now: () => number = () => Date.now()) {}

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    listener(this.state)
    return () => this.listeners.delete(listener)
  }

  private set(patch: Partial<StationState>) {
    this.state = { ...this.state, ...patch }
    for (const l of this.listeners) l(this.state)
  }

  /** The piece of a slot, composed in the worker and rendered once (cached by recipe). */
  private piece(slot: ProgrammeSlot): Promise<AudioBuffer> {
    const key = keyOf(slot)
    let p = this.buffers.get(key)
    if (!p) {
      p = composeInWorker({ ...slot.recipe, instruments: [], minDurationSeconds: PIECE_SECONDS }).then((score) =>
        renderScore(score, { sampleRate: RENDER_RATE, to: PIECE_SECONDS }),
      )
      p.catch(() => this.buffers.delete(key))
      this.buffers.set(key, p)
      // Keep the current, next and one spare.
      while (this.buffers.size > 3) this.buffers.delete(this.buffers.keys().next().value!)
    }
    return p
  }

  private schedule(slot: ProgrammeSlot, rendered: AudioBuffer, shift: number) {
    const key = keyOf(slot)
    if (this.scheduled.has(key)) return
    const ctx = getAudioContext()
    const buffer = ctx.createBuffer(rendered.numberOfChannels, rendered.length, rendered.sampleRate)
    for (let c = 0; c < rendered.numberOfChannels; c++) buffer.copyToChannel(rendered.getChannelData(c), c)
    // Wall clock → context time. `shift` moves a skipping listener's programme earlier.
    const startsAt = (slot.startsAt - shift - this.now()) / 1000 + ctx.currentTime
    const offset = Math.max(0, ctx.currentTime + 0.05 - startsAt)
    if (offset >= PIECE_SECONDS) return
    const when = startsAt + offset
    const src = ctx.createBufferSource()
    src.buffer = buffer
    const gain = ctx.createGain()
    const curve = new Float32Array(CURVE_POINTS)
    const span = PIECE_SECONDS - offset
    for (let i = 0; i < CURVE_POINTS; i++) curve[i] = pieceGain(offset + (span * i) / (CURVE_POINTS - 1))
    gain.gain.value = curve[0]!
    gain.gain.setValueCurveAtTime(curve, when, span)
    src.connect(gain)
    gain.connect(ctx.destination)
    src.start(when, offset)
    src.stop(when + span)
    this.scheduled.set(key, {
      key,
      stop: () => {
        try {
          src.stop()
        } catch {
          // Already stopped.
        }
        src.disconnect()
        gain.disconnect()
      },
    })
  }

  /** Keeps the current and next pieces prepared and scheduled; runs every half second. */
  private async tick(generation: number) {
    if (generation !== this.generation) return
    const shift = this.state.skipped * SLOT_SECONDS * 1000
    const wall = this.now() + shift
    const current = slotAt(wall, this.state.steer)
    const next = slotAt(wall, this.state.steer, 1)
    const position = (wall - current.startsAt) / 1000
    this.set({ current, next, position })
    try {
      const buffer = await this.piece(current)
      if (generation !== this.generation) return
      this.schedule(current, buffer, shift)
      if (this.state.status !== 'playing') this.set({ status: 'playing', error: null })
      // The next piece is composed and rendered while this one plays.
      void this.piece(next).then(
        (b) => generation === this.generation && this.schedule(next, b, shift),
        () => undefined,
      )
    } catch (e) {
      if (generation === this.generation) this.set({ error: errorMessage(e) })
    }
    // Forget pieces that have finished (the previous one may still be fading out).
    const keep = new Set([keyOf(slotAt(wall, this.state.steer, -1)), keyOf(current), keyOf(next)])
    for (const [key, s] of this.scheduled) {
      if (keep.has(key)) continue
      s.stop()
      this.scheduled.delete(key)
    }
  }

  private restart() {
    this.generation++
    for (const s of this.scheduled.values()) s.stop()
    this.scheduled.clear()
    const g = this.generation
    if (this.timer) clearInterval(this.timer)
    this.set({ status: 'tuning' })
    void this.tick(g)
    this.timer = setInterval(() => void this.tick(g), 500)
  }

  async start(): Promise<void> {
    await unlockAudio()
    this.restart()
  }

  stop(): void {
    this.generation++
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    for (const s of this.scheduled.values()) s.stop()
    this.scheduled.clear()
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
