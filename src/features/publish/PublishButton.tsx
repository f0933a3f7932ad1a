import { useState } from 'react'
import type { Song } from '../../lib/catalogue/song.ts'
import { notify } from '../../lib/notify.ts'
import { Icon } from '../../ui/Icon.tsx'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { PublishDialog } from './PublishDialog.tsx'
import { loadRules } from './publish-service.ts'

/** 'Publish' on a track the user made; visitors are asked to sign in first. */
export function PublishButton({ song }: { song: Song }) {
  const user = useSessionStore((s) => s.user)
  const [open, setOpen] = useState(false)
  const start = () => {
    if (!user) {
      notify('Sign in to publish your tracks.')
      useAuthModalStore.getState().open('login')
      return
    }
    void loadRules().catch(() => undefined)
    setOpen(true)
  }
  return (
    <>
      <button
        type="button"
        onClick={start}
        aria-label={`Publish ${song.title}`}
        title="Publish"
        className="rounded p-1.5 text-muted hover:text-primary"
      >
        <Icon name="upload" size={18} />
      </button>
      {open && user && <PublishDialog song={song} userId={user.id} onClose={() => setOpen(false)} />}
    </>
  )
}
