import { useEffect, useRef, useState } from 'react'
import { formatDuration } from '../../lib/catalogue/song.ts'
import { unlockAudio } from '../../engine/audio-context.ts'
import { getMasterBus } from '../../engine/master-bus.ts'
import { computePeaks, toWaveSurferPeaks } from '../../engine/workers.ts'
import { Icon } from '../../ui/Icon.tsx'
import type { GeneratedTrack } from './generated-track.ts'
import { themedWaveformStyle } from '../../ui/waveform-style.ts'

/**
 * Plays a generated track through the app's master bus (an audio element on a blob URL of its WAV,
 * routed into the shared context) with a wavesurfer.js waveform drawn from the peaks worker;
 * clicking the waveform seeks.
 */
export function TrackPlayer({ track }: { track: GeneratedTrack }) {
  const container = useRef<HTMLDivElement>(null)
  const audioRef = useRef<HTMLAudioElement | null>(null)
  const routed = useRef(false)
  const [playing, setPlaying] = useState(false)
  const [time, setTime] = useState(0)
  const [waveform, setWaveform] = useState<'loading' | 'ready' | 'error'>('loading')
  const [playerTrack, setPlayerTrack] = useState(track)
  // Another track starts stopped, at 0, with its waveform loading (adjusted while rendering).
  if (playerTrack !== track) {
    setPlayerTrack(track)
    setPlaying(false)
    setTime(0)
    setWaveform('loading')
  }

  useEffect(() => {
    const url = URL.createObjectURL(track.wav)
    const el = new Audio()
    el.preload = 'auto'
    el.src = url
    audioRef.current = el
    routed.current = false
    const onPlay = () => setPlaying(true)
    const onPause = () => setPlaying(false)
    const onTime = () => setTime(el.currentTime)
    el.addEventListener('play', onPlay)
    el.addEventListener('pause', onPause)
    el.addEventListener('ended', onPause)
    el.addEventListener('timeupdate', onTime)

    let cancelled = false
    let destroy: (() => void) | undefined
    void (async () => {
      try {
        const node = container.current
        if (!node) return
        const buckets = Math.min(3000, Math.max(300, Math.round(node.clientWidth * (window.devicePixelRatio || 1))))
        const [{ default: WaveSurfer }, peaks] = await Promise.all([import('wavesurfer.js'), computePeaks(track.channels, buckets)])
        if (cancelled) return
        const ws = WaveSurfer.create({
          container: node,
          media: el,
          peaks: toWaveSurferPeaks(peaks),
          duration: track.duration,
          ...themedWaveformStyle(80),
        })
        destroy = () => ws.destroy()
        setWaveform('ready')
      } catch (err) {
        console.error('[generator] waveform', err)
        if (!cancelled) setWaveform('error')
      }
    })()

    return () => {
      cancelled = true
      el.pause()
      destroy?.()
      el.removeAttribute('src')
      el.load()
      URL.revokeObjectURL(url)
    }
  }, [track])

  const toggle = async () => {
    const el = audioRef.current
    if (!el) return
    if (!el.paused) {
      el.pause()
      return
    }
    const ctx = await unlockAudio()
    if (!routed.current) {
      // Once routed, the element is heard only through the master bus (limiter, meters, visualiser).
      ctx.createMediaElementSource(el).connect(getMasterBus().input)
      routed.current = true
    }
    await el.play()
  }

  return (
    <div className="flex flex-col gap-2">
      <div
        ref={container}
        data-testid="generated-waveform"
        data-status={waveform}
        className="min-h-20 w-full cursor-pointer rounded-md bg-bg/40"
        role="group"
        aria-label={`Waveform of ${track.title}; click to seek`}
      />
      {waveform === 'error' && <p className="text-sm text-secondary">Waveform unavailable.</p>}
      <div className="flex items-center gap-3">
        <button
          type="button"
          onClick={() => void toggle()}
          aria-label={playing ? 'Pause generated track' : 'Play generated track'}
          className="flex h-10 w-10 items-center justify-center rounded-full bg-primary text-bg neon-box"
        >
          <Icon name={playing ? 'pause' : 'play'} size={20} />
        </button>
        <span className="font-mono text-sm text-muted" data-testid="generated-time">
          {formatDuration(time)} / {formatDuration(track.duration)}
        </span>
      </div>
    </div>
  )
}
