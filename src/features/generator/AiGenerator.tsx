import { GenerationForm } from './GenerationForm.tsx'
import { GenerationProgress } from './GenerationProgress.tsx'
import { GeneratedTrackPanel } from './GeneratedTrackPanel.tsx'
import { useGeneration } from './useGeneration.ts'
import { usePreparedTrack } from './usePreparedTrack.ts'

/**
 * The AI Generator (Music Studio's ai tab, /app/create): the 'Generate Music' form beside the
 * 'Generated Track' panel. Composition and rendering run on the device (composer worker + Tone.js).
 */
export function AiGenerator() {
  const gen = useGeneration()
  const track = usePreparedTrack(gen.phase === 'ready' ? gen.score : null, gen.phase === 'ready' ? gen.buffer : null)
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section aria-labelledby="generate-music-heading" className="panel flex flex-col gap-4 p-6">
        <h2 id="generate-music-heading" className="text-xl font-bold text-fg">
          Generate Music
        </h2>
        <GenerationForm busy={gen.busy} onGenerate={gen.generate} submitLabel="Generate Track" />
        {gen.busy && <GenerationProgress phase={gen.phase as 'composing' | 'rendering'} progress={gen.progress} onCancel={gen.cancel} />}
      </section>
      <section aria-labelledby="generated-track-heading" className="panel flex flex-col gap-4 p-6">
        <h2 id="generated-track-heading" className="text-xl font-bold text-fg">
          Generated Track
        </h2>
        {track ? (
          <GeneratedTrackPanel track={track} />
        ) : (
          <p className="text-sm text-muted">
            {gen.busy
              ? 'Your track is being composed and rendered on this device…'
              : gen.phase === 'ready'
                ? 'Preparing playback…'
                : 'Describe a track and press Generate Track: it is composed and rendered right here in your browser, at ' +
                  'least 30 seconds long.'}
          </p>
        )}
      </section>
    </div>
  )
}
