import { useEffect, useRef } from 'react'
import { mixerEngine } from '../../../engine/mixer-engine.ts'

/**
 * Peak and RMS bars fed by the channel-strip worklet's level messages. Written straight to the DOM
 * (no React state) so ~30 updates a second per track cost no re-renders.
 */
export function LevelMeter({ levelKey, label }: { levelKey: string; label: string }) {
  const rmsRef = useRef<HTMLDivElement>(null)
  const peakRef = useRef<HTMLDivElement>(null)
  const boxRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    let decayTimer: ReturnType<typeof setTimeout> | null = null
    const set = (peak: number, rms: number) => {
      if (rmsRef.current) rmsRef.current.style.width = `${toPercent(rms)}%`
      if (peakRef.current) peakRef.current.style.left = `${toPercent(peak)}%`
      boxRef.current?.setAttribute('data-peak', peak.toFixed(4))
      boxRef.current?.setAttribute('data-rms', rms.toFixed(4))
      boxRef.current?.setAttribute('aria-valuenow', rms.toFixed(2))
    }
    const off = mixerEngine.onLevels((key, l) => {
      if (key !== levelKey) return
      set(l.peak, l.rms)
      // Strips stop posting when nothing plays; drop the bars instead of freezing them.
      if (decayTimer) clearTimeout(decayTimer)
      decayTimer = setTimeout(() => set(0, 0), 250)
    })
    return () => {
      off()
      if (decayTimer) clearTimeout(decayTimer)
    }
  }, [levelKey])
  return (
    <div
      ref={boxRef}
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={1}
      aria-valuenow={0}
      data-testid={`meter-${levelKey}`}
      className="relative h-2 w-full overflow-hidden rounded bg-line/60"
    >
      <div ref={rmsRef} className="absolute inset-y-0 left-0 bg-gradient-to-r from-primary via-accent to-secondary" style={{ width: 0 }} />
      <div ref={peakRef} className="absolute inset-y-0 w-0.5 bg-fg" style={{ left: 0 }} />
    </div>
  )
}

/** dBFS mapped onto -60..0 dB → 0..100 %. */
export function toPercent(level: number): number {
  if (level <= 0) return 0
  const db = 20 * Math.log10(level)
  return Math.max(0, Math.min(100, ((db + 60) / 60) * 100))
}
