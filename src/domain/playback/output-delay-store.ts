/**
 * The speaker or headphone delay the listener set by hand (Settings → Playback), kept on this
 * device: what the engine assumes where the browser reports no output latency (Safari), so starts
 * shared with other devices (play together, CUBE Radio) and the position a recording was heard at
 * are still placed in time. 0 (none) by default; Chromium and Firefox measure it themselves.
 */
import { create } from 'zustand'
import { setUnreportedOutputLatency } from '../../engine/output-latency.ts'
import { deviceSetting } from './device-setting.ts'

export const OUTPUT_DELAY_STORAGE_KEY = 'cube.playback.output-delay-ms.v1'
export const MAX_OUTPUT_DELAY_MS = 500
export const OUTPUT_DELAY_STEP_MS = 10

/** A stored or typed value as whole steps within 0..MAX_OUTPUT_DELAY_MS (anything else: 0). */
export function parseOutputDelay(value: unknown): number {
  const ms = typeof value === 'string' && value.trim() !== '' ? Number(value) : typeof value === 'number' ? value : Number.NaN
  if (!Number.isFinite(ms)) return 0
  const stepped = Math.round(ms / OUTPUT_DELAY_STEP_MS) * OUTPUT_DELAY_STEP_MS
  return Math.min(MAX_OUTPUT_DELAY_MS, Math.max(0, stepped))
}

const stored = deviceSetting(OUTPUT_DELAY_STORAGE_KEY, parseOutputDelay, 'output delay')

interface OutputDelayState {
  /** Milliseconds. */
  delayMs: number
  setDelayMs: (ms: number) => void
}

export const useOutputDelayStore = create<OutputDelayState>()((set) => ({
  delayMs: stored.read(),
  setDelayMs: (ms) => {
    const value = parseOutputDelay(ms)
    set({ delayMs: value })
    stored.write(value)
  },
}))

/** Hands the setting to the engine now and on every change (once per page). */
export function startOutputDelay(): () => void {
  setUnreportedOutputLatency(useOutputDelayStore.getState().delayMs / 1000)
  return useOutputDelayStore.subscribe((s) => setUnreportedOutputLatency(s.delayMs / 1000))
}
