import { create } from 'zustand'
import type { ListenRules } from './reward-rules.ts'

/**
 * The listen the server is measuring now, and the latest credit it announced: what the player shows
 * as the earning moment ("+3 CUBE · Neon Drift", the day's progress) and, until a listen is decided,
 * how far it is from counting. Fed by every listening answer (listen-reporter.ts), never by the
 * player's own clock: only the server's figures are shown.
 */
export interface ListenNow {
  songId: string
  title: string | null
  /** Seconds the server itself has heard of this play. */
  heardSeconds: number
  /** Null while undecided; 'credited' or why this listen earns nothing. */
  reason: string | null
  credited: number
}

export interface ListenCredit {
  songId: string
  title: string | null
  credited: number
  listensToday: number
  dailyCap: number
  dailyEarned: number
  /** Increments per credit, so the same figure twice still animates. */
  seq: number
}

interface ListenMomentState {
  now: ListenNow | null
  credit: ListenCredit | null
  setNow: (now: ListenNow | null) => void
  announceCredit: (credit: Omit<ListenCredit, 'seq'>) => void
  clear: () => void
}

export const useListenMoment = create<ListenMomentState>()((set) => ({
  now: null,
  credit: null,
  setNow: (now) => set({ now }),
  announceCredit: (credit) => set((s) => ({ credit: { ...credit, seq: (s.credit?.seq ?? 0) + 1 } })),
  clear: () => set({ now: null, credit: null }),
}))

/** Seconds of play a listen of a track this long needs before it counts (the server's rule). */
export const qualifySecondsFor = (trackSeconds: number | null | undefined, listen: ListenRules): number =>
  Math.ceil(
    trackSeconds && trackSeconds > 0 ? Math.min(listen.qualify_seconds, trackSeconds * listen.qualify_fraction) : listen.qualify_seconds,
  )

/** Why a listen earned nothing, in plain words (the server's reason codes). */
export function noCreditWords(reason: string, title: string | null, listen: ListenRules): string {
  const song = title ? `"${title}"` : 'This song'
  switch (reason) {
    case 'song_limit': {
      const times = listen.song_daily_limit === 2 ? 'twice' : `${listen.song_daily_limit} times`
      return `${song} already paid ${times} today: other songs still earn.`
    }
    case 'daily_cap':
      return `Daily cap reached (${listen.daily_cap} rewarded listens): listening earns again from 00:00 UTC.`
    case 'cube_cap':
      return `Listening has paid today's most (${listen.daily_cube_cap} CUBE): it earns again from 00:00 UTC.`
    case 'own_song':
      return 'Your own song earns nothing when you play it: it pays you when others listen.'
    case 'inactive':
      return 'Rewards paused after an hour without a click or a key: answer "Still listening?" to earn again.'
    case 'unknown_song':
      return 'This track is not part of the rewards catalogue.'
    default:
      return 'No CUBE for this listen.'
  }
}

/** What an undecided listen is waiting for. */
export function pendingWords(heardSeconds: number, qualifySeconds: number, playing: boolean): string {
  const heard = Math.min(Math.floor(heardSeconds), qualifySeconds)
  return playing
    ? `Not yet ${qualifySeconds} s: this listen earns once ${qualifySeconds} s have played (${heard} s so far).`
    : `Paused after ${heard} s: a listen earns after ${qualifySeconds} s of play.`
}
