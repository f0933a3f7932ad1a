import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import type { Song } from '../../lib/catalogue/song.ts'
import { MAX_PLAYLIST_NAME, playlistNameProblem, usePlaylistStore } from '../../domain/collection/playlist-store.ts'
import { Icon } from '../../ui/Icon.tsx'

/**
 * A menu button listing every playlist; choosing one adds the song (duplicates are refused).
 * "New playlist…" names a new one right in the menu and adds the song to it.
 */
export function AddToPlaylistMenu({ song }: { song: Song }) {
  const [open, setOpen] = useState(false)
  const [naming, setNaming] = useState(false)
  const [name, setName] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const close = () => {
    setOpen(false)
    setNaming(false)
    setName('')
    setProblem(null)
  }
  const createWithSong = (e: FormEvent) => {
    e.preventDefault()
    const why = playlistNameProblem(name)
    setProblem(why)
    if (why) return
    const store = usePlaylistStore.getState()
    const created = store.createPlaylist(name)
    if (created) {
      store.addSong(created.id, song)
      close()
    }
  }
  const playlists = usePlaylistStore((s) => s.playlists)
  const root = useRef<HTMLDivElement>(null)
  const menuId = useId()

  useEffect(() => {
    if (!open) return
    const onDown = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) close()
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close()
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
        onClick={() => (open ? close() : setOpen(true))}
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
                  close()
                }}
                className="block w-full truncate rounded px-3 py-2 text-left text-sm hover:bg-primary/10 focus:bg-primary/10"
              >
                {p.name}
              </button>
            </li>
          ))}
          <li role="none" className="mt-1 border-t border-line pt-1">
            {naming ? (
              <form onSubmit={createWithSong} className="space-y-1 p-1" aria-label="New playlist">
                <input
                  value={name}
                  onChange={(e) => setName(e.currentTarget.value)}
                  maxLength={MAX_PLAYLIST_NAME}
                  aria-label="New playlist name"
                  aria-invalid={problem ? true : undefined}
                  placeholder="Playlist name"
                  // eslint-disable-next-line jsx-a11y/no-autofocus -- opened by the user's "New playlist…" click
                  autoFocus
                  className="w-full rounded border border-line bg-bg px-2 py-1 text-sm text-fg placeholder:text-muted"
                />
                {problem && (
                  <p role="alert" className="text-xs text-amber-300">
                    {problem}
                  </p>
                )}
                <button type="submit" className="w-full rounded bg-primary px-2 py-1 text-sm font-semibold text-bg">
                  Create and add
                </button>
              </form>
            ) : (
              <button
                type="button"
                role="menuitem"
                onClick={() => setNaming(true)}
                className="flex w-full items-center gap-1 rounded px-3 py-2 text-left text-sm text-primary hover:bg-primary/10"
              >
                <Icon name="plus" size={14} /> New playlist…
              </button>
            )}
          </li>
        </ul>
      )}
    </div>
  )
}
