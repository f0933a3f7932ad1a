import { useEffect, useState } from 'react'
import type { Song } from '../../lib/catalogue/song.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { songShareItem } from '../../domain/economy/song-share.ts'
import { useShareActions } from '../../domain/economy/useShareActions.ts'
import { Icon } from '../../ui/Icon.tsx'

const COPIED_MS = 2000

/**
 * Share: copies the song page's address through copyShareLink, as every share button does: signed
 * in, with the user's own copy-link token (someone else opening it pays them; it shows in Share &
 * Earn's links); the notice says what was copied, or shows it to copy by hand.
 */
export function ShareSongButton({ song }: { song: Song }) {
  const [state, setState] = useState<'idle' | 'busy' | 'copied'>('idle')
  const shareActions = useShareActions()

  useEffect(() => {
    if (state !== 'copied') return
    const t = window.setTimeout(() => setState('idle'), COPIED_MS)
    return () => window.clearTimeout(t)
  }, [state])

  const share = async () => {
    setState('busy')
    try {
      const copied = await shareActions.copy(await songShareItem(song, shareActions.slugOf))
      setState(copied ? 'copied' : 'idle')
    } catch (e) {
      setState('idle')
      notify.error('Could not share this track', { id: 'song-share', description: errorMessage(e) })
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
