import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { getAudioBlob, parseIdbAudioUrl } from '../../lib/user-audio-store.ts'
import { isSong, useLibraryStore } from './library-store.ts'
import { ORIGIN_COVERS, saveAudioToLibrary, uniqueTitle } from './save-to-library.ts'

describe('saveAudioToLibrary (exports, takes and remixes become Library tracks)', () => {
  it('stores the audio in IndexedDB and adds a playable track with its title, artist and duration', async () => {
    const blob = new Blob([new Uint8Array(1000)], { type: 'audio/wav' })
    const song = await saveAudioToLibrary({
      idPrefix: 'mix',
      title: 'My Project (Mix)',
      artist: 'Exported from the studio',
      blob,
      seconds: 125.4,
      origin: 'export',
    })
    expect(song.id).toMatch(/^mix-/)
    expect(song.duration).toBe('2:05')
    expect(useLibraryStore.getState().userTracks[0]).toEqual(song)
    expect((await getAudioBlob(parseIdbAudioUrl(song.audioUrl))).size).toBe(1000)
  })

  // Duplicates had the same name and every item an "AI generated" cover.
  it('gives each title once and each origin its own cover', async () => {
    useLibraryStore.setState({ userTracks: [] })
    const blob = new Blob([new Uint8Array(100)], { type: 'audio/wav' })
    const take = (origin: 'recording' | 'export') =>
      saveAudioToLibrary({ idPrefix: 'take', title: 'Night (Mix)', artist: 'Recorded by you', blob, seconds: 3, origin })
    const titles = [(await take('recording')).title, (await take('recording')).title, (await take('export')).title]
    expect(titles).toEqual(['Night (Mix)', 'Night (Mix) 2', 'Night (Mix) 3'])
    expect(useLibraryStore.getState().userTracks.map((t) => t.image)).toEqual([
      ORIGIN_COVERS.export,
      ORIGIN_COVERS.recording,
      ORIGIN_COVERS.recording,
    ])
    expect(new Set(Object.values(ORIGIN_COVERS)).size).toBe(4)
    expect(uniqueTitle('  ', [])).toBe('Untitled')
    expect(uniqueTitle('a', ['A', 'a 2'])).toBe('a 3')
  })

  it("a remix keeps the server's remix id, which survives the Library's reload; a malformed one is not trusted", async () => {
    const blob = new Blob([new Uint8Array(10)], { type: 'audio/wav' })
    const song = await saveAudioToLibrary({
      idPrefix: 'remix',
      title: 'X (Remix)',
      artist: 'Remixed by you',
      blob,
      seconds: 3,
      origin: 'remix',
      remixId: 'r-1',
    })
    expect(song.remixId).toBe('r-1')
    expect(isSong(JSON.parse(JSON.stringify(song)))).toBe(true)
    expect(isSong({ ...song, remixId: 42 })).toBe(false)
    const plain = await saveAudioToLibrary({ idPrefix: 'mix', title: 'Y', artist: 'Exported', blob, seconds: 3, origin: 'export' })
    expect('remixId' in plain).toBe(false)
  })
})
