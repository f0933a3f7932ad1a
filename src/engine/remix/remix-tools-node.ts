/**
 * The Remix Studio's Auto Tune and Harmonize as ONE AudioWorkletNode
 * (audio-worklets/remix-tools-processor.ts), mirroring src/engine/channel-strip.ts.
 *
 *   await loadRemixTools(ctx)                adds the worklet module once per context (cached;
 *                                            safe to call again). Works with
 *                                            standardized-audio-context contexts and native ones.
 *   const tools = createRemixTools(ctx, initial?: Partial<RemixToolsControls>)
 *     tools.node                             1 input (mono or stereo), 1 stereo output
 *     tools.set(name, value)                 AudioParam units (clamped, see remix-tools-params.ts);
 *                                            toggles crossfade (~20 ms), so they never click
 *     tools.params                           current values (read-only snapshot)
 *     tools.dispose()                        disconnects and stops the processor
 *
 * Anything `initial` leaves out is the descriptors' default: both tools off, so a bare node
 * passes audio bit for bit. The export renders the same chain in a worker
 * (workers/remix-tools-render.ts) with the same values.
 */
import { AudioWorkletNode as SacAudioWorkletNode, type IAudioWorkletNode, type TContext } from 'standardized-audio-context'
import workletUrl from '../../../audio-worklets/remix-tools-processor.ts?worker&url'
import {
  REMIX_TOOLS_NEUTRAL,
  REMIX_TOOLS_PARAM_BY_NAME,
  REMIX_TOOLS_PARAM_NAMES,
  REMIX_TOOLS_PROCESSOR,
  type RemixToolsControls,
  type RemixToolsParamName,
} from '../../../audio-worklets/remix-tools-params.ts'

export { REMIX_TOOLS_NEUTRAL, REMIX_TOOLS_PARAM_NAMES, type RemixToolsControls, type RemixToolsParamName }

export interface RemixTools<N = IAudioWorkletNode<TContext>> {
  readonly node: N
  set(name: RemixToolsParamName, value: number): void
  readonly params: Readonly<RemixToolsControls>
  dispose(): void
}

type AnyContext = TContext | BaseAudioContext

const loaded = new WeakMap<object, Promise<void>>()

function isNativeContext(ctx: AnyContext): ctx is BaseAudioContext {
  return typeof BaseAudioContext === 'function' && ctx instanceof BaseAudioContext
}

/** Adds the processor module to this context once; later calls return the same promise. */
export function loadRemixTools(ctx: AnyContext): Promise<void> {
  let p = loaded.get(ctx)
  if (!p) {
    const worklet = (ctx as { audioWorklet?: { addModule(url: string): Promise<void> } }).audioWorklet
    p = worklet
      ? worklet.addModule(workletUrl)
      : Promise.reject(new Error('This browser does not support AudioWorklet, which the remix tools need.'))
    // A failed load must not poison the cache: the next call retries.
    p.catch(() => loaded.delete(ctx))
    loaded.set(ctx, p)
  }
  return p
}

function clampControl(name: RemixToolsParamName, value: number): number {
  const d = REMIX_TOOLS_PARAM_BY_NAME[name]
  const v = Number.isFinite(value) ? value : d.defaultValue
  return Math.min(d.maxValue, Math.max(d.minValue, v))
}

/** What a new node starts with: the neutral defaults, with `initial`'s values (clamped) on top. */
export function resolveRemixToolControls(initial: Partial<RemixToolsControls> = {}): RemixToolsControls {
  const controls = { ...REMIX_TOOLS_NEUTRAL }
  for (const name of REMIX_TOOLS_PARAM_NAMES) {
    const v = initial[name]
    if (v !== undefined) controls[name] = clampControl(name, v)
  }
  return controls
}

/**
 * Creates the node on a context whose module is already loaded (`await loadRemixTools(ctx)`).
 * Throws a clear Error otherwise.
 */
export function createRemixTools(ctx: BaseAudioContext, initial?: Partial<RemixToolsControls>): RemixTools<AudioWorkletNode>
export function createRemixTools<T extends TContext>(ctx: T, initial?: Partial<RemixToolsControls>): RemixTools<IAudioWorkletNode<T>>
export function createRemixTools(ctx: AnyContext, initial: Partial<RemixToolsControls> = {}): RemixTools<AudioWorkletNode | IAudioWorkletNode<TContext>> {
  const params = resolveRemixToolControls(initial)
  const options = {
    numberOfInputs: 1,
    numberOfOutputs: 1,
    outputChannelCount: [2],
    channelCount: 2,
    channelCountMode: 'explicit' as const,
    channelInterpretation: 'speakers' as const,
    parameterData: { ...params },
    processorOptions: {},
  }
  let node: AudioWorkletNode | IAudioWorkletNode<TContext>
  try {
    if (isNativeContext(ctx)) node = new AudioWorkletNode(ctx, REMIX_TOOLS_PROCESSOR, options)
    else if (SacAudioWorkletNode) node = new SacAudioWorkletNode(ctx, REMIX_TOOLS_PROCESSOR, options)
    else throw new Error('AudioWorklet is not supported in this browser.')
  } catch (err) {
    throw new Error(`Could not create the remix tools (was loadRemixTools(ctx) awaited?): ${(err as Error).message}`, { cause: err })
  }
  let disposed = false

  return {
    node,
    get params() {
      return { ...params }
    },
    set(name, value) {
      if (disposed || !REMIX_TOOLS_PARAM_NAMES.includes(name)) return
      const v = clampControl(name, value)
      params[name] = v
      // k-rate params; the processor fades and glides each control itself, so a plain step is click-free.
      node.parameters.get(name)?.setValueAtTime(v, ctx.currentTime)
    },
    dispose() {
      if (disposed) return
      disposed = true
      node.port.postMessage({ type: 'dispose' })
      node.disconnect()
    },
  }
}
