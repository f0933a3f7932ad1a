import { useMachine } from '@xstate/react'
import { useCallback, useEffect, useState } from 'react'
import {
  creditShare,
  fetchShareAnalytics,
  fetchShareRules,
  fetchShareableSongs,
  type ShareAnalytics,
  type ShareItemType,
  type SharePlatform,
  type ShareRules,
  type ShareableSong,
} from '../../backend/sharing.ts'
import { fetchProfile } from '../../backend/profile.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { LOCK_MS, createShareMachine, reasonText } from './share-machine.ts'
import { cacheShareCounts, cachedShareCounts, type ShareCounts } from './share-links.ts'

export const PLATFORM_LABEL: Record<SharePlatform, string> = {
  twitter: 'Twitter',
  facebook: 'Facebook',
  copy_link: 'Copy link',
  qr: 'QR code',
  share_now: 'Share Now',
}

export interface ShareItem {
  type: ShareItemType
  id: string
  title: string
}

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))
const shareMachine = createShareMachine({ credit: (r) => creditShare(r.itemType, r.itemId, r.platform), wait, now: () => Date.now() })

/** The share machine wired to the server: the credit lands in the wallet and is announced. */
export function useShare(onAnswered: () => void) {
  const [snapshot, send] = useMachine(shareMachine)
  const [, setTick] = useState(0)
  const { value, context } = snapshot

  useEffect(() => {
    if (value === 'credited' && context.answer) {
      const session = useSessionStore.getState()
      if (session.wallet) session.setWallet({ ...session.wallet, balance: context.answer.balance })
      session.bumpActivity()
      notify.success(`+${context.answer.credited} CUBE`, {
        id: 'share-reward',
        description:
          `${PLATFORM_LABEL[context.request!.platform]} share credited · ` +
          `${context.answer.shares_today}/${context.answer.daily_cap} today`,
      })
      onAnswered()
    } else if (value === 'notCredited') {
      notify(reasonText(context.reason, context.error), { id: 'share-reward' })
      onAnswered()
    }
  }, [value, context, onAnswered])

  const share = (item: ShareItem, platform: SharePlatform) => {
    send({ type: 'SHARE', request: { itemType: item.type, itemId: item.id, platform } })
    // Re-render when the lock ends.
    setTimeout(() => setTick((t) => t + 1), LOCK_MS + 20)
  }
  const locked = (platform: SharePlatform) => (context.lockedUntil[platform] ?? 0) > Date.now()
  return { share, locked, mining: value === 'mining', state: String(value), lastReason: context.reason }
}

export type ShareApi = ReturnType<typeof useShare>

/** The tracks the user may share (null while loading). */
export function useShareableSongs() {
  const [songs, setSongs] = useState<ShareableSong[] | null>(null)
  useEffect(() => {
    fetchShareableSongs().then(setSongs, (e: unknown) => notify.error('Could not load the tracks', { description: errorMessage(e) }))
  }, [])
  return songs
}

/**
 * What the sharing page shows around the buttons: the server's reward rules, the user's share
 * analytics and counts (cached for the next visit), and their username; `refresh` reads the
 * analytics again (after each share's answer).
 */
export function useShareOverview() {
  const user = useSessionStore((s) => s.user)
  const [rules, setRules] = useState<ShareRules | null>(null)
  const [analytics, setAnalytics] = useState<ShareAnalytics | null>(null)
  const [counts, setCounts] = useState<ShareCounts | null>(() => cachedShareCounts())
  const [username, setUsername] = useState<string | null>(null)

  useEffect(() => {
    fetchShareRules().then(setRules, (e: unknown) => console.error('[share] rules', e))
  }, [])
  const refresh = useCallback(() => {
    if (!user) return
    fetchShareAnalytics().then(
      (a) => {
        setAnalytics(a)
        setCounts(cacheShareCounts(a.by_platform))
      },
      (e: unknown) => console.error('[share] analytics', e),
    )
  }, [user])
  useEffect(refresh, [refresh])
  useEffect(() => {
    if (user)
      fetchProfile(user.id).then(
        (p) => setUsername(p?.username ?? null),
        (e: unknown) => console.error('[share] profile', e),
      )
  }, [user])
  return { rules, analytics, counts, username, refresh }
}
