import type { MixerState } from './mixer-model.ts'
import { hasMixerAudio } from './mixer-audio.ts'

/** A track's placement on the timeline as last scheduled: a change restarts only that track. */
export interface Placement {
  offset: number
  clips: MixerState['tracks'][number]['clips']
  audioId: string
  ready: boolean
}

export const placementsOf = (state: MixerState): Map<string, Placement> =>
  new Map(state.tracks.map((t) => [t.id, { offset: t.offset, clips: t.clips, audioId: t.audioId, ready: hasMixerAudio(t.audioId) }]))
