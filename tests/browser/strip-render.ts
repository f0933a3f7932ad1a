/** Renders buffers through the real channel-strip worklet in an OfflineAudioContext. */
import { OfflineAudioContext as SacOfflineAudioContext } from 'standardized-audio-context'
import { createChannelStrip, loadChannelStrip, STRIP_NEUTRAL, type StripParams } from '../../src/engine/channel-strip.ts'
import { ChannelStripChain } from '../../audio-worklets/channel-strip-chain.ts'
import { STRIP_PARAM_NAMES } from '../../audio-worklets/channel-strip-params.ts'
import { SR } from '../../audio-worklets/kernels/test-signals.ts'

export interface RenderOptions {
  /** 'native' (default) or standardized-audio-context's OfflineAudioContext. */
  flavour?: 'native' | 'sac'
  /** Changes applied at a given time (the context is suspended there, so they land exactly). */
  changes?: { at: number; params: Partial<StripParams> }[]
}

export async function renderStrip(
  params: Partial<StripParams>,
  inL: Float32Array,
  inR: Float32Array = inL,
  options: RenderOptions = {},
): Promise<[Float32Array, Float32Array]> {
  const frames = inL.length
  const full = { ...STRIP_NEUTRAL, ...params }
  if (options.flavour === 'sac') {
    const ctx = new SacOfflineAudioContext({ numberOfChannels: 2, length: frames, sampleRate: SR })
    await loadChannelStrip(ctx)
    const strip = createChannelStrip(ctx, full)
    const buffer = ctx.createBuffer(2, frames, SR)
    buffer.copyToChannel(inL as Float32Array<ArrayBuffer>, 0)
    buffer.copyToChannel(inR as Float32Array<ArrayBuffer>, 1)
    const src = ctx.createBufferSource()
    src.buffer = buffer
    src.connect(strip.node)
    strip.node.connect(ctx.destination)
    src.start(0)
    const out = await ctx.startRendering()
    return [out.getChannelData(0).slice(), out.getChannelData(1).slice()]
  }
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length: frames, sampleRate: SR })
  await loadChannelStrip(ctx)
  const strip = createChannelStrip(ctx, full)
  const buffer = new AudioBuffer({ numberOfChannels: 2, length: frames, sampleRate: SR })
  buffer.copyToChannel(inL as Float32Array<ArrayBuffer>, 0)
  buffer.copyToChannel(inR as Float32Array<ArrayBuffer>, 1)
  const src = new AudioBufferSourceNode(ctx, { buffer })
  src.connect(strip.node)
  strip.node.connect(ctx.destination)
  src.start(0)
  for (const change of options.changes ?? []) {
    void ctx.suspend(change.at).then(() => {
      for (const [k, v] of Object.entries(change.params)) strip.set(k as keyof StripParams, v)
      void ctx.resume()
    })
  }
  const out = await ctx.startRendering()
  return [out.getChannelData(0).slice(), out.getChannelData(1).slice()]
}

/** The same chain run directly on this thread (the reference the worklet must reproduce). */
export function renderChain(params: Partial<StripParams>, inL: Float32Array, inR: Float32Array = inL): [Float32Array, Float32Array] {
  const full = { ...STRIP_NEUTRAL, ...params }
  const chain = new ChannelStripChain(SR)
  STRIP_PARAM_NAMES.forEach((n, i) => chain.set(n, full[n], i))
  chain.snap()
  const outL = new Float32Array(inL.length)
  const outR = new Float32Array(inL.length)
  const l = new Float32Array(128)
  const r = new Float32Array(128)
  for (let start = 0; start < inL.length; start += 128) {
    const n = Math.min(128, inL.length - start)
    l.fill(0)
    r.fill(0)
    l.set(inL.subarray(start, start + n))
    r.set(inR.subarray(start, start + n))
    chain.process(l, r, 128)
    outL.set(l.subarray(0, n), start)
    outR.set(r.subarray(0, n), start)
  }
  return [outL, outR]
}
