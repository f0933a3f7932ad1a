import { useEffect, useState } from 'react'
import type { Song } from '../../lib/catalogue/song.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { songShareLink } from '../../domain/economy/song-share.ts'
import { Icon } from '../../ui/Icon.tsx'

const COPIED_MS = 2000

/**
 * Share: copies the song page's address. Signed in, it carries the user's own copy-link token, so
 * someone else opening it pays them by the server's share rules (it shows in Share & Earn's links).
 */
export function ShareSongButton({ song }: { song: Song }) {
  const [state, setState] = useState<'idle' | 'busy' | 'copied'>('idle')

  useEffect(() => {
    if (state !== 'copied') return
    const t = window.setTimeout(() => setState('idle'), COPIED_MS)
    return () => window.clearTimeout(t)
  }, [state])

  const share = async () => {
    setState('busy')
    let url: string | null = null
    try {
      const made = await songShareLink(song)
      url = made.url
      await navigator.clipboard.writeText(url)
      setState('copied')
      notify.success('Link copied', {
        id: 'song-share',
        description: made.tokened
          ? `It pays you ${made.amount} CUBE when someone else opens it.`
          : 'Sign in to earn CUBE when someone opens the links you share.',
      })
    } catch (e) {
      setState('idle')
      // The link was made but the clipboard refused (no permission): the user can still copy it by hand.
      if (url) notify(`Copy this link: ${url}`, { id: 'song-share', persistent: true })
      else notify.error('Could not share this track', { id: 'song-share', description: errorMessage(e) })
    }
  }

  return (
    <button
      type="button"
      onClick={() => void share()}
      disabled={state === 'busy'}
      aria-label={`Share ${song.title}`}
      data-testid="np-share"
      className={
        'flex items-center gap-1 rounded-full border border-line px-3 py-1.5 text-sm text-muted hover:text-primary ' + 'disabled:opacity-60'
      }
    >
      <Icon name="share" size={16} /> <span aria-live="polite">{state === 'copied' ? 'Link copied' : 'Share'}</span>
    </button>
  )
}
