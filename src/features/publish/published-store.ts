/**
 * The signed-in user's published songs and the server's publishing rules, for the Library's
 * Published section and the publish dialog. Data only; the calls are in publish-service.ts.
 */
import { create } from 'zustand'
import type { CatalogueRow, PublishingRules } from '../../backend/publishing.ts'

interface PublishedState {
  rules: PublishingRules | null
  mine: CatalogueRow[]
  /** Whose songs `mine` holds (null: nobody signed in / not loaded). */
  ownerId: string | null
  status: 'idle' | 'loading' | 'ready' | 'error'
  set: (patch: Partial<Omit<PublishedState, 'set'>>) => void
}

export const usePublishedStore = create<PublishedState>()((set) => ({
  rules: null,
  mine: [],
  ownerId: null,
  status: 'idle',
  set: (patch) => set(patch),
}))
