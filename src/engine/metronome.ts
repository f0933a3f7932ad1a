/**
 * The metronome: clicks on the timeline's beats while the mixer plays, and a count-in bar before a
 * recording. Clicks go to the master bus (heard, metered) but are never part of the mix, so an
 * export never contains them.
 *
 *   beatsBetween(from, to, bpm)  timeline beats in [from, to): { time, accent } (accent on bar starts, 4/4)
 *   clickAt(ctx, destination, when, accent)   one click at a context time
 *   countIn(ctx, destination, bpm, beats = 4) → context time the bar after the clicks begins
 */
import type { IAudioBuffer, IAudioNode } from 'standardized-audio-context'
import type { AnyAudioContext } from './mixer-audio.ts'

export const BEATS_PER_BAR = 4
/** Count-in clicks start this long after the button is pressed, so the first one is never late. */
export const COUNT_IN_LEAD_SECONDS = 0.1
const CLICK_SECONDS = 0.04

export interface Beat {
  time: number
  accent: boolean
}

export function beatsBetween(from: number, to: number, bpm: number): Beat[] {
  const beat = 60 / bpm
  const out: Beat[] = []
  // A beat exactly at `from` belongs to this window; one a rounding error before it does too.
  for (let k = Math.max(0, Math.ceil(from / beat - 1e-9)); k * beat < to - 1e-9; k++)
    out.push({ time: k * beat, accent: k % BEATS_PER_BAR === 0 })
  return out
}

const buffers = new WeakMap<object, { accent: IAudioBuffer; beat: IAudioBuffer }>()

/** A short decaying sine: 1.5 kHz on the bar, 1 kHz on the other beats. */
function clickBuffers(ctx: AnyAudioContext) {
  let b = buffers.get(ctx)
  if (!b) {
    const make = (freq: number, level: number) => {
      const n = Math.round(CLICK_SECONDS * ctx.sampleRate)
      const buf = ctx.createBuffer(1, n, ctx.sampleRate)
      const data = buf.getChannelData(0)
      for (let i = 0; i < n; i++) data[i] = level * Math.sin((2 * Math.PI * freq * i) / ctx.sampleRate) * Math.exp((-8 * i) / n)
      return buf
    }
    b = { accent: make(1500, 0.6), beat: make(1000, 0.45) }
    buffers.set(ctx, b)
  }
  return b
}

export function clickAt(ctx: AnyAudioContext, destination: IAudioNode<AnyAudioContext>, when: number, accent: boolean): void {
  const src = ctx.createBufferSource()
  const { accent: a, beat } = clickBuffers(ctx)
  src.buffer = accent ? a : beat
  src.connect(destination as never)
  src.onended = () => src.disconnect()
  src.start(Math.max(when, ctx.currentTime))
}

export function countIn(ctx: AnyAudioContext, destination: IAudioNode<AnyAudioContext>, bpm: number, beats = BEATS_PER_BAR): number {
  const beat = 60 / bpm
  const t0 = ctx.currentTime + COUNT_IN_LEAD_SECONDS
  for (let k = 0; k < beats; k++) clickAt(ctx, destination, t0 + k * beat, k === 0)
  return t0 + beats * beat
}
