import { expect, type Page } from '@playwright/test'
import { LOCAL_ANON_KEY } from './anon-key.ts'

// Signing up through the auth API instead of the dialog: one request instead of a dialog journey,
// for the specs whose subject is not registration (account.spec.ts keeps the UI sign-up). The
// session goes where supabase-js keeps it, so the app starts signed in exactly as after a reload.

export interface ApiUser {
  id: string
  email: string
  password: string
  username: string
  accessToken: string
}

/** supabase-js's default storage key for a project URL (`sb-<first host label>-auth-token`). */
export const sessionStorageKey = (origin: string): string => `sb-${new URL(origin).hostname.split('.')[0]}-auth-token`

let counter = 0
/** A username and e-mail no other test (or retry) uses. */
export function freshIdentity(prefix: string): { username: string; email: string } {
  const tag = `${Date.now().toString(36)}${process.pid.toString(36)}${(counter++).toString(36)}`
  const username = `${prefix}_${tag}`.slice(0, 20)
  return { username, email: `${prefix}-${tag}@cube.test`.toLowerCase() }
}

/**
 * Registers through POST /auth/v1/signup and seeds the session into the page's origin before its
 * first script runs (once per tab: a later sign-out in the test stays signed out after reloads).
 * Call before the page's first navigation. `wallet: false` leaves the wallet for the app to create;
 * `anonKey` is for a spec's own server (its data folder signs with its own secret).
 */
export async function signUpByApi(
  page: Page,
  options: { prefix?: string; username?: string; email?: string; password?: string; wallet?: boolean; anonKey?: string } = {},
): Promise<ApiUser> {
  const identity = freshIdentity(options.prefix ?? 'user')
  const username = options.username ?? identity.username
  const email = options.email ?? identity.email
  const password = options.password ?? 'a-long-enough-password'
  const response = await page.request.post('/auth/v1/signup', {
    headers: { apikey: options.anonKey ?? LOCAL_ANON_KEY, 'content-type': 'application/json' },
    data: { email, password, data: { username } },
  })
  expect(response.status(), await response.text()).toBe(200)
  const session = (await response.json()) as { access_token: string; user: { id: string } }
  const origin = new URL(response.url()).origin
  if (options.wallet !== false) {
    // What the app does on its first signed-in load (idempotent): the welcome balance is there
    // before the page asks, so a spec can count on 100 CUBE without waiting for a toast.
    const init = await page.request.post('/functions/v1/init-user-tokens', {
      headers: { apikey: options.anonKey ?? LOCAL_ANON_KEY, authorization: `Bearer ${session.access_token}` },
    })
    expect(init.status(), await init.text()).toBe(200)
  }
  await page.addInitScript(
    ({ key, value }) => {
      if (sessionStorage.getItem('cube-e2e-seeded') === key) return
      sessionStorage.setItem('cube-e2e-seeded', key)
      localStorage.setItem(key, value)
    },
    { key: sessionStorageKey(origin), value: JSON.stringify(session) },
  )
  return { id: session.user.id, email, password, username, accessToken: session.access_token }
}
