import { useFollow } from './user-profile.ts'

/** Follow / Unfollow for an account (a song's artist, a profile); nothing for the viewer's own. */
export function FollowButton({ profile, className = '' }: { profile: { user_id: string; username: string }; className?: string }) {
  const { me, self, following, busy, toggle } = useFollow(profile)
  if (self) return null
  return (
    <button
      type="button"
      onClick={() => void toggle()}
      disabled={busy || (me !== null && following === null)}
      aria-pressed={following === true}
      aria-label={`${following ? 'Unfollow' : 'Follow'} ${profile.username}`}
      data-testid="follow-artist"
      className={
        `rounded-full px-4 py-1 text-sm font-semibold disabled:opacity-60 ` +
        `${following ? 'border border-primary text-primary' : 'bg-primary text-bg'} ${className}`
      }
    >
      {following ? 'Following' : 'Follow'}
    </button>
  )
}
