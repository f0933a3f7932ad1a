import { useEffect, useId, useRef, useState } from 'react'
import type { Song } from '../../lib/catalogue/song.ts'
import { usePlaylistStore } from '../../domain/collection/playlist-store.ts'
import { Icon } from '../../ui/Icon.tsx'

/** A menu button listing the playlists; choosing one adds the song (duplicates are refused). */
export function AddToPlaylistMenu({ song }: { song: Song }) {
  const [open, setOpen] = useState(false)
  const playlists = usePlaylistStore((s) => s.playlists)
  const root = useRef<HTMLDivElement>(null)
  const menuId = useId()

  useEffect(() => {
    if (!open) return
    const onDown = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false)
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false)
    }
    document.addEventListener('pointerdown', onDown)
    document.addEventListener('keydown', onKey)
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus()
    return () => {
      document.removeEventListener('pointerdown', onDown)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  const onMenuKey = (e: React.KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return
    e.preventDefault()
    const items = [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]
    const i = items.indexOf(document.activeElement as HTMLElement)
    items[(i + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus()
  }

  return (
    <div ref={root} className="relative">
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Add ${song.title} to playlist`}
        title="Add to playlist"
        className="rounded p-1.5 text-muted hover:text-primary"
      >
        <Icon name="list" size={18} />
      </button>
      {open && (
        <ul
          id={menuId}
          role="menu"
          aria-label={`Playlists for ${song.title}`}
          onKeyDown={onMenuKey}
          className="panel absolute right-0 z-30 mt-1 w-52 p-1 shadow-lg"
        >
          {playlists.map((p) => (
            <li key={p.id} role="none">
              <button
                type="button"
                role="menuitem"
                title={p.name}
                onClick={() => {
                  usePlaylistStore.getState().addSong(p.id, song)
                  setOpen(false)
                }}
                className="block w-full truncate rounded px-3 py-2 text-left text-sm hover:bg-primary/10 focus:bg-primary/10"
              >
                {p.name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
