import { useEffect } from 'react'
import { Link } from 'react-router-dom'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { rewardMessage, selectRewardAmount, useRewardStore } from '../../domain/economy/reward-store.ts'
import { Icon } from '../../ui/Icon.tsx'
import { TransportControls } from './TransportControls.tsx'
import { SeekBar } from './SeekBar.tsx'
import { VolumeControl } from './VolumeControl.tsx'
import { RewardPop } from './RewardPop.tsx'
import { PlayerGlobals } from './PlayerGlobals.tsx'
import { Waveform } from './Waveform.tsx'
import { Spectrum } from './Spectrum.tsx'
import { QueueList } from './QueueList.tsx'
import { songTags } from './song-tags.ts'
import { useRewardRules } from '../../domain/economy/reward-rules.ts'
import { useDailyCap } from '../../domain/economy/useDailyCap.ts'
import { Slot } from '../../ui/slots.tsx'
import { NowPlayingActions } from './NowPlayingActions.tsx'

export default function NowPlayingPage() {
  const song = usePlayerStore((s) => s.currentSong)
  const rules = useRewardRules((s) => s.rules)
  const reward = useRewardStore(selectRewardAmount(song, rules))
  const cap = useDailyCap()

  useEffect(() => {
    document.title = song ? `${song.title} · Now Playing · CUBE Music` : 'Now Playing · CUBE Music'
  }, [song])

  const tags = songTags(song)

  return (
    <div className="cyber-grid min-h-screen bg-bg text-fg">
      <PlayerGlobals />
      <Slot name="StillListeningPrompt" />
      <main className="mx-auto max-w-6xl p-4 md:p-8">
        <Link to="/app/library" className="inline-flex items-center gap-2 text-sm text-primary hover:underline">
          <Icon name="prev" size={14} /> Back to Library
        </Link>
        <h1 className="mt-4 font-display text-3xl font-bold text-primary neon-text">Now Playing</h1>
        <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
          <div>
            {song ? (
              <img
                src={song.image}
                alt={`Cover of ${song.title}`}
                className="aspect-square w-full rounded-xl border border-line object-cover neon-box"
              />
            ) : (
              <div className="flex aspect-square w-full items-center justify-center rounded-xl border border-line text-muted">
                <Icon name="music" size={64} />
              </div>
            )}
          </div>
          <div className="flex min-w-0 flex-col gap-4">
            <div>
              <p className="text-2xl font-bold" data-testid="np-title">
                {song?.title ?? 'Nothing playing'}
              </p>
              <p className="text-muted" data-testid="np-artist">
                {song?.artist ?? (
                  <>
                    Choose a track in your{' '}
                    <Link to="/app/library" className="text-primary underline">
                      Library
                    </Link>
                  </>
                )}
              </p>
              {tags.length > 0 && (
                <ul className="mt-3 flex flex-wrap gap-2" aria-label="Genre tags">
                  {tags.map((t) => (
                    <li key={t} className="rounded-full border border-secondary/60 px-3 py-0.5 text-xs capitalize text-secondary">
                      {t}
                    </li>
                  ))}
                </ul>
              )}
              {song && <NowPlayingActions song={song} />}
              <p
                data-testid="np-reward-note"
                className="mt-3 inline-flex items-center gap-2 rounded-full border border-accent/60 px-3 py-1 text-sm text-accent"
              >
                <Icon name="cube" size={14} /> {cap.capped ? cap.note : rewardMessage(reward)}
              </p>
              <div className="mt-2">
                <Slot name="ListenCreditNote" songId={song?.id} />
              </div>
            </div>
            <div className="panel p-4">
              {song ? (
                <Waveform key={song.id} song={song} />
              ) : (
                <p className="text-sm text-muted">The waveform appears when a track is playing.</p>
              )}
              <div className="mt-3">
                <SeekBar />
              </div>
              <div className="mt-3 flex flex-wrap items-center justify-between gap-4">
                <TransportControls size="lg" />
                <div className="w-56">
                  <VolumeControl />
                </div>
              </div>
              <RewardPop className="mt-2 h-8" />
            </div>
            <Spectrum />
          </div>
        </div>
        <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
          <QueueList />
          <Slot name="LedgerTokenActivity" />
        </div>
        {song && !song.audioUrl.startsWith('idb:') && (
          <div className="mt-6">
            <Slot name="CommentThread" songId={song.id} songTitle={song.title} />
          </div>
        )}
        <p className="mt-6 text-xs text-muted">Shortcuts: Space play/pause · ←/→ seek 5 s · ↑/↓ volume · N next · P previous</p>
      </main>
    </div>
  )
}
