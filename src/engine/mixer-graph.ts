/**
 * The one graph builder shared by the live mixer and every offline render, so what is exported
 * is what is heard:
 *
 *   per track:  AudioBufferSourceNode → channel strip (effects, volume, pan, enabled)
 *   all tracks: strips → master strip (master volume / reverb) → destination
 *
 *   buildMixGraph(ctx, state, { destination, master? }) → MixGraph
 *     master: false leaves the master strip out (tracks sum straight into destination): the
 *     tracks' stems alone, what the export's workers render (tests compare the two)
 *     .apply(state)            pushes changed parameters into the strips (live: smoothed in the
 *                              worklet, so no clicks), adds/removes tracks; a disabled track's
 *                              strip mutes with a short fade (its 'enabled' parameter)
 *     .start(when, position, ids?, handoff?)  starts every track's source (or only `ids`: tracks added
 *                              or re-placed while playing) at one context time (sample-accurate);
 *                              handoff: the sources playing now stop exactly at `when` instead of at
 *                              once (a loop region wrapping without a gap)
 *     .stop()                  stops and drops the sources (strips and their tails stay)
 *     .onLevels(cb)            per-track and master peak/RMS from the strips' worklets
 *     .input(trackId)          the track's strip input (a live instrument played by hand joins there)
 *     .dispose()
 * Call `await loadChannelStrip(ctx)` (or `prepareMixContext`) once per context before building.
 */
import type { IAudioBufferSourceNode, IAudioNode } from 'standardized-audio-context'
import { createChannelStrip, loadChannelStrip, type ChannelStrip, type StripParamName, type StripParams } from './channel-strip.ts'
import { audioBufferFor, getMixerAudio, type AnyAudioContext } from './mixer-audio.ts'
import { EFFECT_NAMES, type MasterSettings, type MixerState, type MixerTrack } from './mixer-model.ts'
import { scheduleClips } from './arrangement/schedule-clips.ts'

type Strip = ChannelStrip<{ connect(dest: never): unknown; disconnect(): void }>

export interface Levels {
  peak: number
  rms: number
}

export type LevelsListener = (key: string, levels: Levels) => void

export const MASTER_KEY = '__master__'

export function trackStripParams(t: MixerTrack): Partial<StripParams> {
  const p: Partial<StripParams> = { volume: t.volume, pan: t.pan, reverb: t.reverb, enabled: t.enabled ? 1 : 0 }
  for (const e of EFFECT_NAMES) p[e] = t.effects[e]
  return p
}

export function masterStripParams(m: MasterSettings): Partial<StripParams> {
  return {
    volume: m.volume,
    reverb: m.reverb,
    pan: 0,
    lowpass: 0,
    highpass: 0,
    distortion: 0,
    delay: 0,
    compression: 0,
    chorus: 0,
    enabled: 1,
  }
}

interface TrackNodes {
  strip: Strip
  params: Partial<StripParams>
  track: MixerTrack
  source: IAudioBufferSourceNode<AnyAudioContext> | null
  /** Stops an arranged track's clip sources (tracks with clips; see arrangement/schedule-clips.ts). */
  stopClips: ((at?: number) => void) | null
  unsubscribe: () => void
}

export interface MixGraph {
  readonly ctx: AnyAudioContext
  apply(state: MixerState): void
  start(when: number, position: number, ids?: ReadonlySet<string>, handoff?: boolean): void
  stop(): void
  onLevels(cb: LevelsListener): () => void
  input(trackId: string): IAudioNode<AnyAudioContext> | null
  dispose(): void
}

/** The master strip (master volume / reverb) into a destination; the same for live and offline. */
export function createMasterStrip(ctx: AnyAudioContext, master: MasterSettings, destination: IAudioNode<AnyAudioContext>): Strip {
  const strip = createChannelStrip(ctx, masterStripParams(master)) as unknown as Strip
  strip.node.connect(destination as never)
  return strip
}

export async function prepareMixContext(ctx: AnyAudioContext): Promise<void> {
  await loadChannelStrip(ctx)
}

