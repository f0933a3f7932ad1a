/**
 * Plays a track's clips into its strip's input with native nodes, one AudioBufferSourceNode and
 * one GainNode per clip. The live graph and the export both call this, so the arrangement the
 * export renders is, node for node, the one the user heard.
 *
 *   scheduleClips(ctx, buffer, clips, destination, when, position) → stop(at?)
 *     `when`: the context time that corresponds to timeline `position` (seconds).
 *     stop(): at once; stop(at): at context time `at` (a loop's hand-off), then disconnects itself.
 *
 * Loops use the source's own loopStart/loopEnd, which the browser plays sample-accurately: the
 * loop point is seamless whenever the region itself loops cleanly (a Sound Library loop does).
 * Fades are equal-power curves (setValueCurveAtTime); starting mid-clip schedules only the part of
 * each fade still ahead, so a seek lands on the same gain the full play would have.
 */
import type { IAudioBuffer, IAudioNode } from 'standardized-audio-context'
import type { AnyAudioContext } from '../mixer-audio.ts'
import { clipEnd, fadeInGain, fadeOutGain, isLooped, sourceTimeAt, type Clip } from './clip.ts'

/** Points per fade curve: the browser interpolates linearly between them (under 0.01 dB off at 256). */
const CURVE_POINTS = 256

function curve(gain: number, shape: (u: number) => number, u0: number, u1: number): Float32Array {
  const out = new Float32Array(CURVE_POINTS)
  for (let i = 0; i < CURVE_POINTS; i++) out[i] = gain * shape(u0 + ((u1 - u0) * i) / (CURVE_POINTS - 1))
  return out
}

export function scheduleClips(
  ctx: AnyAudioContext,
  buffer: IAudioBuffer,
  clips: readonly Clip[],
  destination: IAudioNode<AnyAudioContext>,
  when: number,
  position: number,
): (at?: number) => void {
  const nodes: { src: ReturnType<AnyAudioContext['createBufferSource']>; gain: ReturnType<AnyAudioContext['createGain']> }[] = []
  for (const c of clips) {
    if (position >= clipEnd(c) || c.sourceStart >= buffer.duration) continue
    const into = Math.max(0, position - c.start)
    const startAt = when + Math.max(0, c.start - position)
    const remaining = c.length - into
    const src = ctx.createBufferSource()
    src.buffer = buffer
    if (isLooped(c)) {
      src.loop = true
      src.loopStart = c.sourceStart
      src.loopEnd = Math.min(c.sourceEnd, buffer.duration)
    }
    const gain = ctx.createGain()
    // Before the first fade event the gain holds this value (also where a seek lands mid-fade-in).
    gain.gain.value = c.fadeIn > 0 && into < c.fadeIn ? c.gain * fadeInGain(into / c.fadeIn) : c.gain
    if (c.fadeIn > 0 && into < c.fadeIn) gain.gain.setValueCurveAtTime(curve(c.gain, fadeInGain, into / c.fadeIn, 1), startAt, c.fadeIn - into)
    if (c.fadeOut > 0) {
      const outStart = c.length - c.fadeOut
      // A fade-out that starts where the fade-in ends would touch it; the curves must not overlap.
      const gap = c.fadeIn > 0 && into < c.fadeIn && outStart - c.fadeIn < 1 / ctx.sampleRate ? 1 / ctx.sampleRate : 0
      if (into <= outStart) gain.gain.setValueCurveAtTime(curve(c.gain, fadeOutGain, 0, 1), startAt + (outStart - into) + gap, c.fadeOut - gap)
      else {
        const u0 = (into - outStart) / c.fadeOut
        gain.gain.value = c.gain * fadeOutGain(u0)
        gain.gain.setValueCurveAtTime(curve(c.gain, fadeOutGain, u0, 1), startAt, remaining)
      }
    }
    src.connect(gain)
    gain.connect(destination as never)
    src.start(startAt, sourceTimeAt(c, into))
    src.stop(startAt + remaining)
    nodes.push({ src, gain })
  }
  return (at) => {
    for (const { src, gain } of nodes) {
      if (at !== undefined) {
        // A later stop() replaces the scheduled one: the source ends exactly where the next cycle begins.
        src.onended = () => {
          src.disconnect()
          gain.disconnect()
        }
        try {
          src.stop(at)
        } catch {
          // already ended
        }
        continue
      }
      try {
        src.stop()
      } catch {
        // never started or already ended
      }
      src.disconnect()
      gain.disconnect()
    }
    nodes.length = 0
  }
}
