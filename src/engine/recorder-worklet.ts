/**
 * Loads audio-worklets/recorder-processor.ts into a context (once per context) and creates taps:
 *
 *   loadRecorderWorklet(ctx)
 *   createCaptureTap(ctx, { channels, blockFrames, onBlock }) → CaptureTap (blocks in order, each
 *     with the context frame of its first sample; stop() delivers the rest)
 *   createProgressTap(ctx, onFrame) → ProgressTap (frames rendered so far, for offline renders)
 *
 * The frames travel through a SampleRing in a SharedArrayBuffer, drained here on a timer; only a
 * page without cross-origin isolation (no SharedArrayBuffer) falls back to the processor posting
 * blocks. recorder-params.ts has the contract.
 */
import { AudioWorkletNode, type IAudioWorkletNode } from 'standardized-audio-context'
import recorderUrl from '../../audio-worklets/recorder-processor.ts?worker&url'
import { RECORDER_PROCESSOR, type RecorderCommand, type RecorderEvent, type RecorderOptions } from '../../audio-worklets/recorder-params.ts'
import { SampleRing } from '../../audio-worklets/sample-ring.ts'
import type { AnyAudioContext } from './mixer-audio.ts'
import { RingBlockReader, type BlockHandler } from './ring-block-reader.ts'

export type RecorderTransport = 'ring' | 'messages'

/** How often the main thread empties the ring: well inside a block, so meters stay as lively. */
const DRAIN_MS = 25
/** The ring covers a main thread this long busy (or throttled) before frames would be dropped. */
const RING_SECONDS = 10
/** The processor answers within a render quantum; a suspended context never does. */
const STOP_TIMEOUT_MS = 500

const loaded = new WeakMap<AnyAudioContext, Promise<void>>()

export function loadRecorderWorklet(ctx: AnyAudioContext): Promise<void> {
  let p = loaded.get(ctx)
  if (!p) {
    p = ctx.audioWorklet!.addModule(recorderUrl)
    loaded.set(ctx, p)
    p.catch(() => loaded.delete(ctx))
  }
  return p
}

/** SharedArrayBuffer exists only on a cross-origin-isolated page (our servers send the headers). */
export function sharedMemoryAvailable(): boolean {
  return typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated === true
}

function recorderNode(ctx: AnyAudioContext, channels: 1 | 2, options: RecorderOptions): IAudioWorkletNode<AnyAudioContext> {
  return new AudioWorkletNode!(ctx, RECORDER_PROCESSOR, {
    numberOfInputs: 1,
    numberOfOutputs: 1,
    outputChannelCount: [1],
    channelCount: channels,
    channelCountMode: 'explicit',
    channelInterpretation: 'speakers',
    processorOptions: options,
  })
}

/** Posts a command and resolves on the processor's 'flushed' (or after the timeout). */
function command(node: IAudioWorkletNode<AnyAudioContext>, cmd: RecorderCommand, flushed: Promise<void>): Promise<void> {
  node.port.postMessage(cmd)
  return Promise.race([flushed, new Promise<void>((r) => setTimeout(r, STOP_TIMEOUT_MS))])
}

export interface CaptureTapOptions {
  channels?: 1 | 2
  blockFrames?: number
  /** Blocks in order; with the ring the arrays are reused after the call: copy what you keep. */
  onBlock: BlockHandler
  /** Tests force 'messages' to exercise the fallback; the app lets the page decide. */
  transport?: RecorderTransport
}

export interface CaptureTap {
  readonly node: IAudioWorkletNode<AnyAudioContext>
  readonly transport: RecorderTransport
  /** Ends the processor and delivers every frame it captured before the stop. */
  stop(): Promise<void>
}

export function createCaptureTap(ctx: AnyAudioContext, options: CaptureTapOptions): CaptureTap {
  const channels = options.channels ?? 1
  const blockFrames = options.blockFrames ?? 4096
  const transport = options.transport ?? (sharedMemoryAvailable() ? 'ring' : 'messages')
  let resolveFlushed = () => {}
  const flushed = new Promise<void>((r) => (resolveFlushed = r))

  if (transport === 'ring') {
    const ring = SampleRing.create(channels, Math.max(blockFrames * 4, Math.round(ctx.sampleRate * RING_SECONDS)))
    const reader = new RingBlockReader(ring, blockFrames, options.onBlock)
    const node = recorderNode(ctx, channels, { channels, blockFrames, ring: ring.buffer })
    node.port.onmessage = (e: MessageEvent<RecorderEvent>) => {
      if (e.data.type === 'flushed') resolveFlushed()
    }
    const timer = setInterval(() => reader.drain(), DRAIN_MS)
    return {
      node,
      transport,
      async stop() {
        await command(node, 'stop', flushed)
        clearInterval(timer)
        reader.drain(true)
      },
    }
  }

  const node = recorderNode(ctx, channels, { channels, blockFrames })
  node.port.onmessage = (e: MessageEvent<RecorderEvent>) => {
    const m = e.data
    if (m.type === 'flushed') resolveFlushed()
    else if (m.type === 'block') options.onBlock(m.channels, m.startFrame)
  }
  return { node, transport, stop: () => command(node, 'stop', flushed) }
}

export interface ProgressTap {
  readonly node: IAudioWorkletNode<AnyAudioContext>
  dispose(): void
}

/**
 * A silent tap that reports how far a render has got (an offline context has no progress event).
 * With the ring it holds no audio, only a count of frames, read on a timer.
 */
export function createProgressTap(
  ctx: AnyAudioContext,
  length: number,
  onFrame: (frame: number) => void,
  transport: RecorderTransport = sharedMemoryAvailable() ? 'ring' : 'messages',
): ProgressTap {
  if (transport === 'ring') {
    // Room for the whole render (and the last quantum's overshoot), so nothing needs draining.
    const ring = SampleRing.create(0, length + 256)
    const node = recorderNode(ctx, 1, { capture: false, ring: ring.buffer })
    let last = -1
    const timer = setInterval(() => {
      const frame = ring.firstFrame + ring.availableRead()
      if (frame > last) onFrame((last = frame))
    }, DRAIN_MS * 2)
    return { node, dispose: () => clearInterval(timer) }
  }
  const node = recorderNode(ctx, 1, { capture: false, blockFrames: Math.max(4096, Math.floor(length / 100)) })
  node.port.onmessage = (e: MessageEvent<RecorderEvent>) => {
    if (e.data.type === 'tick') onFrame(e.data.frame)
  }
  return { node, dispose: () => (node.port.onmessage = null) }
}
