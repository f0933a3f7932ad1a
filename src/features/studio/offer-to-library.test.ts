import 'fake-indexeddb/auto'
import { beforeEach, describe, expect, it, vi } from 'vitest'

type Sent = { title: string; description?: string; action?: { label: string; onClick: () => void } }
const sent: Sent[] = []
vi.mock('../../lib/notify.ts', () => ({
  notify: Object.assign((title: string, o = {}) => void sent.push({ title, ...o }), {
    success: (title: string, o = {}) => void sent.push({ title, ...o }),
    error: (title: string, o = {}) => void sent.push({ title, ...o }),
  }),
}))
import { useLibraryPrefs } from '../../domain/collection/library-prefs.ts'
import { useLibraryStore } from '../../domain/collection/library-store.ts'
import { ORIGIN_COVERS } from '../../domain/collection/save-to-library.ts'
import { offerToLibrary } from './offer-to-library.ts'

// Every export and take went into the Library unasked. Now the notice offers
// "Save to Library", and only the user's setting saves without asking.

const entry = () => ({
  idPrefix: 'take',
  title: 'Microphone take',
  artist: 'Recorded by you',
  blob: new Blob([new Uint8Array(64)], { type: 'audio/wav' }),
  seconds: 2,
  origin: 'recording' as const,
})

beforeEach(() => {
  sent.length = 0
  useLibraryStore.setState({ userTracks: [] })
})

describe('offerToLibrary', () => {
  it('by default saves nothing and offers "Save to Library"; the action saves it with its own cover', async () => {
    useLibraryPrefs.setState({ autoSaveCreations: false })
    offerToLibrary(entry(), 'Recording saved', 'Added to the mixer')
    expect(useLibraryStore.getState().userTracks).toHaveLength(0)
    expect(sent).toEqual([
      { title: 'Recording saved', description: 'Added to the mixer.', action: expect.objectContaining({ label: 'Save to Library' }) },
    ])
    sent[0]!.action!.onClick()
    await vi.waitFor(() => expect(useLibraryStore.getState().userTracks).toHaveLength(1))
    expect(useLibraryStore.getState().userTracks[0]).toMatchObject({ title: 'Microphone take', image: ORIGIN_COVERS.recording })
    await vi.waitFor(() => expect(sent.map((s) => s.title)).toContain('Saved to your Library'))
  })

  it('with the setting on, saves at once and says where', async () => {
    useLibraryPrefs.setState({ autoSaveCreations: true })
    offerToLibrary(entry(), 'Recording saved', 'Added to the mixer')
    await vi.waitFor(() => expect(useLibraryStore.getState().userTracks).toHaveLength(1))
    await vi.waitFor(() =>
      expect(sent[0]).toMatchObject({ title: 'Recording saved', description: expect.stringContaining('saved to your Library') }),
    )
    expect(sent[0]!.action).toBeUndefined()
  })
})
