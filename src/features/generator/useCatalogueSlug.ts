import { useEffect, useState } from 'react'
import { fetchSongById } from '../../backend/publishing.ts'

/** The /song/{slug} of the catalogue song with this id: undefined while asking, null when there is none. */
export function useCatalogueSlug(id: string) {
  const [slug, setSlug] = useState<string | null | undefined>(undefined)
  useEffect(() => {
    let live = true
    fetchSongById(id).then(
      (row) => live && setSlug(row?.slug ?? null),
      () => live && setSlug(null),
    )
    return () => {
      live = false
    }
  }, [id])
  return slug
}
