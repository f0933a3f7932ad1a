/** The live graph's track stems (no master strip) rendered offline: the reference the export is tested against. */
import { OfflineAudioContext } from 'standardized-audio-context'
import { buildMixGraph, prepareMixContext } from '../../src/engine/mixer-graph.ts'
import type { MixerState } from '../../src/engine/mixer-model.ts'

export async function graphStems(state: MixerState, length: number, sampleRate: number): Promise<Float32Array[]> {
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length, sampleRate })
  await prepareMixContext(ctx)
  const bus = ctx.createGain()
  bus.connect(ctx.destination)
  buildMixGraph(ctx, state, { destination: bus as never, master: false }).start(0, 0)
  const out = await ctx.startRendering()
  return [out.getChannelData(0).slice(), out.getChannelData(1).slice()]
}

/** The largest sample difference between two renders of the same length. */
export function maxAbsDiff(a: Float32Array, b: Float32Array, from = 0, to = a.length): number {
  let m = 0
  for (let i = from; i < to; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!))
  return m
}
