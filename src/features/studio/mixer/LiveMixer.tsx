import { useCallback, useEffect, useRef, useState } from 'react'
import { notify } from '../../../lib/notify.ts'
import { mixerEngine } from '../../../engine/mixer-engine.ts'
import { getAudioContext } from '../../../engine/audio-context.ts'
import { mixDuration } from '../../../engine/mixer-model.ts'
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_SECONDS } from '../../../engine/upload-audio.ts'
import { mixerSnapshot, useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { useProjectStore } from '../projects/project-store.ts'
import { useLiveSessionStore } from '../../../domain/studio/live-session-store.ts'
import { Icon } from '../../../ui/Icon.tsx'
import { EffectsPanel } from './EffectsPanel.tsx'
import { ExportButton } from '../export/ExportButton.tsx'
import { toPercent } from './LevelMeter.tsx'
import { MasterControls } from './MasterControls.tsx'
import { ProjectsPanel } from '../projects/ProjectsPanel.tsx'
import { LiveSessionPanel } from '../projects/LiveSessionPanel.tsx'
import { RecoveryBanner } from '../recording/RecoveryBanner.tsx'
import { SoundLibraryPanel } from './SoundLibraryPanel.tsx'
import { startMixerService } from '../mixer-service.ts'
import { TrackRow, formatTime } from './TrackRow.tsx'
import { UndoRedo } from './UndoRedo.tsx'
import { useMicRecorder } from '../recording/useMicRecorder.ts'
import { useUpload } from './useUpload.ts'
import { Timeline } from '../timeline/Timeline.tsx'
import { useTimelineStore } from '../timeline/timeline-store.ts'
import { startCountIn } from '../recording/count-in.ts'
import { errorMessage } from '../../../lib/error-message.ts'
import { InstrumentTrackTools } from '../instruments/InstrumentTrackTools.tsx'
import { PianoRoll } from '../instruments/PianoRoll.tsx'

export function LiveMixer() {
  const tracks = useMixerStore((s) => s.tracks)
  const selectedId = useMixerStore((s) => s.selectedId)
  const project = useMixerStore((s) => s.project)
  const [playing, setPlaying] = useState(mixerEngine.isPlaying())
  const [side, setSide] = useState<'effects' | 'library'>('effects')
  const [dragOver, setDragOver] = useState(false)
  const [saving, setSaving] = useState(false)
  /** Beats left in a count-in before recording (null: none running). */
  const [countBeat, setCountBeat] = useState<number | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const timelineRef = useRef<HTMLUListElement>(null)
  const timeRef = useRef<HTMLSpanElement>(null)
  const inputMeterRef = useRef<HTMLDivElement>(null)
  const { upload, progress } = useUpload()
  const recorder = useMicRecorder((peak, rms) => {
    const el = inputMeterRef.current
    if (!el) return
    el.style.width = `${toPercent(rms)}%`
    el.parentElement?.setAttribute('data-peak', peak.toFixed(4))
  })
  const timeline = mixDuration({ tracks })

  useEffect(() => {
    const stopService = startMixerService()
    const offEnd = mixerEngine.onEnded(() => setPlaying(false))
    return () => {
      offEnd()
      stopService()
    }
  }, [])

  // Playhead and clock: one animation frame loop writing a CSS variable, no React re-renders. It
  // writes only what changed, so a paused studio costs no layout or paint per frame.
  useEffect(() => {
    let raf = 0
    let lastPlayhead = ''
    let lastClock = ''
    let lastPlaying = mixerEngine.isPlaying()
    const tick = () => {
      // Play together may start or pause the transport from another studio.
      const nowPlaying = mixerEngine.isPlaying()
      if (nowPlaying !== lastPlaying) setPlaying((lastPlaying = nowPlaying))
      const pos = mixerEngine.position()
      const total = mixDuration(useMixerStore.getState())
      const playhead = String(total > 0 ? Math.min(1, pos / total) : 0)
      const clock = `${formatTime(pos)}.${Math.floor((pos % 1) * 10)} / ${formatTime(total)}`
      if (playhead !== lastPlayhead) timelineRef.current?.style.setProperty('--playhead', (lastPlayhead = playhead))
      if (clock !== lastClock && timeRef.current) timeRef.current.textContent = lastClock = clock
      raf = requestAnimationFrame(tick)
    }
    raf = requestAnimationFrame(tick)
    return () => cancelAnimationFrame(raf)
  }, [])

  const seek = useCallback((seconds: number) => {
    // With play together on, the others' playheads move too.
    if (useLiveSessionStore.getState().seekTogether(seconds)) return
    mixerEngine.seek(seconds, mixerSnapshot()).catch((err: unknown) => notify.error('Playback failed', { description: errorMessage(err) }))
  }, [])

  const toggle = async () => {
    // In a live session with play together on, the press goes to everyone who opted in.
    const together = useLiveSessionStore.getState()
    if (mixerEngine.isPlaying()) {
      if (!together.pauseTogether()) mixerEngine.pause()
      setPlaying(false)
      return
    }
    if (together.playTogether()) return void setPlaying(true)
    try {
      await mixerEngine.play(mixerSnapshot())
      setPlaying(mixerEngine.isPlaying())
    } catch (err) {
      notify.error('Playback failed', { description: errorMessage(err) })
    }
  }

  const save = async () => {
    setSaving(true)
    try {
      const p = await useProjectStore.getState().saveCurrent()
      notify.success('Project saved', { description: p.name })
    } catch (err) {
      notify.error('Project not saved', { description: errorMessage(err) })
    } finally {
      setSaving(false)
    }
  }

  const recording = recorder.phase === 'recording' || recorder.phase === 'stopping'

  /**
   * Record, after one bar of clicks when count-in is on: the microphone opens during the bar and
   * keeps only what follows it; the mix plays from the playhead on the downbeat; the take lands there.
   */
  const startRecording = async () => {
    if (!useTimelineStore.getState().countIn) return void (await recorder.start())
    try {
      const { barEnd, done } = await startCountIn(useMixerStore.getState().tempo, setCountBeat)
      const opening = recorder.start(barEnd)
      await done
      // The last beat stays on screen until the bar is over.
      setTimeout(() => setCountBeat(null), Math.max(0, (barEnd - getAudioContext().currentTime) * 1000))
      const playAlong = useMixerStore.getState().tracks.length > 0 && !mixerEngine.isPlaying()
      if (playAlong) {
        await mixerEngine.play(mixerSnapshot(), barEnd)
        setPlaying(mixerEngine.isPlaying())
      }
      // No microphone after all (denied, busy): the take's error is shown; the mix stops again.
      if (!(await opening) && playAlong) {
        mixerEngine.pause()
        setPlaying(false)
      }
    } catch (err) {
      setCountBeat(null)
      notify.error('Recording could not start', { description: errorMessage(err) })
    }
  }

  return (
    <div className="grid gap-4 lg:grid-cols-[1fr_20rem]">
      <div className="min-w-0 space-y-4">
        <div className="flex flex-wrap items-center gap-2">
          <UndoRedo />
          <button
            type="button"
            onClick={() => void save()}
            disabled={saving || tracks.length === 0}
            className="flex items-center gap-2 rounded border border-primary px-3 py-1.5 text-sm text-primary disabled:opacity-50"
          >
            <Icon name="save" size={16} /> Save Project
          </button>
          <button
            type="button"
            onClick={() => fileInput.current?.click()}
            disabled={progress !== null}
            className="flex items-center gap-2 rounded border border-line px-3 py-1.5 text-sm hover:border-primary disabled:opacity-50"
          >
            <Icon name="upload" size={16} /> Upload Audio
          </button>
          <input
            ref={fileInput}
            type="file"
            accept="audio/*,.wav,.mp3,.ogg,.flac,.m4a,.webm"
            multiple
            className="hidden"
            data-testid="upload-input"
            aria-label="Audio file to upload"
            onChange={(e) => {
              const files = e.currentTarget.files
              if (files?.length) void upload(Array.from(files))
              e.currentTarget.value = ''
            }}
          />
          {recording ? (
            <button
              type="button"
              onClick={() => void recorder.stop()}
              disabled={recorder.phase === 'stopping'}
              className="flex items-center gap-2 rounded border border-secondary bg-secondary/20 px-3 py-1.5 text-sm text-secondary"
            >
              <span className="h-2.5 w-2.5 animate-pulse rounded-full bg-secondary" /> Stop Recording
            </button>
          ) : (
            <button
              type="button"
              onClick={() => void startRecording()}
              disabled={recorder.phase === 'starting' || countBeat !== null}
              className="flex items-center gap-2 rounded border border-line px-3 py-1.5 text-sm hover:border-secondary disabled:opacity-50"
            >
              <Icon name="mic" size={16} /> Record Microphone
            </button>
          )}
          <ExportButton />
          {project && (
            <span className="ml-auto flex min-w-0 max-w-full text-xs text-muted">
              Project:&nbsp;
              <span className="min-w-0 truncate text-fg" title={project.name} data-testid="mixer-project-name">
                {project.name}
              </span>
            </span>
          )}
        </div>

        <InstrumentTrackTools />

        {countBeat !== null && (
          <div role="status" className="panel flex items-center gap-3 border-secondary p-3 text-sm" data-testid="count-in">
            <span className="text-secondary">Count-in</span>
            <span className="font-mono text-lg" data-testid="count-in-beat">
              {countBeat}
            </span>
          </div>
        )}
        {recording && (
          <div role="status" className="panel flex items-center gap-3 border-secondary p-3 text-sm" data-testid="recording-status">
            <span className="text-secondary">Recording</span>
            <span className="font-mono" data-testid="recording-elapsed">
              {formatTime(recorder.elapsed)}.{Math.floor((recorder.elapsed % 1) * 10)}
            </span>
            <div
              className="relative h-2 flex-1 overflow-hidden rounded bg-line"
              role="meter"
              aria-label="Microphone input level"
              aria-valuemin={0}
              aria-valuemax={1}
              aria-valuenow={0}
              data-testid="input-meter"
            >
              <div ref={inputMeterRef} className="absolute inset-y-0 left-0 bg-secondary" style={{ width: 0 }} />
            </div>
          </div>
        )}
        {recorder.error && (
          <div role="alert" className="panel flex items-start gap-2 border-secondary p-3 text-sm" data-testid="mic-error">
            <span className="flex-1">{recorder.error}</span>
            <button type="button" onClick={recorder.dismissError} aria-label="Dismiss microphone message" className="text-muted">
              <Icon name="close" size={14} />
            </button>
          </div>
        )}
        <RecoveryBanner busy={recording || recorder.phase === 'starting'} />

        {progress && (
          <div className="panel flex items-center gap-3 p-3 text-sm">
            <span className="truncate">Decoding {progress.name}</span>
            <div
              role="progressbar"
              aria-label="Upload progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(progress.value * 100)}
              className="h-2 flex-1 overflow-hidden rounded bg-line"
            >
              <div className="h-full bg-primary" style={{ width: `${progress.value * 100}%` }} />
            </div>
          </div>
        )}

        {tracks.length > 0 && <Timeline onSeek={seek} />}
        <PianoRoll />

        <section
          aria-labelledby="tracks-heading"
          onDragOver={(e) => {
            if (!e.dataTransfer.types.includes('Files')) return
            e.preventDefault()
            setDragOver(true)
          }}
          onDragLeave={() => setDragOver(false)}
          onDrop={(e) => {
            e.preventDefault()
            setDragOver(false)
            if (e.dataTransfer.files.length) void upload(Array.from(e.dataTransfer.files))
          }}
          className={`panel p-4 ${dragOver ? 'border-primary neon-box' : ''}`}
          data-testid="drop-zone"
        >
          <h2 id="tracks-heading" className="font-display text-sm font-bold uppercase tracking-widest text-primary">
            Mixer Tracks
          </h2>
          {tracks.length === 0 ? (
            <p className="mt-3 text-sm text-muted">
              No tracks yet. Upload audio (or drop files here; up to {MAX_UPLOAD_BYTES / 1048576} MB and {MAX_UPLOAD_SECONDS / 60} minutes
              each), record your microphone, add an instrument track or import a MIDI file, or add a sound from the Sound Library.
            </p>
          ) : (
            <ul ref={timelineRef} className="mt-3 space-y-3" aria-label="Mixer tracks">
              {tracks.map((t) => (
                <TrackRow key={t.id} track={t} selected={t.id === selectedId} timeline={timeline} onSeek={seek} />
              ))}
            </ul>
          )}
          <p className="mt-3 text-xs text-muted">Drop audio files here to add them as tracks.</p>
        </section>
      </div>

      <div className="space-y-4">
        <MasterControls
          playing={playing}
          onToggle={() => void toggle()}
          timeRef={timeRef}
          canPlay={tracks.length > 0}
          timeline={timeline}
          onSeek={seek}
        />
        <section className="panel p-4">
          <div role="tablist" aria-label="Mixer side panel" className="mb-3 flex gap-1">
            {(
              [
                ['effects', 'Effects'],
                ['library', 'Sound Library'],
              ] as const
            ).map(([key, label]) => (
              <button
                key={key}
                type="button"
                role="tab"
                id={`side-tab-${key}`}
                aria-controls={`side-panel-${key}`}
                aria-selected={side === key}
                onClick={() => setSide(key)}
                className={`flex-1 rounded px-2 py-1.5 text-sm ${side === key ? 'bg-primary/20 text-primary' : 'text-muted hover:text-fg'}`}
              >
                {label}
              </button>
            ))}
          </div>
          <div role="tabpanel" id={`side-panel-${side}`} aria-labelledby={`side-tab-${side}`}>
            {side === 'effects' ? <EffectsPanel /> : <SoundLibraryPanel />}
          </div>
        </section>
        <ProjectsPanel />
        <LiveSessionPanel />
      </div>
    </div>
  )
}
