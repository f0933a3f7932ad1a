import { useSessionStore } from '../../domain/session/session-store.ts'
import { capNote, qualifyRuleText, useListenRules } from '../../domain/economy/reward-rules.ts'
import { Link } from 'react-router-dom'

const NO_CREDIT_REASON: Record<string, string> = {
  song_limit: 'This song has earned twice today: other songs still earn, this one again tomorrow (UTC).',
  cube_cap: "Listening has paid today's most: more listening earns again from 00:00 UTC.",
  address_cap:
    'Your network address has earned its daily most across all its accounts (a bound no household reaches): ' +
    'rewards start again at 00:00 UTC.',
  own_song: 'Your own songs earn nothing when you play them: they pay you when others listen.',
  inactive: 'Rewards are paused after an hour without a click or a key: answer "Still listening?" to earn again.',
  unknown_song: 'This track is not part of the rewards catalogue.',
}

/** What the server credited for the latest listen of this song (the figure, not the advertised rate). */
export function ListenCreditNote({ songId }: { songId: string | null | undefined }) {
  const status = useSessionStore((s) => s.status)
  const last = useSessionStore((s) => s.lastListen)
  const balance = useSessionStore((s) => s.wallet?.balance)
  const rules = useListenRules()

  if (status === 'signed-out') {
    return (
      <p className="text-xs text-muted" data-testid="listen-credit-note">
        {/* Now Playing lives outside the app layout (no sidebar, no dialog host): log in from the profile. */}
        <Link to="/app/home" className="text-primary underline">
          Log in
        </Link>{' '}
        to earn CUBE: a listen counts after {qualifyRuleText(rules)}.
      </p>
    )
  }
  if (!last || last.songId !== songId) return null
  return (
    <p aria-live="polite" className={`text-sm ${last.credited > 0 ? 'text-primary' : 'text-accent'}`} data-testid="listen-credit-note">
      {last.credited > 0
        ? `+${last.credited} CUBE credited for this listen${balance === undefined ? '' : ` · balance ${balance} CUBE`}`
        : last.capReached
          ? `${capNote(last.listensToday, last.dailyCap)}: no CUBE for this listen.`
          : (NO_CREDIT_REASON[last.reason ?? ''] ?? 'No CUBE for this listen.')}
    </p>
  )
}
