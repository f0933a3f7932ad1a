import { useEffect, useRef } from 'react'
import { isAudioRunning } from '../../../engine/audio-context.ts'
import { getMasterBus } from '../../../engine/master-bus.ts'

/**
 * The master's live waveform: the last ~40 ms of what leaves the master bus (its analyser, after
 * the master strip and limiter), drawn each animation frame while the page is visible. The canvas
 * carries the drawn frame's peak in data-peak (end-to-end tests read it; speakers are muted there).
 */
export function MasterWaveform() {
  const canvas = useRef<HTMLCanvasElement>(null)

  useEffect(() => {
    const cv = canvas.current
    const g = cv?.getContext('2d')
    if (!cv || !g) return
    let raf = 0
    let samples: Float32Array<ArrayBuffer> | null = null
    const color = getComputedStyle(document.documentElement).getPropertyValue('--theme-accent').trim() || '#f0f'
    // The size of the flat line on the canvas now: silence after silence is not redrawn.
    let flatAt = ''
    const draw = () => {
      raf = requestAnimationFrame(draw)
      const dpr = window.devicePixelRatio || 1
      const w = Math.max(1, Math.round(cv.clientWidth * dpr))
      const h = Math.max(1, Math.round(cv.clientHeight * dpr))
      // Before any sound the context may not exist yet; creating it here would be too early.
      const running = isAudioRunning()
      if (running) {
        const { analyser } = getMasterBus()
        if (!samples || samples.length !== analyser.fftSize) samples = new Float32Array(analyser.fftSize)
        analyser.getFloatTimeDomainData(samples)
      }
      const silent = !running || !samples || samples.every((v) => v === 0)
      if (silent && flatAt === `${w}x${h}`) return
      if (cv.width !== w || cv.height !== h) {
        cv.width = w
        cv.height = h
      }
      g.clearRect(0, 0, w, h)
      g.strokeStyle = color
      g.lineWidth = Math.max(1, dpr)
      g.beginPath()
      let peak = 0
      if (!silent && samples) {
        const n = samples.length
        for (let x = 0; x < w; x++) {
          const v = samples[Math.floor((x / w) * n)]!
          peak = Math.max(peak, Math.abs(v))
          const y = h / 2 - v * (h / 2)
          if (x === 0) g.moveTo(x, y)
          else g.lineTo(x, y)
        }
      } else {
        g.moveTo(0, h / 2)
        g.lineTo(w, h / 2)
      }
      g.stroke()
      cv.dataset.peak = peak.toFixed(4)
      flatAt = silent ? `${w}x${h}` : ''
    }
    const start = () => {
      if (!raf && !document.hidden) raf = requestAnimationFrame(draw)
    }
    const stop = () => {
      cancelAnimationFrame(raf)
      raf = 0
    }
    const onVisibility = () => (document.hidden ? stop() : start())
    document.addEventListener('visibilitychange', onVisibility)
    start()
    return () => {
      stop()
      document.removeEventListener('visibilitychange', onVisibility)
    }
  }, [])

  return (
    <canvas
      ref={canvas}
      data-testid="master-waveform"
      role="img"
      aria-label="Live waveform of the master output"
      className="mt-3 h-12 w-full rounded border border-line bg-bg/70"
    />
  )
}
