import { describe, expect, it } from 'vitest'
import { walletFromRow } from '../../backend/wallet.ts'
import { AuthApiError, AuthRetryableFetchError } from '@supabase/supabase-js'
import { isSignupDisabled, serverMessage } from '../../backend/auth.ts'
import { backendConfig } from '../../backend/config.ts'
import { LOCAL_ANON_KEY } from '../../backend/local-defaults.ts'
import { describeLedgerEntry, ledgerToActivity } from './token-activity.ts'
import { relativeTime } from '../../lib/relative-time.ts'
import { SAMPLE_ACTIVITY, SAMPLE_WALLET } from './sample-wallet.ts'
import { achievementsFrom } from '../../domain/economy/achievements.ts'
import { capNote } from '../../domain/economy/reward-rules.ts'

describe('walletFromRow', () => {
  it('keeps today’s counters and zeroes counters that belong to an earlier UTC day', () => {
    const row = { balance: 130, daily_earned: 6, listens_today: 3, day: '2026-11-21' }
    expect(walletFromRow(row, '2026-11-21')).toEqual({ balance: 130, daily_earned: 6, listens_today: 3 })
    expect(walletFromRow(row, '2026-11-22')).toEqual({ balance: 130, daily_earned: 0, listens_today: 0 })
  })
})

describe('isSignupDisabled', () => {
  it('recognises GoTrue’s codes and messages for disabled e-mail sign-up', () => {
    expect(isSignupDisabled({ code: 'email_provider_disabled', message: 'Email signups are disabled' })).toBe(true)
    expect(isSignupDisabled({ code: 'signup_disabled', message: 'Signups not allowed for this instance' })).toBe(true)
    expect(isSignupDisabled({ message: 'Email signups are disabled' })).toBe(true)
    expect(isSignupDisabled({ code: 'user_already_exists', message: 'User already registered' })).toBe(false)
    expect(isSignupDisabled({ code: 'weak_password', message: 'Password should be at least 6 characters' })).toBe(false)
  })
})

describe('serverMessage', () => {
  it('passes on what the auth server said, and nothing when it never answered', () => {
    expect(serverMessage(new AuthApiError('Invalid login credentials', 400, 'invalid_credentials'))).toBe('Invalid login credentials')
    expect(serverMessage(new AuthRetryableFetchError('Failed to fetch', 0))).toBeUndefined()
    expect(serverMessage(new AuthApiError('upstream timeout', 502, undefined))).toBeUndefined()
    expect(serverMessage(new Error('boom'))).toBeUndefined()
  })
})

describe('backendConfig', () => {
  it('defaults to the page’s own origin and the local anon key, and honours the VITE_ overrides', () => {
    expect(backendConfig({} as ImportMetaEnv, 'http://127.0.0.1:4207')).toEqual({ url: 'http://127.0.0.1:4207', anonKey: LOCAL_ANON_KEY })
    expect(
      backendConfig({ VITE_SUPABASE_URL: 'https://abc.supabase.co/', VITE_SUPABASE_ANON_KEY: 'k' } as ImportMetaEnv, 'http://x'),
    ).toEqual({ url: 'https://abc.supabase.co', anonKey: 'k' })
  })
})

