import { useId, type ReactNode } from 'react'
import { LAYER_LABELS, REMIX_LAYERS, loopFor, outputBpm, targetRange } from '../../engine/remix/remix-settings.ts'
import { updateSettings } from './remix-service.ts'
import { useRemixStore } from './remix-store.ts'

function Slider({
  label,
  value,
  onChange,
  min = 0,
  max = 100,
  unit = '%',
  testId,
  disabled,
}: {
  label: string
  value: number
  onChange: (v: number) => void
  min?: number
  max?: number
  unit?: string
  testId: string
  disabled?: boolean
}) {
  const id = useId()
  return (
    <div className="block text-sm">
      <div className="flex justify-between">
        <label htmlFor={id}>{label}</label>
        <span className="text-muted" data-testid={`${testId}-value`}>
          {value}
          {unit}
        </span>
      </div>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(Number(e.target.value))}
        className="mt-1 w-full accent-[var(--color-primary)]"
        data-testid={testId}
      />
    </div>
  )
}

function Toggle({
  label,
  on,
  onChange,
  testId,
  children,
}: {
  label: string
  on: boolean
  onChange: (on: boolean) => void
  testId: string
  children?: ReactNode
}) {
  const id = useId()
  return (
    <div className={`rounded-md border p-3 ${on ? 'border-primary bg-primary/10' : 'border-line'}`}>
      <div className="flex items-center justify-between gap-3 font-semibold">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={on}
          onChange={(e) => onChange(e.target.checked)}
          aria-checked={on}
          data-testid={testId}
          className="h-5 w-5 accent-[var(--color-primary)]"
        />
      </div>
      {children && <div className="mt-2 space-y-2">{children}</div>}
    </div>
  )
}

export function EffectsPanel() {
  const fx = useRemixStore((s) => s.settings.effects)
  const set = (name: keyof typeof fx) => (v: number) => updateSettings((s) => ({ ...s, effects: { ...s.effects, [name]: v } }))
  return (
    <section className="panel space-y-3 p-4" aria-labelledby="remix-effects">
      <h2 id="remix-effects" className="font-display text-lg font-semibold">
        Effects
      </h2>
      <Slider label="Reverb" value={fx.reverb} onChange={set('reverb')} testId="fx-reverb" />
      <Slider label="Delay" value={fx.delay} onChange={set('delay')} testId="fx-delay" />
      <Slider label="Distortion" value={fx.distortion} onChange={set('distortion')} testId="fx-distortion" />
    </section>
  )
}

export function SamplesPanel() {
  const samples = useRemixStore((s) => s.settings.samples)
  const bpm = useRemixStore((s) => (s.info ? outputBpm(s.settings, s.info.bpm) : 120))
  return (
    <section className="panel space-y-3 p-4" aria-labelledby="remix-samples">
      <h2 id="remix-samples" className="font-display text-lg font-semibold">
        Samples
      </h2>
      <p className="text-xs text-muted">From the Sound Library, matched to the remix's tempo and started on its downbeat.</p>
      {REMIX_LAYERS.map((layer) => (
        <Toggle
          key={layer}
          label={LAYER_LABELS[layer]}
          on={samples[layer].on}
          testId={`sample-${layer}`}
          onChange={(on) => updateSettings((s) => ({ ...s, samples: { ...s.samples, [layer]: { ...s.samples[layer], on } } }))}
        >
          <p className="text-xs text-muted">{loopFor(layer, bpm).name}</p>
          <Slider
            label="Level"
            value={samples[layer].level}
            testId={`sample-${layer}-level`}
            onChange={(level) => updateSettings((s) => ({ ...s, samples: { ...s.samples, [layer]: { ...s.samples[layer], level } } }))}
          />
        </Toggle>
      ))}
    </section>
  )
}

export function AiToolsPanel() {
  const settings = useRemixStore((s) => s.settings)
  const info = useRemixStore((s) => s.info)
  const range = info ? targetRange(info.bpm) : { min: 40, max: 240 }
  const target = info ? outputBpm({ ...settings, beatMatch: { ...settings.beatMatch, on: true } }, info.bpm) : 120
  return (
    <section className="panel space-y-3 p-4" aria-labelledby="remix-tools">
      <h2 id="remix-tools" className="font-display text-lg font-semibold">
        AI Tools
      </h2>
      <Toggle
        label="Harmonize"
        on={settings.harmonize.on}
        testId="tool-harmonize"
        onChange={(on) => updateSettings((s) => ({ ...s, harmonize: { ...s.harmonize, on } }))}
      >
        <p className="text-xs text-muted">
          A third and a fifth above, in <span data-testid="remix-key">{info?.key ?? '…'}</span>
        </p>
        <Slider
          label="Voices' mix"
          value={settings.harmonize.mix}
          testId="tool-harmonize-mix"
          onChange={(mix) => updateSettings((s) => ({ ...s, harmonize: { ...s.harmonize, mix } }))}
        />
      </Toggle>
      <Toggle
        label="Beat Match"
        on={settings.beatMatch.on}
        testId="tool-beatmatch"
        onChange={(on) =>
          updateSettings((s) => ({ ...s, beatMatch: { on, targetBpm: s.beatMatch.targetBpm ?? (info ? Math.round(info.bpm) : null) } }))
        }
      >
        <p className="text-xs text-muted">
          Source tempo <span data-testid="remix-bpm">{info ? `${Math.round(info.bpm)} BPM` : '…'}</span>; stretched without changing pitch.
        </p>
        <Slider
          label="Target tempo"
          min={range.min}
          max={range.max}
          unit=" BPM"
          value={Math.round(target)}
          testId="tool-beatmatch-target"
          onChange={(targetBpm) => updateSettings((s) => ({ ...s, beatMatch: { ...s.beatMatch, targetBpm } }))}
        />
      </Toggle>
      <Toggle
        label="Auto Tune"
        on={settings.autoTune.on}
        testId="tool-autotune"
        onChange={(on) => updateSettings((s) => ({ ...s, autoTune: { ...s.autoTune, on } }))}
      >
        <p className="text-xs text-muted">
          Corrects a single melodic line to the {info?.key ?? 'detected'} scale
          {info && info.voiced < 0.2 ? ' (this track has little single-pitch material, so it changes little)' : ''}.
        </p>
        <Slider
          label="Correction speed"
          value={settings.autoTune.retune}
          testId="tool-autotune-speed"
          onChange={(retune) => updateSettings((s) => ({ ...s, autoTune: { ...s.autoTune, retune } }))}
        />
      </Toggle>
    </section>
  )
}