export function buildMixGraph(
  ctx: AnyAudioContext,
  state: MixerState,
  options: { destination: IAudioNode<AnyAudioContext>; master?: boolean },
): MixGraph {
  const listeners = new Set<LevelsListener>()
  const emit = (key: string, l: Levels) => listeners.forEach((cb) => cb(key, l))
  const mk = (initial: Partial<StripParams>): Strip => createChannelStrip(ctx, initial) as unknown as Strip

  const master = options.master === false ? null : createMasterStrip(ctx, state.master, options.destination)
  let masterParams = masterStripParams(state.master)
  const bus = master ? master.node : options.destination
  const unMaster = master ? master.onLevels((l) => emit(MASTER_KEY, { peak: l.peak, rms: l.rms })) : () => {}
  const tracks = new Map<string, TrackNodes>()

  function addTrack(t: MixerTrack) {
    const params = trackStripParams(t)
    const strip = mk(params)
    strip.node.connect(bus as never)
    const unsubscribe = strip.onLevels((l) => emit(t.id, { peak: l.peak, rms: l.rms }))
    tracks.set(t.id, { strip, params, track: t, source: null, stopClips: null, unsubscribe })
  }

  function removeTrack(id: string) {
    const n = tracks.get(id)
    if (!n) return
    stopSource(n)
    n.unsubscribe()
    n.strip.dispose()
    tracks.delete(id)
  }

  function setParams(strip: Strip, from: Partial<StripParams>, to: Partial<StripParams>) {
    for (const key of Object.keys(to) as StripParamName[]) {
      const v = to[key]
      if (v !== undefined && from[key] !== v) strip.set(key, v)
    }
  }

  /** Sources handed off to a loop's next cycle, still due to stop: pausing must silence them too. */
  const retiring = new Set<() => void>()

  function stopSource(n: TrackNodes, at?: number) {
    if (at !== undefined) {
      const stopClips = n.stopClips
      const src = n.source
      if (stopClips) {
        stopClips(at)
        retiring.add(() => stopClips())
      }
      if (src) {
        src.onended = () => src.disconnect()
        try {
          src.stop(at)
        } catch {
          // already ended
        }
        retiring.add(() => {
          try {
            src.stop()
          } catch {
            // already ended
          }
          src.disconnect()
        })
      }
      n.stopClips = null
      n.source = null
      return
    }
    n.stopClips?.()
    n.stopClips = null
    if (!n.source) return
    try {
      n.source.stop()
    } catch {
      // never started or already ended
    }
    n.source.disconnect()
    n.source = null
  }

  for (const t of state.tracks) addTrack(t)

  return {
    ctx,
    apply(next) {
      const ids = new Set(next.tracks.map((t) => t.id))
      for (const id of [...tracks.keys()]) if (!ids.has(id)) removeTrack(id)
      for (const t of next.tracks) {
        const n = tracks.get(t.id)
        if (!n) {
          addTrack(t)
          continue
        }
        const params = trackStripParams(t)
        setParams(n.strip, n.params, params)
        n.params = params
        n.track = t
      }
      const mp = masterStripParams(next.master)
      if (master) setParams(master, masterParams, mp)
      masterParams = mp
    },
    start(when, position, ids, handoff) {
      // Sources handed off earlier have stopped by now (or will at their time): forget them.
      if (handoff) retiring.clear()
      for (const n of tracks.values()) {
        if (ids && !ids.has(n.track.id)) continue
        stopSource(n, handoff ? when : undefined)
        const audio = getMixerAudio(n.track.audioId)
        if (!audio) continue
        const buffer = audioBufferFor(ctx, audio)
        if (n.track.clips) {
          n.stopClips = scheduleClips(ctx, buffer, n.track.clips, n.strip.node as never, when, position)
          continue
        }
        const into = position - n.track.offset
        if (into >= buffer.duration) continue
        const src = ctx.createBufferSource()
        src.buffer = buffer
        src.connect(n.strip.node as never)
        // A track that begins later on the timeline starts later; one already running starts mid-way.
        if (into >= 0) src.start(when, into)
        else src.start(when - into, 0)
        n.source = src
      }
    },
    stop() {
      for (const n of tracks.values()) stopSource(n)
      for (const stopNow of retiring) stopNow()
      retiring.clear()
    },
    onLevels(cb) {
      listeners.add(cb)
      return () => listeners.delete(cb)
    },
    input(trackId) {
      return (tracks.get(trackId)?.strip.node as IAudioNode<AnyAudioContext> | undefined) ?? null
    },
    dispose() {
      for (const id of [...tracks.keys()]) removeTrack(id)
      unMaster()
      master?.dispose()
      listeners.clear()
    },
  }
}
