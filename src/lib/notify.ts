/**
 * The app's one way to tell the user something. Stores, services, machines and components call
 * `notify(...)`; the only subscriber is src/app/Notifier.tsx, which shows the notice as a toast.
 * Nothing below src/app imports a toast library, so a service can be tested (and reused) without
 * one, and the presentation can change in one place.
 */
export type NoticeKind = 'message' | 'success' | 'error'

export interface NoticeOptions {
  description?: string
  /** A notice with the id of one still shown replaces it (e.g. one running reward message). */
  id?: string
  action?: { label: string; onClick: () => void }
  /** Stays until the user acts on it or closes it (a choice they must not miss, e.g. a restored draft). */
  persistent?: boolean
}

export interface Notice extends NoticeOptions {
  kind: NoticeKind
  title: string
}

type Listener = (notice: Notice) => void

const listeners = new Set<Listener>()
// Notices raised before the Notifier mounts (e.g. a restored session at start-up) wait here.
const pending: Notice[] = []
const MAX_PENDING = 20

function publish(notice: Notice): void {
  if (listeners.size === 0) {
    if (pending.length >= MAX_PENDING) pending.shift()
    pending.push(notice)
    return
  }
  for (const listener of listeners) listener(notice)
}

const send =
  (kind: NoticeKind) =>
  (title: string, options: NoticeOptions = {}) =>
    publish({ ...options, kind, title })

/** `notify(title)`, `notify.success(title, { description })`, `notify.error(...)`. */
export const notify = Object.assign(send('message'), { success: send('success'), error: send('error') })

/** For the app's Notifier only: receives every notice, first those raised before it subscribed. */
export function subscribeNotices(listener: Listener): () => void {
  listeners.add(listener)
  for (const notice of pending.splice(0)) listener(notice)
  return () => {
    listeners.delete(listener)
  }
}
