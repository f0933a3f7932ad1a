/**
 * The Remix Studio's client state: the picked source, its analysis, the settings the user edits,
 * the preview transport, and the drafts list. The service (remix-service.ts) does the work and
 * writes here; components read and call the service.
 */
import { create } from 'zustand'
import { defaultRemixSettings, type RemixSettings } from '../../engine/remix/remix-settings.ts'
import type { RemixDraft, RemixDraftSource } from '../../engine/remix/remix-drafts.ts'

export type RemixStatus = 'empty' | 'loading' | 'preparing' | 'ready' | 'error'

export interface RemixSourceInfo {
  bpm: number
  key: string
  tonic: number
  mode: 'major' | 'minor'
  /** Share of the source that has a clear single pitch (Auto Tune's material). */
  voiced: number
}

export interface RemixStoreState {
  source: RemixDraftSource | null
  /** Cover image of a catalogue or library source (for the Library entry of the result). */
  image: string | null
  status: RemixStatus
  /** 0–1 while loading or preparing. */
  progress: number
  stage: string
  error: string | null
  info: RemixSourceInfo | null
  settings: RemixSettings
  /** Output timeline (after Beat Match). */
  duration: number
  position: number
  playing: boolean
  loop: { start: number; end: number } | null
  /** Waveform peaks of the prepared source (max per bucket, 0–1). */
  peaks: Float32Array | null
  /** The tempo the preview is prepared at (Beat Match's target once it has re-stretched); null before. */
  preparedBpm: number | null
  draftId: string | null
  drafts: RemixDraft[]
}

export const initialRemixState = (): RemixStoreState => ({
  source: null,
  image: null,
  status: 'empty',
  progress: 0,
  stage: '',
  error: null,
  info: null,
  settings: defaultRemixSettings(),
  duration: 0,
  position: 0,
  playing: false,
  loop: null,
  peaks: null,
  preparedBpm: null,
  draftId: null,
  drafts: [],
})

export const useRemixStore = create<RemixStoreState>()(() => initialRemixState())
