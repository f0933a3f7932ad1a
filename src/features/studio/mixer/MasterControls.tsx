import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { Icon } from '../../../ui/Icon.tsx'
import { LevelMeter } from './LevelMeter.tsx'
import { MixerSlider } from './MixerSlider.tsx'
import { MasterWaveform } from './MasterWaveform.tsx'
import { PositionSlider } from './PositionSlider.tsx'
import { MASTER_KEY } from '../../../engine/mixer-graph.ts'

export function MasterControls({
  playing,
  onToggle,
  timeRef,
  canPlay,
  timeline,
  onSeek,
}: {
  playing: boolean
  onToggle: () => void
  timeRef: React.Ref<HTMLSpanElement>
  canPlay: boolean
  timeline: number
  onSeek: (seconds: number) => void
}) {
  const master = useMixerStore((s) => s.master)
  const setMaster = useMixerStore((s) => s.setMaster)
  return (
    <section aria-labelledby="master-heading" className="panel p-4">
      <h2 id="master-heading" className="font-display text-sm font-bold uppercase tracking-widest text-primary">
        Master Controls
      </h2>
      <div className="mt-3 flex items-center gap-3">
        <button
          type="button"
          onClick={onToggle}
          disabled={!canPlay}
          aria-label={playing ? 'Pause mix' : 'Play mix'}
          className={
            'flex h-11 w-11 items-center justify-center rounded-full border-2 border-primary text-primary ' + 'neon-box disabled:opacity-40'
          }
        >
          <Icon name={playing ? 'pause' : 'play'} />
        </button>
        <span ref={timeRef} className="font-mono text-sm text-fg" data-testid="transport-time">
          0:00.0
        </span>
      </div>
      <PositionSlider timeline={timeline} onSeek={onSeek} />
      <div className="mt-3 space-y-1">
        <MixerSlider
          label="Volume"
          ariaLabel="Master volume"
          value={master.volume}
          min={0}
          max={100}
          onChange={(v, gesture) => setMaster('volume', v, gesture)}
          control={{ trackId: null, control: 'volume' }}
        />
        <MixerSlider
          label="Reverb"
          ariaLabel="Master reverb"
          value={master.reverb}
          min={0}
          max={100}
          onChange={(v, gesture) => setMaster('reverb', v, gesture)}
          control={{ trackId: null, control: 'reverb' }}
        />
        <LevelMeter levelKey={MASTER_KEY} label="Master level" />
        <MasterWaveform />
      </div>
    </section>
  )
}
