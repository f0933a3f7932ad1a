import { useEffect, useState } from 'react'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { useListenRules } from '../../domain/economy/reward-rules.ts'
import { noCreditWords, pendingWords, qualifySecondsFor, useListenMoment } from '../../domain/economy/listen-moment.ts'

/** How long the earning moment stays up after the server credits a listen. */
export const EARN_MOMENT_MS = 5000

/**
 * The earning moment: when the server credits a listen, "+3 CUBE · Neon Drift" above the player
 * with the day's rewarded listens moving one step; until then, in the bar, how far the listen is
 * from counting; and when it earned nothing, why, in plain words. Signed-in listeners only.
 */
export function ListenEarnStatus() {
  const signedIn = useSessionStore((s) => s.status === 'signed-in')
  const credit = useListenMoment((s) => s.credit)
  // Each credit shows until its time is up (then its seq is marked done); its bar moves once mounted.
  const [doneSeq, setDoneSeq] = useState(0)
  const [movedSeq, setMovedSeq] = useState(0)

  useEffect(() => {
    if (!credit) return
    const seq = credit.seq
    const frame = requestAnimationFrame(() => requestAnimationFrame(() => setMovedSeq(seq)))
    const t = window.setTimeout(() => setDoneSeq(seq), EARN_MOMENT_MS)
    return () => {
      cancelAnimationFrame(frame)
      window.clearTimeout(t)
    }
  }, [credit])

  if (!signedIn) return null
  const showing = credit && doneSeq !== credit.seq
  const moved = credit !== null && movedSeq === credit.seq
  const cap = credit ? Math.max(credit.dailyCap, 1) : 1
  const listens = credit ? Math.min(moved ? credit.listensToday : credit.listensToday - 1, cap) : 0
  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none absolute bottom-full left-1/2 mb-2 w-max max-w-[92vw] -translate-x-1/2"
    >
      {showing && (
        <div data-testid="earn-moment" className="earn-moment rounded-xl border border-accent bg-panel px-4 py-2 text-center neon-box">
          <p className="text-base font-bold text-accent" data-testid="earn-moment-title">
            +{credit.credited} CUBE{credit.title ? ` · ${credit.title}` : ''}
          </p>
          <div className="mt-1 h-1.5 w-48 overflow-hidden rounded-full bg-line" aria-hidden="true">
            <div
              data-testid="earn-moment-progress"
              data-listens={listens}
              className="h-full rounded-full bg-accent transition-[width] duration-700 ease-out"
              style={{ width: `${(100 * Math.max(listens, 0)) / cap}%` }}
            />
          </div>
          <p className="mt-1 text-xs text-muted" data-testid="earn-moment-day">
            {credit.listensToday}/{credit.dailyCap} rewarded listens today · {credit.dailyEarned} CUBE earned today
          </p>
        </div>
      )}
    </div>
  )
}

/** One line in the bar: the current listen's standing with the server (nothing before its first answer). */
export function ListenStandingLine({ className = '' }: { className?: string }) {
  const signedIn = useSessionStore((s) => s.status === 'signed-in')
  const song = usePlayerStore((s) => s.currentSong)
  const playing = usePlayerStore((s) => s.isPlaying)
  const now = useListenMoment((s) => s.now)
  const rules = useListenRules()
  if (!signedIn || !song || !now || now.songId !== song.id) return null
  const words =
    now.reason === 'credited'
      ? `+${now.credited} CUBE credited for this listen.`
      : now.reason
        ? noCreditWords(now.reason, song.title, rules)
        : pendingWords(now.heardSeconds, qualifySecondsFor(song.seconds, rules), playing)
  return (
    <p
      data-testid="listen-standing"
      data-reason={now.reason ?? 'pending'}
      className={`truncate text-xs ${now.reason === 'credited' ? 'text-primary' : now.reason ? 'text-accent' : 'text-muted'} ${className}`}
      title={words}
    >
      {words}
    </p>
  )
}
