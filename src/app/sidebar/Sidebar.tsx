import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core'
import { Link, useLocation } from 'react-router-dom'
import { Icon } from '../../ui/Icon.tsx'
import { NAV_GROUPS, isActivePath, visibleItems, type NavGroup } from '../../config/navigation.ts'
import { useSidebarStore } from './sidebar-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { stepCoordinates } from './keyboard-step.ts'
import { SidebarGroup } from './SidebarGroup.tsx'
import { ThemePicker } from '../../features/theme/index.ts'
import { AccountChip } from '../../features/account/index.ts'
import { DEFAULT_SITE_TITLE, useSiteSettings } from '../../domain/appearance/site-branding.ts'
import { RailAccount } from '../../features/account/index.ts'

const groupByKey = new Map<string, NavGroup>(NAV_GROUPS.map((g) => [g.key, g]))

export function Sidebar({ narrow }: { narrow: boolean }) {
  const { order, expanded, open, toggleGroup, moveGroup, setOpen } = useSidebarStore()
  const isAdmin = useSessionStore((s) => s.isAdmin)
  const siteTitle = useSiteSettings((s) => s.site_title)
  const { pathname } = useLocation()
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: stepCoordinates }),
  )
  const groups = order
    .map((key) => groupByKey.get(key))
    .filter((g) => g !== undefined)
    .map((group) => ({ group, items: visibleItems(group, { isAdmin }) }))
    .filter(({ items }) => items.length > 0)

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) moveGroup(String(active.id), String(over.id))
  }
  const closeOnMobile = narrow ? () => setOpen(false) : undefined

  if (!narrow && !open) {
    // Desktop icon rail: every visible item as an icon, tooltips through aria-label/title.
    return (
      <nav
        aria-label="Main navigation"
        data-testid="sidebar"
        data-state="rail"
        className={
          'sticky top-0 flex h-screen w-16 shrink-0 flex-col items-center gap-1 overflow-y-auto ' +
          'overscroll-contain border-r border-line bg-panel py-3'
        }
      >
        <button
          type="button"
          onClick={() => setOpen(true)}
          className="mb-2 rounded p-2 text-primary hover:bg-line/40"
          aria-label="Expand sidebar"
        >
          <Icon name="panel" />
        </button>
        {groups.flatMap(({ items }) =>
          items.map((item) => {
            const active = isActivePath(pathname, item.to)
            return (
              <Link
                key={item.to}
                to={item.to}
                title={item.label}
                aria-label={item.label}
                aria-current={active ? 'page' : undefined}
                className={`rounded-md p-2 ${active ? 'bg-primary/15 text-primary' : 'text-muted hover:text-fg'}`}
              >
                <Icon name={item.icon} />
              </Link>
            )
          }),
        )}
        <div className="mt-auto">
          <RailAccount />
        </div>
      </nav>
    )
  }

  const panel = (
    <nav
      aria-label="Main navigation"
      data-testid="sidebar"
      data-state="open"
      className={`flex w-72 shrink-0 flex-col border-r border-line bg-panel ${narrow ? 'h-full' : 'sticky top-0 h-screen'}`}
    >
      <div className="flex items-center justify-between px-4 py-3">
        <Link to="/" className="font-display text-xl font-black tracking-widest text-primary neon-text" onClick={closeOnMobile}>
          {siteTitle === DEFAULT_SITE_TITLE ? (
            <>
              CUBE<span className="text-secondary">.</span>MUSIC
            </>
          ) : (
            <span data-testid="site-title">{siteTitle}</span>
          )}
        </Link>
        <button
          type="button"
          onClick={() => setOpen(false)}
          className="rounded p-2 text-muted hover:text-fg"
          aria-label={narrow ? 'Close menu' : 'Collapse sidebar'}
        >
          <Icon name={narrow ? 'close' : 'panel'} />
        </button>
      </div>
      <div className="min-h-0 flex-1 space-y-1 overflow-y-auto overscroll-contain px-2 pb-2">
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          {groups.map(({ group, items }) => (
            <SidebarGroup
              key={group.key}
              group={group}
              items={items}
              expanded={!!expanded[group.key]}
              onToggle={() => toggleGroup(group.key)}
              onNavigate={closeOnMobile}
            />
          ))}
        </DndContext>
      </div>
      <div className="space-y-1 border-t border-line p-2">
        <ThemePicker />
        <AccountChip />
      </div>
    </nav>
  )

  if (!narrow) return panel
  if (!open) return null
  return (
    <div className="fixed inset-0 z-40 flex" role="dialog" aria-modal="true" aria-label="Navigation menu">
      {panel}
      <button type="button" className="flex-1 bg-black/60" aria-label="Close menu" onClick={() => setOpen(false)} />
    </div>
  )
}
