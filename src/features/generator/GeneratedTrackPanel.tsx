import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { notify } from '../../lib/notify.ts'
import { idbAudioUrl, putAudio } from '../../lib/user-audio-store.ts'
import { useLibraryStore } from '../../domain/collection/library-store.ts'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { useSiteSettings } from '../../domain/appearance/site-branding.ts'
import { countFreeSave, freeSavesLeft } from './free-saves.ts'
import { addAudioToMixer } from '../../domain/studio/mixer-store.ts'
import { Icon } from '../../ui/Icon.tsx'
import { generatedSong, type GeneratedTrack } from './generated-track.ts'
import { DownloadTrack } from './DownloadTrack.tsx'
import { SharePanel } from './SharePanel.tsx'
import { WithServerState } from './WithServerState.tsx'
import { TrackPlayer } from './TrackPlayer.tsx'
import { errorMessage } from '../../lib/error-message.ts'

export const NAVIGATE_AFTER_SAVE_MS = 1500

/**
 * What can be done with a finished track: Save to Library, Share and Add to mixer (or, on the
 * landing page, Open in Studio: added to the mixer and the studio opened).
 */
export function GeneratedTrackActions({ track, openInStudio = false }: { track: GeneratedTrack; openInStudio?: boolean }) {
  const navigate = useNavigate()
  const [saving, setSaving] = useState(false)
  const [saved, setSaved] = useState(false)
  const [sharing, setSharing] = useState(false)
  const [shownTrack, setShownTrack] = useState(track)
  const leaveTimer = useRef<ReturnType<typeof setTimeout> | null>(null)

  // Another track: start again from 'not saved, not sharing' (adjusted while rendering, not in an effect).
  if (shownTrack !== track) {
    setShownTrack(track)
    setSaved(false)
    setSharing(false)
  }
  useEffect(
    () => () => {
      if (leaveTimer.current) clearTimeout(leaveTimer.current)
    },
    [],
  )

  const save = async () => {
    const visitor = useSessionStore.getState().status !== 'signed-in'
    const max = useSiteSettings.getState().max_free_songs
    if (visitor && freeSavesLeft(max) === 0) {
      notify.error('Free limit reached', {
        description: `Visitors can save ${max} generated song${max === 1 ? '' : 's'} a day. Log in to save more.`,
        action: { label: 'Log In', onClick: () => useAuthModalStore.getState().open('login') },
      })
      return
    }
    setSaving(true)
    try {
      await putAudio(track.id, track.wav)
      if (!useLibraryStore.getState().addTrack(generatedSong(track, idbAudioUrl(track.id))))
        throw new Error('The library refused the track.')
      if (visitor) countFreeSave()
      setSaved(true)
      notify.success('Track saved', { description: `“${track.title}” is in your library.` })
      leaveTimer.current = setTimeout(() => navigate('/app/library'), NAVIGATE_AFTER_SAVE_MS)
    } catch (err) {
      console.error('[generator] save', err)
      notify.error('Could not save the track', { description: errorMessage(err) })
    } finally {
      setSaving(false)
    }
  }

  const share = () => {
    setSharing(true)
    notify('Sharing options', { description: 'Copy the link or scan the QR code.' })
  }

  const addToMixer = () => {
    try {
      // Copies: the mixer keeps its own audio, independent of this panel.
      addAudioToMixer({ name: track.title, sampleRate: track.sampleRate, channels: track.channels.map((c) => c.slice()) })
      if (openInStudio) {
        navigate('/app/studio')
        notify.success('Track added', { description: `“${track.title}” is on the Live Mixer.` })
        return
      }
      notify.success('Track added', {
        description: `“${track.title}” is on the Live Mixer.`,
        action: { label: 'Open mixer', onClick: () => navigate('/app/studio') },
      })
    } catch (err) {
      notify.error('Could not add the track to the mixer', { description: errorMessage(err) })
    }
  }

  const button = 'inline-flex items-center gap-2 rounded-md border px-3 py-2 text-sm font-semibold disabled:opacity-50'
  return (
    <>
      <div className="flex flex-wrap gap-2">
        <button type="button" onClick={() => void save()} disabled={saving || saved} className={`${button} border-primary text-primary`}>
          <Icon name="save" /> {saved ? 'Saved' : 'Save to Library'}
        </button>
        <button type="button" onClick={share} className={`${button} border-secondary text-secondary`}>
          <Icon name="share" /> Share
        </button>
        <button type="button" onClick={addToMixer} className={`${button} border-accent text-accent`}>
          <Icon name="plus" /> {openInStudio ? 'Open in Studio' : 'Add to mixer'}
        </button>
      </div>
      <DownloadTrack track={track} className="mt-2" />
      {sharing && (
        <WithServerState>
          <SharePanel recipe={track.recipe} title={track.title} onClose={() => setSharing(false)} />
        </WithServerState>
      )}
    </>
  )
}

/** The finished track: player and waveform, Save to Library, Share and Add to mixer. */
export function GeneratedTrackPanel({ track }: { track: GeneratedTrack }) {
  return (
    <div className="flex flex-col gap-4" data-testid="generated-track">
      <div>
        <h3 className="text-lg font-bold text-primary neon-text">{track.title}</h3>
        <p className="text-sm text-muted" data-testid="generated-summary">
          {track.summary}
        </p>
        {track.heard && (
          <p className="text-sm text-muted" data-testid="generated-heard">
            {track.heard}
          </p>
        )}
      </div>
      <TrackPlayer track={track} />
      <GeneratedTrackActions track={track} />
    </div>
  )
}
