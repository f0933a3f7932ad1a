/**
 * The live mixer: one MixGraph on the app's AudioContext into the master bus, and the transport.
 *
 *   mixerEngine.ensure(state)      loads the worklets and builds the graph (idempotent)
 *   mixerEngine.sync(state)        live parameter/track changes (smoothed in the worklets)
 *   mixerEngine.play(state) / pause() / seek(seconds) / stop()
 *   mixerEngine.position()         timeline seconds (pause and resume keep it)
 *   mixerEngine.timelinePositionAt(contextTime) → seconds | null (null when not playing)
 *   mixerEngine.onLevels(cb)       per-track and master levels (key = track id or MASTER_KEY)
 * Every source starts at one context time slightly in the future, so all tracks are
 * sample-aligned with each other regardless of how long scheduling takes on the main thread.
 */
import { unlockAudio, getAudioContext } from './audio-context.ts'
import { getMasterBus } from './master-bus.ts'
import { buildMixGraph, prepareMixContext, type LevelsListener, type MixGraph } from './mixer-graph.ts'
import { mixDuration, type MixerState } from './mixer-model.ts'

/** Scheduling headroom: long enough for the main thread to start every source before it is due. */
const START_AHEAD_SECONDS = 0.06

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
    this.duration = mixDuration(state)
    this.graph?.apply(state)
    const ids = new Set(state.tracks.map((t) => t.id))
    if (this.playing && this.graph) {
      // A track added mid-playback joins in time with the others.
      const added = new Set([...ids].filter((id) => !this.known.has(id)))
      // A clip moved, trimmed or looped while playing is heard from its new place at once.
      const next = placementsOf(state)
      for (const [id, p] of next) {
        const before = this.placements.get(id)
        if (before && (before.offset !== p.offset || before.clips !== p.clips)) added.add(id)
      }
      if (added.size > 0) {
        const when = this.graph.ctx.currentTime + START_AHEAD_SECONDS
        this.graph.start(when, this.startPosition + (when - this.startCtxTime), added)
      }
      this.scheduleEnd()
    }
    this.known = ids
    this.placements = placementsOf(state)
  }

  isPlaying() {
    return this.playing
  }

  position(): number {
    if (!this.playing) return this.pausedAt
    const ctx = getAudioContext()
    return Math.max(this.startPosition, this.startPosition + (ctx.currentTime - this.startCtxTime))
  }

  timelinePositionAt(contextTime: number): number | null {
    if (!this.playing) return null
    return this.startPosition + (contextTime - this.startCtxTime)
  }

  async play(state: MixerState) {
    const ctx = await unlockAudio()
    const graph = await this.ensure(state)
    this.duration = mixDuration(state)
    if (this.duration <= 0) return
    if (this.pausedAt >= this.duration) this.pausedAt = 0
    const when = ctx.currentTime + START_AHEAD_SECONDS
    graph.start(when, this.pausedAt)
    this.startCtxTime = when
    this.startPosition = this.pausedAt
    this.playing = true
    this.scheduleEnd()
  }

  pause() {
    if (!this.playing) return
    this.pausedAt = Math.min(this.position(), this.duration)
    this.playing = false
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
    const remaining = this.duration - this.position()
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

  private clearEnd() {
    if (this.endTimer) clearTimeout(this.endTimer)
    this.endTimer = null
  }
}

interface Placement {
  offset: number
  clips: MixerState['tracks'][number]['clips']
}

const placementsOf = (state: MixerState): Map<string, Placement> => new Map(state.tracks.map((t) => [t.id, { offset: t.offset, clips: t.clips }]))

export const mixerEngine = new MixerEngine()
