/**
 * The AI Generator's flow: idle → composing → rendering → ready, or failed; cancellable.
 *
 *   createGenerationMachine({ compose, render })   dependencies are injected (the app passes the
 *                                                  composer worker and the Tone renderer; tests fakes)
 *   events: GENERATE { request } | CANCEL | RESET
 *   context: request, score, buffer, progress (0 … 1), error
 *
 * Leaving 'composing' or 'rendering' (CANCEL, or a new GENERATE from a later state) stops the
 * running actor, which aborts its AbortSignal: the renderer stops at its next suspend point.
 * The 'notifyFailed' action (provide it to show the toast) runs on entry to 'failed'.
 */
import { assign, fromCallback, fromPromise, setup, type ActorRefFrom } from 'xstate'
import type { Score } from '../../engine/composer.ts'
import { errorMessage } from '../../lib/error-message.ts'

export const GENERATION_FAILED_TITLE = 'Generation failed'
export const GENERATION_FAILED_MESSAGE = 'There was an error generating your music. Please try again.'
export const DESCRIPTION_REQUIRED_TITLE = 'Description required'
export const DESCRIPTION_REQUIRED_MESSAGE = 'Please provide a description for your music'
/** Longest description the form takes (and a share link may carry). */
export const DESCRIPTION_MAX = 500

/** Share of the progress bar given to composing; rendering fills the rest. */
const COMPOSE_SHARE = 0.05

export interface GenerationRequest {
  description: string
  /** Unset: inferred from the description. */
  mood?: string
  genre?: string
  /** Unset: the instruments the description names; [] keeps the genre's own voices. */
  instruments?: readonly string[]
}

export interface GenerationDeps {
  compose: (request: GenerationRequest, signal: AbortSignal) => Promise<Score>
  render: (score: Score, options: { signal: AbortSignal; onProgress: (fraction: number) => void }) => Promise<AudioBuffer>
}

export interface GenerationContext {
  request: GenerationRequest | null
  score: Score | null
  buffer: AudioBuffer | null
  progress: number
  error: string | null
}

type GenerationEvent =
  | { type: 'GENERATE'; request: GenerationRequest }
  | { type: 'CANCEL' }
  | { type: 'RESET' }
  | { type: 'RENDER.PROGRESS'; fraction: number }
  | { type: 'RENDER.DONE'; buffer: AudioBuffer }
  | { type: 'RENDER.FAILED'; error: unknown }

export function createGenerationMachine(deps: GenerationDeps) {
  type Ctx = GenerationContext
  type Ev = GenerationEvent

  return setup({
    types: {} as { context: Ctx; events: Ev },
    actors: {
      composer: fromPromise<Score, GenerationRequest>(({ input, signal }) => deps.compose(input, signal)),
      renderer: fromCallback<Ev, Score>(({ input, sendBack }) => {
        const controller = new AbortController()
        deps.render(input, { signal: controller.signal, onProgress: (fraction) => sendBack({ type: 'RENDER.PROGRESS', fraction }) }).then(
          (buffer) => !controller.signal.aborted && sendBack({ type: 'RENDER.DONE', buffer }),
          (error: unknown) => !controller.signal.aborted && sendBack({ type: 'RENDER.FAILED', error }),
        )
        return () => controller.abort()
      }),
    },
    actions: {
      notifyFailed: () => {},
    },
    guards: {
      hasDescription: ({ event }) => event.type === 'GENERATE' && event.request.description.trim().length > 0,
    },
  }).createMachine({
    id: 'generation',
    initial: 'idle',
    context: { request: null, score: null, buffer: null, progress: 0, error: null },
    on: {
      GENERATE: {
        guard: 'hasDescription',
        target: '.composing',
        actions: assign(({ event }) => ({
          request: (event as Extract<Ev, { type: 'GENERATE' }>).request,
          score: null,
          buffer: null,
          progress: 0,
          error: null,
        })),
      },
    },
    states: {
      idle: {},
      composing: {
        invoke: {
          src: 'composer',
          input: ({ context }) => context.request as GenerationRequest,
          onDone: { target: 'rendering', actions: assign({ score: ({ event }) => event.output, progress: COMPOSE_SHARE }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => errorMessage(event.error) }) },
        },
        on: { CANCEL: { target: 'idle', actions: assign({ progress: 0 }) } },
      },
      rendering: {
        invoke: { src: 'renderer', input: ({ context }) => context.score as Score },
        on: {
          'RENDER.PROGRESS': {
            actions: assign({ progress: ({ event }) => COMPOSE_SHARE + (1 - COMPOSE_SHARE) * Math.min(1, Math.max(0, event.fraction)) }),
          },
          'RENDER.DONE': { target: 'ready', actions: assign({ buffer: ({ event }) => event.buffer, progress: 1 }) },
          'RENDER.FAILED': { target: 'failed', actions: assign({ error: ({ event }) => errorMessage(event.error) }) },
          CANCEL: { target: 'idle', actions: assign({ progress: 0, score: null }) },
        },
      },
      ready: { on: { RESET: { target: 'idle', actions: assign({ buffer: null, score: null, progress: 0 }) } } },
      failed: {
        entry: 'notifyFailed',
        on: { RESET: { target: 'idle', actions: assign({ error: null, progress: 0 }) } },
      },
    },
  })
}

export type GenerationMachine = ReturnType<typeof createGenerationMachine>
export type GenerationActor = ActorRefFrom<GenerationMachine>
