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
 * What plays when comes from clip-plan.ts, the plan the export's workers also follow.
 */
import type { IAudioBuffer, IAudioNode } from 'standardized-audio-context'
import type { AnyAudioContext } from '../mixer-audio.ts'
import type { Clip } from './clip.ts'
import { planClips } from './clip-plan.ts'

export function scheduleClips(
  ctx: AnyAudioContext,
  buffer: IAudioBuffer,
  clips: readonly Clip[],
  destination: IAudioNode<AnyAudioContext>,
  when: number,
  position: number,
): (at?: number) => void {
  const nodes: { src: ReturnType<AnyAudioContext['createBufferSource']>; gain: ReturnType<AnyAudioContext['createGain']> }[] = []
  for (const play of planClips(clips, buffer.duration, when, position, ctx.sampleRate)) {
    const src = ctx.createBufferSource()
    src.buffer = buffer
    if (play.loop) {
      src.loop = true
      src.loopStart = play.loop.start
      src.loopEnd = play.loop.end
    }
    const gain = ctx.createGain()
    // Before the first fade event the gain holds this value (also where a seek lands mid-fade).
    gain.gain.value = play.gain0
    for (const c of play.curves) gain.gain.setValueCurveAtTime(c.values, c.start, c.duration)
    src.connect(gain)
    gain.connect(destination as never)
    src.start(play.startAt, play.offset)
    src.stop(play.stopAt)
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
