/**
 * A tiny read-only hook for end-to-end audio measurements (Playwright mutes the speakers, so tests
 * measure renders and captured audio instead of listening):
 *
 *   window.__cubeStudio.renderOffline(options?: { engine?: 'workers' | 'graph' }): Promise<Float32Array[]>
 *       the current mix rendered offline at the live context's sample rate: as the export renders
 *       it (default), or { engine: 'graph' }: the live graph itself in one offline context
 *   window.__cubeStudio.trackAudio(name): { sampleRate, channels } | null   a track's decoded audio
 *   window.__cubeStudio.tracks(): { name, type, offset, duration }[]   timeline placement of each track
 *   window.__cubeStudio.sampleRate(): number
 *   window.__cubeStudio.clips(): { track, clips: Clip[] }[]   each track's arrangement (implicit clip included)
 *   window.__cubeStudio.transport(): { playing, position, wallMs, latency }   the transport now, with Date.now()
 *       and the output latency (s) it is heard after
 *   window.__cubeStudio.positionAt(wallMs): number | null   timeline seconds heard at that Date.now() instant
 *       (null when not playing): two studios asked for one instant must agree when they play together
 * It only reads state; it cannot change the mix.
 */
import { getAudioContext } from '../../../engine/audio-context.ts'
import { getMixerAudio } from '../../../engine/mixer-audio.ts'
import { renderMix, type MixEngine } from '../../../engine/offline-mix.ts'
import { mixerSnapshot, useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { trackClips, type Clip } from '../../../engine/arrangement/clip.ts'
import { mixerEngine } from '../../../engine/mixer-engine.ts'
import { contextTimeHeardAt } from '../../../engine/context-clock.ts'
import { outputLatencySeconds } from '../../../engine/output-latency.ts'

declare global {
  interface Window {
    __cubeStudio?: {
      renderOffline: (options?: { engine?: MixEngine }) => Promise<Float32Array[]>
      trackAudio: (name: string) => { sampleRate: number; channels: Float32Array[] } | null
      tracks: () => { name: string; type: string; offset: number; duration: number }[]
      sampleRate: () => number
      clips: () => { track: string; clips: Clip[] }[]
      transport: () => { playing: boolean; position: number; wallMs: number; latency: number }
      positionAt: (wallMs: number) => number | null
    }
  }
}

export function installStudioDebugHook() {
  window.__cubeStudio = {
    renderOffline: (options) => renderMix(mixerSnapshot(), { sampleRate: getAudioContext().sampleRate, engine: options?.engine }),
    trackAudio: (name) => {
      const t = useMixerStore.getState().tracks.find((x) => x.name === name)
      const a = t ? getMixerAudio(t.audioId) : undefined
      return a ? { sampleRate: a.sampleRate, channels: a.channels } : null
    },
    tracks: () => useMixerStore.getState().tracks.map(({ name, type, offset, duration }) => ({ name, type, offset, duration })),
    sampleRate: () => getAudioContext().sampleRate,
    clips: () => useMixerStore.getState().tracks.map((t) => ({ track: t.name, clips: trackClips(t).map((c) => ({ ...c })) })),
    transport: () => ({
      playing: mixerEngine.isPlaying(),
      position: mixerEngine.position(),
      wallMs: Date.now(),
      latency: outputLatencySeconds(getAudioContext()),
    }),
    // Date.now() is the machine's clock, shared by every page of the test's browser.
    positionAt: (wallMs) =>
      mixerEngine.timelinePositionAt(contextTimeHeardAt(getAudioContext(), performance.now() + (wallMs - Date.now()))),
  }
}
