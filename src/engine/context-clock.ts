/**
 * Where the page's clock (performance.now, ms) meets the audio context's (seconds): the context
 * time at a given page instant, for starts that must happen at one shared instant (play together).
 *
 * currentTime does not run smoothly: it moves on once per block the audio thread renders (a render
 * quantum, or a whole output buffer of 10 ms and more), so one reading can be a block behind. Each
 * reading gives a lead, currentTime − performance.now(), that is at most the true lead, and right
 * after a block it is the true lead; the largest of the readings of the last WINDOW_MS is taken.
 * keepContextClock reads it every few ms while a shared start may come, so the estimate is within
 * a small part of a block. A lead that falls far below the others (the context was suspended and
 * resumed, its clock stood still) starts the readings afresh.
 *
 * contextTimeHeardAt takes the device's output latency off (output-latency.ts): a start placed there
 * is heard at that instant, so studios on speakers and on Bluetooth headphones are heard together.
 */
import type { IAudioContext } from 'standardized-audio-context'
import { outputLatencySeconds } from './output-latency.ts'

const WINDOW_MS = 1_000
/** Larger than any block: a lead this far below the best means the context's clock stood still. */
const JUMP_SECONDS = 0.1
const EVERY_MS = 5

interface Reading {
  perfMs: number
  lead: number
}

let readings: Reading[] = []

function read(ctx: IAudioContext) {
  const perfMs = performance.now()
  const lead = ctx.currentTime - perfMs / 1000
  const best = readings.reduce((m, r) => Math.max(m, r.lead), -Infinity)
  if (lead < best - JUMP_SECONDS) readings = []
  readings = readings.filter((r) => perfMs - r.perfMs <= WINDOW_MS)
  readings.push({ perfMs, lead })
}

/** The context time at page time `performanceMs` (performance.now's clock). */
export function contextTimeAt(ctx: IAudioContext, performanceMs: number): number {
  read(ctx)
  const lead = readings.reduce((m, r) => Math.max(m, r.lead), -Infinity)
  return performanceMs / 1000 + lead
}

/** The context time whose sample is heard at page time `performanceMs`: earlier by the output latency. */
export const contextTimeHeardAt = (ctx: IAudioContext, performanceMs: number): number =>
  contextTimeAt(ctx, performanceMs) - outputLatencySeconds(ctx)

/** Reads the context's clock every few ms until the returned stop is called. */
export function keepContextClock(ctx: IAudioContext): () => void {
  const timer = setInterval(() => read(ctx), EVERY_MS)
  return () => clearInterval(timer)
}
