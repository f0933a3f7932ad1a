import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { getAudioBlob, parseIdbAudioUrl } from '../../lib/user-audio-store.ts'
import { useLibraryStore } from './library-store.ts'
import { saveAudioToLibrary } from './save-to-library.ts'

describe('saveAudioToLibrary (exports, takes and remixes become Library tracks)', () => {
  it('stores the audio in IndexedDB and adds a playable track with its title, artist and duration', async () => {
    const blob = new Blob([new Uint8Array(1000)], { type: 'audio/wav' })
    const song = await saveAudioToLibrary({
      idPrefix: 'mix',
      title: 'My Project (Mix)',
      artist: 'Exported from the studio',
      blob,
      seconds: 125.4,
    })
    expect(song.id).toMatch(/^mix-/)
    expect(song.duration).toBe('2:05')
    expect(useLibraryStore.getState().userTracks[0]).toEqual(song)
    expect((await getAudioBlob(parseIdbAudioUrl(song.audioUrl))).size).toBe(1000)
  })
})
