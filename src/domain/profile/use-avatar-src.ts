import { useEffect, useState } from 'react'
import { isOwnPictureUrl } from '../../backend/account-settings.ts'
import { supabase } from '../../backend/client.ts'
import { backendConfig } from '../../backend/config.ts'
import { avatarObjectPath, downloadAvatar } from '../../backend/profile-avatar.ts'

/**
 * What an <img> may show for a stored avatar address. An object of the avatars bucket is not
 * public: it is downloaded through the API as the signed-in user (or visitor), so RLS decides
 * (a private profile's avatar never reaches others), and shown as a blob URL. Pictures made in
 * the browser and our own paths show as they are; third-party addresses never load.
 */
export function useAvatarSrc(url: string | null): string | null {
  const backendUrl = backendConfig().url
  const path = avatarObjectPath(url, backendUrl)
  const [loaded, setLoaded] = useState<{ url: string; src: string | null } | null>(null)

  useEffect(() => {
    if (!path || !url) return
    let live = true
    let objectUrl: string | null = null
    downloadAvatar(supabase(), path)
      .then((blob) => {
        if (!live) return
        objectUrl = blob ? URL.createObjectURL(blob) : null
        setLoaded({ url, src: objectUrl })
      })
      .catch(() => live && setLoaded({ url, src: null }))
    return () => {
      live = false
      if (objectUrl) URL.revokeObjectURL(objectUrl)
    }
  }, [path, url])

  if (path) return loaded?.url === url ? loaded.src : null
  return isOwnPictureUrl(url, backendUrl) ? url : null
}
