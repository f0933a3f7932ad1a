import { create } from 'zustand'
import { readStored, writeStored } from '../../lib/stored-value.ts'
import { NAV_GROUPS, NARROW_BREAKPOINT_PX, moveKey, repairGroupOrder } from '../../config/navigation.ts'

export const SIDEBAR_ORDER_KEY = 'sidebar-group-order'

const isNarrow = () => typeof window !== 'undefined' && window.innerWidth < NARROW_BREAKPOINT_PX

function initialExpanded(): Record<string, boolean> {
  const narrow = isNarrow()
  return Object.fromEntries(NAV_GROUPS.map((g) => [g.key, !narrow || g.key === 'main']))
}

interface SidebarState {
  order: string[]
  expanded: Record<string, boolean>
  /** Desktop: full width vs icon rail. Mobile: drawer open vs closed. */
  open: boolean
  toggleGroup: (key: string) => void
  moveGroup: (from: string, to: string) => void
  setOpen: (open: boolean) => void
}

export const useSidebarStore = create<SidebarState>()((set, get) => ({
  order: repairGroupOrder(readStored(SIDEBAR_ORDER_KEY, (raw) => raw)),
  expanded: initialExpanded(),
  open: !isNarrow(),
  toggleGroup: (key) => set({ expanded: { ...get().expanded, [key]: !get().expanded[key] } }),
  moveGroup: (from, to) => {
    const order = moveKey(get().order, from, to)
    writeStored(SIDEBAR_ORDER_KEY, order)
    set({ order })
  },
  setOpen: (open) => set({ open }),
}))
