import { useDraggable, useDroppable } from '@dnd-kit/core'
import { Link, useLocation } from 'react-router-dom'
import { Icon } from '../../ui/Icon.tsx'
import { isActivePath, type NavGroup, type NavItem } from '../../config/navigation.ts'

interface Props {
  group: NavGroup
  items: NavItem[]
  expanded: boolean
  onToggle: () => void
  onNavigate?: () => void
}

export function SidebarGroup({ group, items, expanded, onToggle, onNavigate }: Props) {
  const { pathname } = useLocation()
  const drag = useDraggable({ id: group.key })
  const drop = useDroppable({ id: group.key })
  const setRef = (node: HTMLElement | null) => {
    drag.setNodeRef(node)
    drop.setNodeRef(node)
  }
  const style = drag.transform ? { transform: `translate3d(0, ${drag.transform.y}px, 0)`, zIndex: 10 } : undefined
  const listId = `nav-group-${group.key}`

  return (
    <section
      ref={setRef}
      style={style}
      data-testid={`nav-group-${group.key}`}
      data-group-key={group.key}
      data-drop-target={drop.isOver && !drag.isDragging ? 'true' : undefined}
      className={
        `rounded-lg transition-colors ${drop.isOver && !drag.isDragging ? 'bg-primary/10' : ''} ` +
        `${drag.isDragging ? 'opacity-80 neon-box' : ''}`
      }
    >
      <div className="flex items-center gap-1">
        <button
          type="button"
          className="cursor-grab touch-none rounded p-1 text-muted hover:text-primary"
          aria-label={`Reorder ${group.label} group`}
          {...drag.attributes}
          {...drag.listeners}
        >
          <Icon name="grip" size={14} />
        </button>
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={expanded}
          aria-controls={listId}
          className={
            'flex flex-1 items-center justify-between rounded px-2 py-1.5 text-xs font-semibold uppercase ' +
            'tracking-widest text-muted hover:text-fg'
          }
        >
          <span>{group.label}</span>
          <Icon name="chevron" size={14} className={`transition-transform ${expanded ? '' : '-rotate-90'}`} />
        </button>
      </div>
      {expanded && (
        <ul id={listId} className="mb-1 space-y-0.5">
          {items.map((item) => {
            const active = isActivePath(pathname, item.to)
            return (
              <li key={item.to}>
                <Link
                  to={item.to}
                  onClick={onNavigate}
                  aria-current={active ? 'page' : undefined}
                  data-active={active}
                  className={`flex items-center gap-3 rounded-md px-3 py-1.5 text-sm transition-colors ${
                    active
                      ? 'bg-primary/15 text-fg shadow-[inset_3px_0_0_var(--theme-primary)]'
                      : 'text-fg/80 hover:bg-line/40 hover:text-fg'
                  }`}
                >
                  <Icon name={item.icon} className={active ? 'text-primary' : undefined} />
                  <span>{item.label}</span>
                </Link>
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