describe('ledgerToActivity', () => {
  const title = (id: string) => (id === 'neon-drift' ? 'Neon Drift' : undefined)
  it('maps credits to MINE and debits to BURN with a positive amount and a readable subject', () => {
    expect(
      ledgerToActivity({ id: '7', amount: 2, reason: 'listen', reference: 'neon-drift', created_at: '2026-11-21T10:00:00Z' }, title),
    ).toEqual({
      id: '7',
      action: 'MINE',
      amount: 2,
      type: 'listen',
      song: 'Neon Drift',
      timestamp: '2026-11-21T10:00:00Z',
    })
    expect(ledgerToActivity({ id: '8', amount: -50, reason: 'remix', reference: 'neon-drift', created_at: 'x' }, title)).toMatchObject({
      action: 'BURN',
      amount: 50,
      type: 'remix',
    })
    expect(ledgerToActivity({ id: '1', amount: 100, reason: 'welcome', reference: 'welcome', created_at: 'x' }, title)).toMatchObject({
      action: 'MINE',
      amount: 100,
      type: 'welcome',
      song: 'Welcome bonus',
    })
    expect(ledgerToActivity({ id: '9', amount: 3, reason: 'listen', reference: 'idb:mine', created_at: 'x' }, title).song).toBe(
      'A track from your Library',
    )
  })

  // No raw ids ("song:pub-7363…:twitter", UUIDs) in the history.
  it('says what each movement was for in words, never with an internal id', () => {
    const d = (reason: string, reference: string | null) => describeLedgerEntry(reason, reference, title)
    const uuid = '3f2b8c1e-4a5d-4e6f-8a9b-0c1d2e3f4a5b'
    expect(d('share', 'song:neon-drift:twitter')).toBe('Shared Neon Drift via Twitter')
    expect(d('share', 'song:pub-73631a2b3c4d5e6f7a8b9c0d1e2f3a4b:qr')).toBe('Shared A song via a QR code')
    expect(d('share', `user:${uuid}:copy_link`)).toBe('Shared a profile via a copied link')
    expect(d('comment', 'neon-drift')).toBe('Comment on Neon Drift')
    expect(d('reply', uuid)).toBe('Reply in a comment thread')
    expect(d('like', uuid)).toBe('Liked a comment')
    expect(d('comment_goal', '2026-11-25')).toBe('Daily comment goal bonus')
    expect(d('remix', 'neon-drift')).toBe('Remix of Neon Drift')
    expect(d('remix_refund', 'neon-drift')).toBe('Remix refunded: Neon Drift')
    expect(d('mint', uuid)).toBe('NFT minted')
    expect(d('proposal', uuid)).toBe('Governance proposal')
    expect(d('creator_bonus', uuid)).toBe('Creator bonus')
    for (const reason of ['share', 'comment', 'reply', 'like', 'remix', 'mint', 'proposal', 'odd_reason'])
      expect(d(reason, `song:pub-0123456789abcdef0123456789abcdef:${uuid}`)).not.toMatch(/pub-|[0-9a-f]{8}-[0-9a-f]{4}/)
  })
})

describe('relativeTime', () => {
  const now = Date.parse('2026-11-21T12:00:00Z')
  it('formats instants relative to now and passes sample text through', () => {
    expect(relativeTime('2026-11-21T11:59:50Z', now)).toBe('just now')
    expect(relativeTime('2026-11-21T11:55:00Z', now)).toBe('5 min ago')
    expect(relativeTime('2026-11-21T09:00:00Z', now)).toBe('3 h ago')
    expect(relativeTime('2026-11-19T12:00:00Z', now)).toBe('2 d ago')
    expect(relativeTime('2 min ago', now)).toBe('2 min ago')
  })
})

describe('visitor sample wallet', () => {
  it('is the specified preview: balance 158, daily earned 24, 13 of 20 listens, 7 history entries', () => {
    expect(SAMPLE_WALLET).toEqual({ balance: 158, daily_earned: 24, listens_today: 13 })
    expect(SAMPLE_ACTIVITY).toHaveLength(7)
  })
})

describe('achievementsFrom', () => {
  it('earns each achievement only from the recorded activity behind it', () => {
    const none = achievementsFrom({ listens: 0, welcomed: false, playlistsWithSongs: 0, favourites: 0 })
    expect(none.every((a) => !a.earned)).toBe(true)
    const some = achievementsFrom({ listens: 3, welcomed: true, playlistsWithSongs: 1, favourites: 2 })
    const earned = Object.fromEntries(some.map((a) => [a.title, a.earned]))
    expect(earned).toEqual({ 'Early Adopter': true, 'First Listen': true, '10 Listens': false, 'Playlist Curator': true, Collector: false })
    expect(some.find((a) => a.title === '10 Listens')!.progress).toEqual({ current: 3, target: 10 })
  })
})

describe('capNote', () => {
  it('states the cap as current/cap', () => {
    expect(capNote(20, 20)).toBe('Daily listening cap reached (20/20)')
  })
})
