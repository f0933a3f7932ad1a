import { APP_ROUTES, appLink, type NavGroupKey, type NavIcon } from './routes.ts'

export interface NavItem {
  label: string
  to: string
  icon: NavIcon
  /** Shown only to signed-in administrators (role decided by the server). */
  adminOnly?: boolean
}

export interface NavGroup {
  key: NavGroupKey
  label: string
  icon: NavIcon
  items: NavItem[]
}

const GROUPS: readonly Omit<NavGroup, 'items'>[] = [
  { key: 'main', label: 'Home', icon: 'home' },
  { key: 'studio', label: 'Music Studio', icon: 'music' },
  { key: 'earn', label: 'Earns', icon: 'cube' },
  { key: 'assets', label: 'Assets', icon: 'wallet' },
]

/** The sidebar's groups, derived from the route table (src/config/routes.ts). */
export const NAV_GROUPS: readonly NavGroup[] = GROUPS.map((group) => ({
  ...group,
  items: APP_ROUTES.flatMap((route) =>
    route.nav?.group === group.key
      ? [{ label: route.nav.label, to: appLink(route), icon: route.nav.icon, ...(route.nav.adminOnly ? { adminOnly: true } : {}) }]
      : [],
  ),
}))

export const NARROW_BREAKPOINT_PX = 768
export const KEYBOARD_DRAG_STEP_PX = 25

const normalise = (path: string) => {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path
  return trimmed.replace(/^\/app(?=\/|$)/, '') || '/'
}

/** The active rule: equal paths, with or without the /app prefix, ignoring a trailing slash. */
export function isActivePath(current: string, itemRoute: string): boolean {
  return normalise(current) === normalise(itemRoute)
}

export function visibleItems(group: NavGroup, viewer: { isAdmin: boolean }): NavItem[] {
  return group.items.filter((item) => !item.adminOnly || viewer.isAdmin)
}

/**
 * Repairs a stored group order: unknown keys and duplicates are dropped, groups missing from
 * the stored list are appended in their default place, so a stale order can never hide a group.
 */
export function repairGroupOrder(stored: unknown, groups: readonly NavGroup[] = NAV_GROUPS): string[] {
  const known: string[] = groups.map((g) => g.key)
  const seen = new Set<string>()
  const order: string[] = []
  if (Array.isArray(stored)) {
    for (const key of stored) {
      if (typeof key === 'string' && known.includes(key) && !seen.has(key)) {
        seen.add(key)
        order.push(key)
      }
    }
  }
  for (const key of known) if (!seen.has(key)) order.push(key)
  return order
}

export function moveKey(order: readonly string[], from: string, to: string): string[] {
  const fromIndex = order.indexOf(from)
  const toIndex = order.indexOf(to)
  if (fromIndex < 0 || toIndex < 0 || fromIndex === toIndex) return [...order]
  const next = [...order]
  next.splice(fromIndex, 1)
  next.splice(toIndex, 0, from)
  return next
}
