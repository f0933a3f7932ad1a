import { useEffect, useState } from 'react'
import { fetchOwnPlaylistVisibility, fetchPublicPlaylists, setPlaylistPublic, type PublicPlaylist } from '../../backend/follows.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'

type OwnPlaylist = { id: string; name: string; is_public: boolean }

const fetchBoth = (userId: string, own: boolean) =>
  Promise.all([fetchPublicPlaylists(userId), own ? fetchOwnPlaylistVisibility(userId) : Promise.resolve([])])

/**
 * A profile's public playlists (null while loading) and, on your own profile (`own`), all your
 * account's playlists with the switch that makes each public.
 */
export function usePublicPlaylists(userId: string, own: boolean) {
  const [lists, setLists] = useState<PublicPlaylist[] | null>(null)
  const [mine, setMine] = useState<OwnPlaylist[]>([])

  useEffect(() => {
    let live = true
    fetchBoth(userId, own).then(
      ([shown, owned]) => {
        if (!live) return
        setLists(shown)
        setMine(owned)
      },
      (error: unknown) => notify.error(`Playlists could not be loaded: ${errorMessage(error)}`),
    )
    return () => {
      live = false
    }
  }, [userId, own])

  const setPublic = async (id: string, isPublic: boolean) => {
    // The switch follows the click at once; the server's answer then decides both lists.
    setMine((list) => list.map((p) => (p.id === id ? { ...p, is_public: isPublic } : p)))
    try {
      await setPlaylistPublic(id, isPublic)
      const [shown, owned] = await fetchBoth(userId, own)
      setLists(shown)
      setMine(owned)
    } catch (error) {
      notify.error(`Could not change the playlist: ${errorMessage(error)}`)
      setMine((list) => list.map((p) => (p.id === id ? { ...p, is_public: !isPublic } : p)))
    }
  }

  return { lists, mine, setPublic }
}
