import { useEffect, useRef } from 'react'

const BARS = 64

/** Live spectrum of the master bus (what is heard), drawn each animation frame while visible. */
export function Spectrum() {
  const canvas = useRef<HTMLCanvasElement>(null)

  useEffect(() => {
    let raf = 0
    let disposed = false
    let draw: (() => void) | undefined
    const start = () => {
      if (!raf && draw && !document.hidden) raf = requestAnimationFrame(draw)
    }
    const stop = () => {
      cancelAnimationFrame(raf)
      raf = 0
    }
    const onVisibility = () => (document.hidden ? stop() : start())
    document.addEventListener('visibilitychange', onVisibility)

    void import('../../engine/master-bus.ts').then(({ getMasterBus }) => {
      if (disposed || !canvas.current) return
      const cv = canvas.current
      const g = cv.getContext('2d')
      if (!g) return
      const { analyser, context } = getMasterBus()
      const bins = new Uint8Array(analyser.frequencyBinCount)
      const nyquist = context.sampleRate / 2
      // Log-spaced bands from 30 Hz to Nyquist, so bass and treble both get room.
      const edges = Array.from({ length: BARS + 1 }, (_, i) =>
        Math.min(bins.length, Math.max(1, Math.round(((30 * Math.pow(nyquist / 30, i / BARS)) / nyquist) * bins.length))),
      )
      const style = getComputedStyle(document.documentElement)
      const primary = style.getPropertyValue('--theme-primary').trim() || '#00f0ff'
      const secondary = style.getPropertyValue('--theme-secondary').trim() || '#ff00c8'
      draw = () => {
        raf = 0
        const dpr = window.devicePixelRatio || 1
        const w = Math.round(cv.clientWidth * dpr)
        const h = Math.round(cv.clientHeight * dpr)
        if (cv.width !== w || cv.height !== h) {
          cv.width = w
          cv.height = h
        }
        analyser.getByteFrequencyData(bins)
        g.clearRect(0, 0, w, h)
        const grad = g.createLinearGradient(0, h, 0, 0)
        grad.addColorStop(0, secondary)
        grad.addColorStop(1, primary)
        g.fillStyle = grad
        const bw = w / BARS
        let energy = 0
        for (let b = 0; b < BARS; b++) {
          const lo = edges[b]!
          const hi = Math.max(lo + 1, edges[b + 1]!)
          let peak = 0
          for (let i = lo; i < hi && i < bins.length; i++) peak = Math.max(peak, bins[i]!)
          energy += peak
          const bh = (peak / 255) * h
          g.fillRect(b * bw + 1, h - bh, Math.max(1, bw - 2), bh)
        }
        cv.dataset.energy = String(energy)
        start()
      }
      start()
    })
    return () => {
      disposed = true
      stop()
      document.removeEventListener('visibilitychange', onVisibility)
    }
  }, [])

  return (
    <canvas
      ref={canvas}
      data-testid="spectrum"
      role="img"
      aria-label="Live spectrum of the master output"
      className="h-32 w-full rounded-md border border-line bg-bg/60"
    />
  )
}
