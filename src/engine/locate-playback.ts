/**
 * The exact context time at which an item's offset 0 plays, found by listening to it.
 *
 *   locatePlayback(ctx, node, buffer, estimatedStartAt, radiusS) → Promise<number | null>
 *
 * The deck needs that time to the frame: the next item starts on the current one's last frame. Two
 * starts are not known that well: a media element reports its time to tens of ms, and a buffer the
 * user starts "now" sounds from the render quantum the audio thread reaches it in, which may come
 * after the one asked for. So the deck captures one block of what `node` plays with the recorder tap
 * (each block carries the context frame of its first sample) and finds that block in the item's
 * decoded buffer (dsp/stream-align.ts): capture frame F holds buffer frame k, so offset 0 plays at
 * (F − k) / sampleRate, on the sample grid. Null when the moment cannot be matched for sure (silence,
 * a held tone) or the context stops rendering; the deck then keeps its estimate.
 */
import type { IAudioBuffer, IAudioContext, IAudioNode } from 'standardized-audio-context'
import { locateCapture } from '../../dsp/stream-align.ts'
import { createCaptureTap, loadRecorderWorklet } from './recorder-worklet.ts'

/** About 170 ms at 48 kHz: long enough to be unique in music, short enough to match in a few ms. */
const CAPTURE_FRAMES = 8192
/** A running context fills a block in ~0.2 s; a suspended one never does. */
const CAPTURE_TIMEOUT_MS = 1500

type Ctx = IAudioContext

/** Frames from..to of the buffer, mixed to mono as the tap's one-channel input mixes them. */
function monoSlice(buffer: IAudioBuffer, from: number, to: number): Float32Array {
  const out = new Float32Array(Math.max(0, to - from))
  const channels = Math.min(2, buffer.numberOfChannels)
  for (let c = 0; c < channels; c++) {
    const data = buffer.getChannelData(c).subarray(from, to)
    for (let i = 0; i < data.length; i++) out[i] = out[i]! + data[i]! / channels
  }
  return out
}

function captureBlock(ctx: Ctx, source: IAudioNode<Ctx>): Promise<{ samples: Float32Array; startFrame: number } | null> {
  return new Promise((resolve) => {
    let block: { samples: Float32Array; startFrame: number } | null = null
    let finished = false
    const tap = createCaptureTap(ctx, {
      channels: 1,
      blockFrames: CAPTURE_FRAMES,
      onBlock: (channels, startFrame) => {
        if (block || finished) return
        block = { samples: channels[0]!.slice(), startFrame }
        void finish()
      },
    })
    source.connect(tap.node)
    // A worklet node is rendered only while it leads to the destination (its output is silent).
    tap.node.connect(ctx.destination)
    const timer = setTimeout(() => void finish(), CAPTURE_TIMEOUT_MS)
    async function finish() {
      if (finished) return
      finished = true
      clearTimeout(timer)
      try {
        source.disconnect(tap.node)
      } catch {
        // The item stopped meanwhile and its nodes were disconnected from everything already.
      }
      try {
        await tap.stop()
        tap.node.disconnect()
      } finally {
        resolve(block)
      }
    }
  })
}

/** `radiusS`: how far the estimate may be off either way. */
export async function locatePlayback(
  ctx: Ctx,
  source: IAudioNode<Ctx>,
  buffer: IAudioBuffer,
  estimatedStartAt: number,
  radiusS: number,
): Promise<number | null> {
  await loadRecorderWorklet(ctx)
  const block = await captureBlock(ctx, source)
  if (!block) return null
  const sr = ctx.sampleRate
  const radius = Math.round(radiusS * sr)
  const expected = block.startFrame - Math.round(estimatedStartAt * sr)
  const from = Math.max(0, expected - radius)
  const to = Math.min(buffer.length, expected + radius + block.samples.length)
  if (to - from < block.samples.length) return null
  const found = locateCapture(block.samples, monoSlice(buffer, from, to), expected - from, radius)
  return found ? (block.startFrame - (from + found.frame)) / sr : null
}
