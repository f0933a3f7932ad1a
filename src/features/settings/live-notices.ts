import { subscribeNotices } from '../../backend/account-settings.ts'
import { supabase } from '../../backend/client.ts'
import { notify } from '../../lib/notify.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'

// While someone is signed in, what the server notifies them of (replies, followers, closed votes,
// completed mints; filtered by their preferences on the server) appears as a toast with a link.

let started = false

/** Client-side navigation without the router object: the router follows popstate, the music keeps playing. */
const goTo = (path: string) => {
  window.history.pushState({}, '', path)
  window.dispatchEvent(new PopStateEvent('popstate'))
}

export function startLiveNotices(navigate: (path: string) => void = goTo): void {
  if (started) return
  started = true
  let stop: (() => void) | undefined
  let current: string | undefined
  const follow = (userId: string | undefined) => {
    if (userId === current) return
    stop?.()
    stop = undefined
    current = userId
    if (!userId) return
    stop = subscribeNotices(supabase(), userId, (n) => {
      notify(n.title, { description: n.body, action: n.link ? { label: 'Open', onClick: () => navigate(n.link!) } : undefined })
    })
  }
  follow(useSessionStore.getState().user?.id)
  useSessionStore.subscribe((s) => follow(s.user?.id))
}
