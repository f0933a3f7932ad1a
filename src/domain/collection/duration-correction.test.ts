import { beforeEach, describe, expect, it } from 'vitest'
import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { applyDeckEvent, usePlayerStore } from '../playback/player-store.ts'
import { startDurationCorrection } from './duration-correction.ts'
import { useLibraryStore } from './library-store.ts'

// Durations agree everywhere, the decoded file being the one source. A track of the
// user's own stored with a rounded length ('1:08', no seconds) takes the file's once it is played.

const take: Song = { id: 'rec-1', title: 'Take', artist: 'Me', duration: '1:08', image: '/x.svg', audioUrl: 'idb:rec-1' }
let stop: () => void = () => undefined

beforeEach(() => {
  stop()
  useLibraryStore.setState({ userTracks: [take], view: 'grid' })
  usePlayerStore.setState({ currentSong: null, queue: [], isPlaying: false, position: 0, duration: 0 })
  stop = startDurationCorrection()
})

describe('duration correction from the decoded file', () => {
  it('a played track of the user’s own takes the decoded length; text and seconds agree', () => {
    usePlayerStore.getState().playSong(take)
    expect(usePlayerStore.getState().duration).toBe(68)
    expect(useLibraryStore.getState().userTracks[0]).toBe(take) // its own stored guess is not the file's length
    applyDeckEvent({ type: 'time', position: 0, duration: 67.6 })
    expect(useLibraryStore.getState().userTracks[0]).toMatchObject({ id: 'rec-1', seconds: 67.6, duration: '1:07' })
  })

  it('leaves a length within one frame alone, and never rewrites a catalogue song', () => {
    useLibraryStore.setState({ userTracks: [{ ...take, seconds: 67.6, duration: '1:07' }] })
    usePlayerStore.getState().playSong(useLibraryStore.getState().userTracks[0]!)
    const before = useLibraryStore.getState().userTracks
    applyDeckEvent({ type: 'time', position: 1, duration: 67.62 })
    expect(useLibraryStore.getState().userTracks).toBe(before)

    usePlayerStore.getState().playSong(SAMPLE_SONGS[0]!)
    applyDeckEvent({ type: 'time', position: 1, duration: SAMPLE_SONGS[0]!.seconds! + 1 })
    expect(useLibraryStore.getState().userTracks).toBe(before)
  })
})
