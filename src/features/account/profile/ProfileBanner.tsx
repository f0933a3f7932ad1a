import { useId, useMemo, useRef } from 'react'
import { useThemeColors } from '../../../domain/appearance/useThemeColors.ts'
import { BANNER_TYPES, useProfileBanner } from './useProfileBanner.ts'
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

/**
 * The profile's banner: the user's uploaded image when they have one, otherwise one generated
 * from their username in the theme's colours. `userId` null (preview) shows the generated one
 * with no controls. Mount it with key={userId}: its state belongs to one user.
 */
export function ProfileBanner({ username, userId }: { username: string; userId: string | null }) {
  const { uploaded, imageUrl, busy, upload, remove } = useProfileBanner(userId)
  const inputRef = useRef<HTMLInputElement>(null)
  const inputId = useId()

  const onFile = async (file: File | undefined) => {
    if (inputRef.current) inputRef.current.value = ''
    if (file) await upload(file)
  }

  return (
    <div className="relative h-36 overflow-hidden bg-bg" data-testid="profile-banner" data-banner={uploaded.status}>
      {imageUrl ? (
        <img
          src={imageUrl}
          alt={`${username}'s banner`}
          className="absolute inset-0 h-full w-full object-cover"
          data-testid="profile-banner-image"
        />
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
            className={
              `cursor-pointer rounded-md border border-primary/60 bg-bg/80 px-2.5 py-1 text-xs font-semibold ` +
              `text-primary hover:bg-primary/10 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 ` +
              `peer-focus-visible:outline-primary ${busy ? 'opacity-60' : ''}`
            }
          >
            {busy ? 'Saving…' : 'Upload banner'}
          </label>
          {imageUrl && (
            <button
              type="button"
              onClick={() => void remove()}
              disabled={busy}
              className="rounded-md border border-line bg-bg/80 px-2.5 py-1 text-xs font-semibold text-fg hover:bg-primary/10"
            >
              Remove banner
            </button>
          )}
        </div>
      )}
    </div>
  )
}
