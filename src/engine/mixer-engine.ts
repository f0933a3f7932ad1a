/**
 * The live mixer: one MixGraph on the app's AudioContext into the master bus, and the transport.
 *
 *   mixerEngine.ensure(state)      loads the worklets and builds the graph (idempotent)
 *   mixerEngine.sync(state)        live parameter/track changes (smoothed in the worklets)
 *   mixerEngine.play(state) / pause() / seek(seconds) / stop()
 *   mixerEngine.playAt(state, seconds, contextTime)  from `seconds` at `contextTime` (a shared start);
 *                                  a time already past starts where the timeline is by then
 *   mixerEngine.position()         timeline seconds (pause and resume keep it)
 *   mixerEngine.timelinePositionAt(contextTime) → seconds | null (null when not playing)
 *   mixerEngine.onLevels(cb)       per-track and master levels (key = track id or MASTER_KEY)
 *   mixerEngine.trackInput(state, id)  a track's strip input, the graph built first (live instruments)
 *   mixerEngine.setMetronome({ on, bpm })  clicks on the beats while playing (master bus only)
 *   mixerEngine.setLoop(region | null)  playback inside [start, end) wraps back to start without a
 *                                  gap: the next cycle is scheduled ahead and the old sources stop
 *                                  on the very sample it begins
 * Every source starts at one context time slightly in the future, so all tracks are
 * sample-aligned with each other regardless of how long scheduling takes on the main thread.
 */
import { unlockAudio, getAudioContext } from './audio-context.ts'
import { getMasterBus } from './master-bus.ts'
import { buildMixGraph, prepareMixContext, type LevelsListener, type MixGraph } from './mixer-graph.ts'
import { mixDuration, type MixerState } from './mixer-model.ts'
import { placementsOf, type Placement } from './mixer-placements.ts'
import { MetronomeClicks } from './mixer-metronome.ts'

/** Scheduling headroom: long enough for the main thread to start every source before it is due. */
const START_AHEAD_SECONDS = 0.06
/** A loop's next cycle is scheduled this long before it is due (timers are late in busy tabs). */
const WRAP_AHEAD_SECONDS = 0.3
/** Shorter loop regions are ignored: the next cycle could not be scheduled in time. */
export const MIN_LOOP_SECONDS = 0.5

export interface LoopRegion {
  start: number
  end: number
}

class MixerEngine {
  private graph: MixGraph | null = null
  private building: Promise<MixGraph> | null = null
  private listeners = new Set<LevelsListener>()
  private playing = false
  private startCtxTime = 0
  private startPosition = 0
  private pausedAt = 0
  private duration = 0
  private endTimer: ReturnType<typeof setTimeout> | null = null
  private endListeners = new Set<() => void>()
  private loop: LoopRegion | null = null
  /** A loop wrap already scheduled: from context time `ctxTime` the timeline reads `position`. */
  private pendingWrap: { ctxTime: number; position: number } | null = null

  async ensure(state: MixerState): Promise<MixGraph> {
    if (this.graph) return this.graph
    if (!this.building) {
      this.building = (async () => {
        const ctx = getAudioContext()
        await prepareMixContext(ctx)
        const graph = buildMixGraph(ctx, state, { destination: getMasterBus().input })
        graph.onLevels((k, l) => this.listeners.forEach((cb) => cb(k, l)))
        this.graph = graph
        return graph
      })()
      this.building.catch(() => (this.building = null))
    }
    const g = await this.building
    g.apply(state)
    this.known = new Set(state.tracks.map((t) => t.id))
    this.placements = placementsOf(state)
    return g
  }

  private known = new Set<string>()
  /** Each track's placement on the timeline as last scheduled: a change restarts only that track. */
  private placements = new Map<string, Placement>()

  sync(state: MixerState) {
    this.lastState = state
    this.duration = mixDuration(state)
    this.graph?.apply(state)
    const ids = new Set(state.tracks.map((t) => t.id))
    if (this.playing && this.graph) {
      // A track added mid-playback joins in time with the others.
      const added = new Set([...ids].filter((id) => !this.known.has(id)))
      // A clip moved, trimmed or looped while playing is heard from its new place at once; so is new
      // audio (an instrument track's notes rendered again) once it has arrived.
      const next = placementsOf(state)
      for (const [id, p] of next) {
        const before = this.placements.get(id)
        if (before && (before.offset !== p.offset || before.clips !== p.clips || before.audioId !== p.audioId || before.ready !== p.ready))
          added.add(id)
      }
      if (added.size > 0) {
        const when = this.graph.ctx.currentTime + START_AHEAD_SECONDS
        this.graph.start(when, this.timelinePositionAt(when) ?? this.startPosition, added)
      }
      this.scheduleEnd()
    }
    this.known = ids
    this.placements = placementsOf(state)
  }

  async trackInput(state: MixerState, id: string) {
    const graph = this.graph ?? (await this.ensure(state))
    return graph.input(id)
  }

  isPlaying() {
    return this.playing
  }

  position(): number {
    if (!this.playing) return this.pausedAt
    const now = getAudioContext().currentTime
    this.adoptWrap(now)
    return Math.max(this.startPosition, this.startPosition + (now - this.startCtxTime))
  }

  timelinePositionAt(contextTime: number): number | null {
    if (!this.playing) return null
    const w = this.pendingWrap
    if (w && contextTime >= w.ctxTime) return w.position + (contextTime - w.ctxTime)
    return this.startPosition + (contextTime - this.startCtxTime)
  }

