import { useEffect, useRef, type ReactNode, type RefObject } from 'react'
import { Icon } from '../../ui/Icon.tsx'

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled])'

/** Keeps Tab inside the open drawer's panel, as a modal dialog should. */
function trapTab(panel: HTMLElement | null, e: KeyboardEvent) {
  if (!panel) return
  const items = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)]
  if (items.length === 0) return
  const first = items[0]!
  const last = items[items.length - 1]!
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault()
    last.focus()
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault()
    first.focus()
  }
}

/**
 * The mobile table of contents: a modal panel that slides in from the right. It stays mounted so
 * the slide can animate both ways; `invisible` removes it from the tab order and the a11y tree.
 * Visibility flips at once on opening (so the close button can take focus immediately) and only
 * after the slide-out on closing.
 */
export function TocDrawer({
  id,
  open,
  onClose,
  returnFocusTo,
  children,
}: {
  id: string
  open: boolean
  onClose: () => void
  returnFocusTo: RefObject<HTMLElement | null>
  children: ReactNode
}) {
  const panelRef = useRef<HTMLDivElement>(null)
  const closeRef = useRef<HTMLButtonElement>(null)
  const wasOpen = useRef(false)

  useEffect(() => {
    if (open) {
      closeRef.current?.focus()
      const onKey = (e: KeyboardEvent) => {
        if (e.key === 'Escape') onClose()
        else if (e.key === 'Tab') trapTab(panelRef.current, e)
      }
      document.addEventListener('keydown', onKey)
      wasOpen.current = true
      return () => document.removeEventListener('keydown', onKey)
    }
    if (wasOpen.current) {
      wasOpen.current = false
      returnFocusTo.current?.focus()
    }
  }, [open, onClose, returnFocusTo])

  return (
    <div
      className={`fixed inset-0 z-50 ${open ? 'visible' : 'invisible transition-[visibility] duration-300'}`}
      data-state={open ? 'open' : 'closed'}
    >
      <div
        aria-hidden="true"
        onClick={onClose}
        className={`absolute inset-0 bg-black/60 transition-opacity duration-300 ${open ? 'opacity-100' : 'opacity-0'}`}
      />
      <div
        id={id}
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-label="Whitepaper table of contents"
        className={
          `absolute right-0 top-0 flex h-full w-80 max-w-[85vw] flex-col gap-4 overflow-y-auto border-l ` +
          `border-line bg-panel p-4 transition-transform duration-300 ease-out ` +
          `${open ? 'translate-x-0' : 'translate-x-full'}`
        }
      >
        <div className="flex items-center justify-between">
          <span className="font-display text-sm font-bold tracking-widest text-primary">目录 · CONTENTS</span>
          <button
            ref={closeRef}
            type="button"
            onClick={onClose}
            aria-label="Close table of contents"
            className="rounded p-2 text-muted hover:text-fg"
          >
            <Icon name="close" />
          </button>
        </div>
        {children}
      </div>
    </div>
  )
}
