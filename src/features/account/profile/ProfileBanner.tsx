import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { supabase } from '../../../backend/client.ts'
import { BANNER_TYPES, bannerFileProblem, fetchBanner, removeBanner, uploadBanner } from '../../../backend/profile-banner.ts'
import { notify } from '../../../lib/notify.ts'
import { useThemeColors } from '../../../domain/appearance/useThemeColors.ts'
import { BANNER_HEIGHT, BANNER_WIDTH, bannerShapes } from './banner-pattern.ts'

function GeneratedBanner({ username }: { username: string }) {
  const colors = useThemeColors()
  const shapes = useMemo(() => bannerShapes(username, colors), [username, colors])
  return (
    <svg
      viewBox={`0 0 ${BANNER_WIDTH} ${BANNER_HEIGHT}`}
      preserveAspectRatio="xMidYMid slice"
      className="absolute inset-0 h-full w-full"
      aria-hidden
      data-testid="profile-banner-generated"
    >
      {shapes.map((s, i) =>
        s.kind === 'rect' ? (
          <rect key={i} x={s.x} y={s.y} width={s.width} height={s.height} fill={s.fill} opacity={s.opacity} />
        ) : s.kind === 'circle' ? (
          <circle key={i} cx={s.cx} cy={s.cy} r={s.r} fill={s.fill} opacity={s.opacity} />
        ) : (
          <polyline key={i} points={s.points} stroke={s.stroke} strokeWidth={s.strokeWidth} opacity={s.opacity} fill="none" />
        ),
      )}
    </svg>
  )
}

type Uploaded = { status: 'loading' } | { status: 'none' } | { status: 'image'; url: string }

/**
 * The profile's banner: the user's uploaded image when they have one, otherwise one generated
 * from their username in the theme's colours. `userId` null (preview) shows the generated one
 * with no controls. Mount it with key={userId}: its state belongs to one user. The image is
 * downloaded into a blob URL: the bucket is public, but the local backend serves objects only
 * through the download route (no /object/public/ route), and this works on both backends.
 */
export function ProfileBanner({ username, userId }: { username: string; userId: string | null }) {
  const [uploaded, setUploaded] = useState<Uploaded>({ status: userId ? 'loading' : 'none' })
  const [busy, setBusy] = useState(false)
  const inputRef = useRef<HTMLInputElement>(null)
  const inputId = useId()

  useEffect(() => {
    if (!userId) return
    let live = true
    fetchBanner(supabase(), userId)
      .then((blob) => {
        // An upload or removal made while this was in flight wins over what it fetched.
        if (live) setUploaded((now) => (now.status !== 'loading' ? now : blob ? { status: 'image', url: URL.createObjectURL(blob) } : { status: 'none' }))
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

  const onFile = async (file: File | undefined) => {
    if (inputRef.current) inputRef.current.value = ''
    if (!file || !userId) return
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
      notify.error('The banner could not be uploaded', { description: error instanceof Error ? error.message : String(error) })
    } finally {
      setBusy(false)
    }
  }

  const onRemove = async () => {
    if (!userId) return
    setBusy(true)
    try {
      await removeBanner(supabase(), userId)
      setUploaded({ status: 'none' })
      notify.success('Banner removed', { description: 'Your generated banner is back.' })
    } catch (error) {
      notify.error('The banner could not be removed', { description: error instanceof Error ? error.message : String(error) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="relative h-36 overflow-hidden bg-bg" data-testid="profile-banner" data-banner={uploaded.status}>
      {imageUrl ? (
        <img src={imageUrl} alt={`${username}'s banner`} className="absolute inset-0 h-full w-full object-cover" data-testid="profile-banner-image" />
      ) : uploaded.status === 'none' ? (
        <GeneratedBanner username={username} />
      ) : null}
      {userId && (
        <div className="absolute right-2 top-2 flex gap-2">
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept={BANNER_TYPES.join(',')}
            className="peer sr-only"
            disabled={busy}
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
          <label
            htmlFor={inputId}
            className={`cursor-pointer rounded-md border border-primary/60 bg-bg/80 px-2.5 py-1 text-xs font-semibold text-primary hover:bg-primary/10 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-primary ${busy ? 'opacity-60' : ''}`}
          >
            {busy ? 'Saving…' : 'Upload banner'}
          </label>
          {imageUrl && (
            <button type="button" onClick={() => void onRemove()} disabled={busy} className="rounded-md border border-line bg-bg/80 px-2.5 py-1 text-xs font-semibold text-fg hover:bg-primary/10">
              Remove banner
            </button>
          )}
        </div>
      )}
    </div>
  )
}
