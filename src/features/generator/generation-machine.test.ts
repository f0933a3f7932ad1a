import { describe, expect, it, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { createGenerationMachine, type GenerationDeps, type GenerationRequest } from './generation-machine.ts'
import type { Score } from '../../engine/composer.ts'

// Stand-ins: the machine only passes scores and buffers along, so tiny fakes are enough.
const fakeScore = (bpm: number) => ({ bpm }) as unknown as Score
const fakeBuffer = (label: string) => ({ label }) as unknown as AudioBuffer

const REQ: GenerationRequest = { description: 'neon rain', mood: 'dark', genre: 'ambient' }

/** A renderer whose progress and completion the test drives by hand. */
function manualRenderer() {
  let progress: (f: number) => void = () => {}
  let resolve: (b: AudioBuffer) => void = () => {}
  let reject: (e: unknown) => void = () => {}
  let signal: AbortSignal | null = null
  const render: GenerationDeps['render'] = (_score, opts) => {
    progress = opts.onProgress
    signal = opts.signal
    return new Promise<AudioBuffer>((ok, fail) => {
      resolve = ok
      reject = fail
    })
  }
  return {
    render,
    progress: (f: number) => progress(f),
    finish: (label: string) => resolve(fakeBuffer(label)),
    fail: (e: unknown) => reject(e),
    signal: () => signal,
  }
}

describe('generation machine', () => {
  it('goes idle → composing → rendering → ready with progress in context', async () => {
    const r = manualRenderer()
    const compose = vi.fn(async (req: GenerationRequest) => fakeScore(req.description.length))
    const actor = createActor(createGenerationMachine({ compose, render: r.render })).start()
    expect(actor.getSnapshot().value).toBe('idle')
    actor.send({ type: 'GENERATE', request: REQ })
    expect(actor.getSnapshot().value).toBe('composing')
    await waitFor(actor, (s) => s.matches('rendering'))
    expect(compose).toHaveBeenCalledWith(REQ, expect.any(AbortSignal))
    expect(actor.getSnapshot().context.score).toEqual({ bpm: 9 })
    r.progress(0.5)
    const mid = actor.getSnapshot().context.progress
    expect(mid).toBeGreaterThan(0.4)
    expect(mid).toBeLessThan(0.6)
    r.finish('AUDIO')
    await waitFor(actor, (s) => s.matches('ready'))
    expect(actor.getSnapshot().context).toMatchObject({ buffer: { label: 'AUDIO' }, progress: 1, error: null, request: REQ })
  })

  it('ignores GENERATE without a description', () => {
    const actor = createActor(createGenerationMachine({ compose: async () => fakeScore(1), render: async () => fakeBuffer('x') })).start()
    actor.send({ type: 'GENERATE', request: { ...REQ, description: '   ' } })
    expect(actor.getSnapshot().value).toBe('idle')
  })

  it('cancel during rendering returns to idle and aborts the render', async () => {
    const r = manualRenderer()
    const actor = createActor(createGenerationMachine({ compose: async () => fakeScore(1), render: r.render })).start()
    actor.send({ type: 'GENERATE', request: REQ })
    await waitFor(actor, (s) => s.matches('rendering'))
    expect(r.signal()?.aborted).toBe(false)
    actor.send({ type: 'CANCEL' })
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().context.progress).toBe(0)
    expect(r.signal()?.aborted).toBe(true)
    // A late result from the aborted render changes nothing.
    r.finish('LATE')
    await new Promise((ok) => setTimeout(ok, 10))
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().context.buffer).toBeNull()
  })

  it('cancel during composing aborts the composer and never renders', async () => {
    let composeSignal: AbortSignal | null = null
    const render = vi.fn(async () => fakeBuffer('x'))
    const actor = createActor(
      createGenerationMachine({
        compose: (_req, signal) => {
          composeSignal = signal
          return new Promise(() => {})
        },
        render,
      }),
    ).start()
    actor.send({ type: 'GENERATE', request: REQ })
    actor.send({ type: 'CANCEL' })
    expect(actor.getSnapshot().value).toBe('idle')
    expect(composeSignal!.aborted).toBe(true)
    expect(render).not.toHaveBeenCalled()
  })

  it('fails (and runs notifyFailed once) when composing or rendering throws; can retry', async () => {
    const notifyFailed = vi.fn()
    const compose = vi.fn().mockRejectedValueOnce(new Error('worker crashed')).mockResolvedValue(fakeScore(2))
    const r = manualRenderer()
    const machine = createGenerationMachine({ compose, render: r.render }).provide({ actions: { notifyFailed } })
    const actor = createActor(machine).start()
    actor.send({ type: 'GENERATE', request: REQ })
    await waitFor(actor, (s) => s.matches('failed'))
    expect(actor.getSnapshot().context.error).toBe('worker crashed')
    expect(notifyFailed).toHaveBeenCalledTimes(1)
    actor.send({ type: 'GENERATE', request: REQ })
    await waitFor(actor, (s) => s.matches('rendering'))
    r.fail(new Error('out of memory'))
    await waitFor(actor, (s) => s.matches('failed'))
    expect(actor.getSnapshot().context.error).toBe('out of memory')
    expect(notifyFailed).toHaveBeenCalledTimes(2)
    actor.send({ type: 'RESET' })
    expect(actor.getSnapshot().value).toBe('idle')
  })

  it('a new GENERATE while rendering restarts and aborts the old render', async () => {
    const renders: ReturnType<typeof manualRenderer>[] = []
    const actor = createActor(
      createGenerationMachine({
        compose: async (req) => fakeScore(req.description.length),
        render: (score, opts) => {
          const r = manualRenderer()
          renders.push(r)
          return r.render(score, opts)
        },
      }),
    ).start()
    actor.send({ type: 'GENERATE', request: REQ })
    await waitFor(actor, (s) => s.matches('rendering'))
    actor.send({ type: 'GENERATE', request: { ...REQ, description: 'other' } })
    await waitFor(actor, (s) => s.matches('rendering') && renders.length === 2)
    expect(renders[0]!.signal()?.aborted).toBe(true)
    renders[1]!.finish('NEW')
    await waitFor(actor, (s) => s.matches('ready'))
    expect(actor.getSnapshot().context).toMatchObject({ buffer: { label: 'NEW' }, score: { bpm: 5 } })
  })
})
