/**
 * A tiny read-only hook for end-to-end audio measurements (Playwright mutes the speakers, so tests
 * measure renders and captured audio instead of listening):
 *
 *   window.__cubeStudio.renderOffline(): Promise<Float32Array[]>   the current mix, rendered offline
 *       through the same graph and settings the export uses, at the live context's sample rate
 *   window.__cubeStudio.trackAudio(name): { sampleRate, channels } | null   a track's decoded audio
 *   window.__cubeStudio.sampleRate(): number
 * It only reads state; it cannot change the mix.
 */
import { getAudioContext } from '../../engine/audio-context.ts'
import { getMixerAudio } from '../../engine/mixer-audio.ts'
import { renderMix } from '../../engine/offline-mix.ts'
import { mixerSnapshot, useMixerStore } from '../../stores/mixer-store.ts'

declare global {
  interface Window {
    __cubeStudio?: {
      renderOffline: () => Promise<Float32Array[]>
      trackAudio: (name: string) => { sampleRate: number; channels: Float32Array[] } | null
      sampleRate: () => number
    }
  }
}

export function installStudioDebugHook() {
  window.__cubeStudio = {
    renderOffline: () => renderMix(mixerSnapshot(), { sampleRate: getAudioContext().sampleRate }),
    trackAudio: (name) => {
      const t = useMixerStore.getState().tracks.find((x) => x.name === name)
      const a = t ? getMixerAudio(t.audioId) : undefined
      return a ? { sampleRate: a.sampleRate, channels: a.channels } : null
    },
    sampleRate: () => getAudioContext().sampleRate,
  }
}
