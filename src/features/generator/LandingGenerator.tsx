import { Link, useNavigate } from 'react-router-dom'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { GenerationForm } from './GenerationForm.tsx'
import { GenerationProgress } from './GenerationProgress.tsx'
import { TrackPlayer } from './TrackPlayer.tsx'
import { GeneratedTrackActions } from './GeneratedTrackPanel.tsx'
import { useGeneration } from './useGeneration.ts'
import { usePreparedTrack } from './usePreparedTrack.ts'

/**
 * The landing page's generator card: a description, 'Generate AI Track' (the same on-device
 * generator as the studio; the description alone steers mood, genre and instruments), then a
 * player with Save to Library, Share, Open in Studio, Mint This Track and Create More.
 * Visitors are asked to log in or sign up to mint and get a wallet.
 */
export default function LandingGenerator() {
  const gen = useGeneration()
  const track = usePreparedTrack(gen.phase === 'ready' ? gen.score : null, gen.phase === 'ready' ? gen.buffer : null)
  const signedIn = useSessionStore((s) => s.status === 'signed-in')
  const navigate = useNavigate()
  const openAuth = (tab: 'login' | 'register') => {
    useAuthModalStore.getState().open(tab)
    navigate('/app/wallet')
  }
  return (
    <div className="flex flex-col gap-4">
      <GenerationForm compact busy={gen.busy} onGenerate={gen.generate} submitLabel="Generate AI Track" />
      {gen.busy && <GenerationProgress phase={gen.phase as 'composing' | 'rendering'} progress={gen.progress} onCancel={gen.cancel} />}
      {track && (
        <div className="flex flex-col gap-3" data-testid="landing-generated">
          <div>
            <h3 className="font-bold text-primary">{track.title}</h3>
            <p className="text-sm text-muted">{track.summary}</p>
            {track.heard && (
              <p className="text-sm text-muted" data-testid="generated-heard">
                {track.heard}
              </p>
            )}
          </div>
          <TrackPlayer track={track} />
          <GeneratedTrackActions track={track} openInStudio />
          <div className="flex flex-wrap gap-3">
            <Link to="/app/wallet" className="rounded-md bg-primary px-4 py-2 font-semibold text-bg">
              Mint This Track
            </Link>
            <Link to="/app/create" className="rounded-md border border-primary px-4 py-2 font-semibold text-primary">
              Create More
            </Link>
          </div>
          {!signedIn && (
            <p className="text-sm text-muted" data-testid="mint-prompt">
              <button type="button" className="font-semibold text-primary underline" onClick={() => openAuth('login')}>
                Log in
              </button>{' '}
              or{' '}
              <button type="button" className="font-semibold text-primary underline" onClick={() => openAuth('register')}>
                sign up
              </button>{' '}
              to mint this track and get your wallet.
            </p>
          )}
        </div>
      )}
    </div>
  )
}
