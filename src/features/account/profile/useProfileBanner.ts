import { useEffect, useState } from 'react'
import { supabase } from '../../../backend/client.ts'
import { BANNER_TYPES, bannerFileProblem, fetchBanner, removeBanner, uploadBanner } from '../../../backend/profile-banner.ts'
import { errorMessage } from '../../../lib/error-message.ts'
import { notify } from '../../../lib/notify.ts'

// The accepted types are the bucket's rule in src/backend/profile-banner.ts, which another change
// owns for now; the file picker reads them from here so no component imports the backend.
export { BANNER_TYPES }

export type UploadedBanner = { status: 'loading' } | { status: 'none' } | { status: 'image'; url: string }

/**
 * A user's uploaded banner as a blob URL (revoked when replaced), with upload and remove. The
 * image is downloaded: the bucket is public, but the local backend serves objects only through
 * the download route (no /object/public/ route), and this works on both backends. `userId` null
 * (a preview) never asks the server.
 */
export function useProfileBanner(userId: string | null) {
  const [uploaded, setUploaded] = useState<UploadedBanner>({ status: userId ? 'loading' : 'none' })
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (!userId) return
    let live = true
    fetchBanner(supabase(), userId)
      .then((blob) => {
        // An upload or removal made while this was in flight wins over what it fetched.
        if (live)
          setUploaded((now) =>
            now.status !== 'loading' ? now : blob ? { status: 'image', url: URL.createObjectURL(blob) } : { status: 'none' },
          )
      })
      .catch((error: unknown) => {
        // The generated banner is a fine stand-in when the upload cannot be fetched.
        console.warn('profile banner fetch failed', error)
        if (live) setUploaded({ status: 'none' })
      })
    return () => {
      live = false
    }
  }, [userId])

  const imageUrl = uploaded.status === 'image' ? uploaded.url : null
  useEffect(() => (imageUrl ? () => URL.revokeObjectURL(imageUrl) : undefined), [imageUrl])

  const upload = async (file: File) => {
    if (!userId) return
    const problem = bannerFileProblem(file)
    if (problem) {
      notify.error('Banner not changed', { description: problem })
      return
    }
    setBusy(true)
    try {
      await uploadBanner(supabase(), userId, file)
      setUploaded({ status: 'image', url: URL.createObjectURL(file) })
      notify.success('Banner updated')
    } catch (error) {
      notify.error('The banner could not be uploaded', { description: errorMessage(error) })
    } finally {
      setBusy(false)
    }
  }

  const remove = async () => {
    if (!userId) return
    setBusy(true)
    try {
      await removeBanner(supabase(), userId)
      setUploaded({ status: 'none' })
      notify.success('Banner removed', { description: 'Your generated banner is back.' })
    } catch (error) {
      notify.error('The banner could not be removed', { description: errorMessage(error) })
    } finally {
      setBusy(false)
    }
  }

  return { uploaded, imageUrl, busy, upload, remove }
}