  /** Loops playback inside the region (null: play to the end). Applies at once while playing. */
  setLoop(region: LoopRegion | null) {
    const next =
      region &&
      Number.isFinite(region.start) &&
      Number.isFinite(region.end) &&
      region.start >= 0 &&
      region.end - region.start >= MIN_LOOP_SECONDS
        ? { ...region }
        : null
    if (next?.start === this.loop?.start && next?.end === this.loop?.end) return
    this.loop = next
    if (!this.playing) return
    if (this.pendingWrap) {
      // A wrap scheduled for the old region is undone by restarting where playback really is.
      void this.seek(this.position(), this.lastState ?? { tracks: [], master: { volume: 80, reverb: 30 } })
      return
    }
    this.scheduleEnd()
  }

  /** Once the scheduled wrap is due, the timeline reads from the loop's start. */
  private adoptWrap(now: number) {
    const w = this.pendingWrap
    if (!w || now < w.ctxTime) return
    this.startCtxTime = w.ctxTime
    this.startPosition = w.position
    this.pendingWrap = null
  }

  private lastState: MixerState | null = null
  private metronome = { on: false, bpm: 120 }
  private readonly clicks = new MetronomeClicks({
    isPlaying: () => this.playing,
    timelinePositionAt: (t) => this.timelinePositionAt(t),
    pendingWrapAt: () => this.pendingWrap?.ctxTime ?? null,
  })

  setMetronome(settings: { on: boolean; bpm: number }) {
    this.metronome = { on: settings.on, bpm: settings.bpm > 0 ? settings.bpm : 120 }
    this.runMetronome()
  }

  private runMetronome() {
    this.clicks.run(this.playing && this.metronome.on, this.metronome.bpm)
  }

  /** Starts playback; `at`: not before this context time (a count-in's last beat). */
  play(state: MixerState, at?: number) {
    return this.start(state, at ?? 0, null)
  }

  /** Plays from `seconds` as if started at context time `at` (play together); stops what plays first. */
  playAt(state: MixerState, seconds: number, at: number) {
    this.pause()
    return this.start(state, at, Math.max(0, seconds))
  }

  private async start(state: MixerState, at: number, from: number | null) {
    this.lastState = state
    const ctx = await unlockAudio()
    const graph = await this.ensure(state)
    this.duration = mixDuration(state)
    if (this.duration <= 0) return
    if (this.playing) this.pause()
    const when = Math.max(ctx.currentTime + START_AHEAD_SECONDS, at)
    // A shared start that is already past (late news, a slow graph build) joins where it is by now.
    if (from !== null) this.pausedAt = Math.min(this.duration, from + (when - at))
    if (this.pausedAt >= this.duration) {
      if (from !== null) return
      this.pausedAt = 0
    }
    graph.start(when, this.pausedAt)
    this.startCtxTime = when
    this.startPosition = this.pausedAt
    this.playing = true
    this.scheduleEnd()
    this.runMetronome()
  }

  pause() {
    if (!this.playing) return
    this.pausedAt = Math.min(this.position(), this.duration)
    this.pendingWrap = null
    this.playing = false
    this.runMetronome()
    this.graph?.stop()
    this.clearEnd()
  }

  /** Back to the start (end of the mix, or a new project). */
  stop() {
    this.pause()
    this.pausedAt = 0
  }

  async seek(seconds: number, state: MixerState) {
    const wasPlaying = this.playing
    this.pause()
    const end = mixDuration(state)
    this.pausedAt = Math.max(0, Math.min(seconds, end))
    if (!wasPlaying) return
    // Seeking to the very end while playing ends the mix, as reaching it does (play would restart it).
    if (this.pausedAt >= end) {
      this.stop()
      this.endListeners.forEach((cb) => cb())
      return
    }
    await this.play(state)
  }

  onLevels(cb: LevelsListener) {
    this.listeners.add(cb)
    return () => this.listeners.delete(cb)
  }

  onEnded(cb: () => void) {
    this.endListeners.add(cb)
    return () => this.endListeners.delete(cb)
  }

  private scheduleEnd() {
    this.clearEnd()
    const pos = this.position()
    if (this.pendingWrap) {
      // Wait for the wrap to take effect, then plan the next one from the new position.
      const wait = this.pendingWrap.ctxTime - getAudioContext().currentTime
      this.endTimer = setTimeout(() => this.scheduleEnd(), Math.max(10, wait * 1000 + 10))
      return
    }
    const loop = this.loop
    if (loop && pos < loop.end) {
      this.endTimer = setTimeout(() => this.wrap(loop), Math.max(0, (loop.end - pos - WRAP_AHEAD_SECONDS) * 1000))
      return
    }
    const remaining = this.duration - pos
    this.endTimer = setTimeout(
      () => {
        if (this.position() >= this.duration - 0.005) {
          this.stop()
          this.endListeners.forEach((cb) => cb())
        } else this.scheduleEnd()
      },
      Math.max(20, remaining * 1000 + 30),
    )
  }

  private wrap(loop: LoopRegion) {
    const graph = this.graph
    if (!this.playing || !graph || this.loop !== loop) return
    const now = graph.ctx.currentTime
    let at = this.startCtxTime + (loop.end - this.startPosition)
    // A tab that slept past the loop's end: wrap as soon as possible (a gap is unavoidable then).
    if (at < now + 0.01) at = now + START_AHEAD_SECONDS
    graph.start(at, loop.start, undefined, true)
    this.pendingWrap = { ctxTime: at, position: loop.start }
    this.scheduleEnd()
  }

  private clearEnd() {
    if (this.endTimer) clearTimeout(this.endTimer)
    this.endTimer = null
  }
}

export const mixerEngine = new MixerEngine()
