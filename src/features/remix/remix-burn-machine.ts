/**
 * The remix burn: idle → confirming → burning → rendering → remixed | failed.
 *
 *   createRemixBurnMachine(deps)   deps inject the server calls and the offline render (tests: fakes)
 *   events: CREATE { source, balance, signedIn } | CONFIRM | CANCEL | RETRY | REFUND | RESET
 *           | RESUME { source, attemptKey }   a reload mid-burn: the kept key goes straight to the
 *             server again (it answers the existing burn, charged false) and the render resumes
 *
 * The attempt key is generated once on CREATE and kept through burning, rendering and every
 * RETRY, so double clicks, reloads and retries of a failed render are answered by the server
 * without a second debit. From 'failed' after a burn the user either retries the render under the
 * same key (free) or gives up (REFUND): the server refunds the attempt once ('remix_refund').
 * Below the cost (or signed out) CREATE does not even reach confirming: nothing is burned.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../lib/error-message.ts'

export const REMIX_COST = 50
export const INSUFFICIENT_MESSAGE = `You need at least ${REMIX_COST} CUBE to create a remix`
export const LOGIN_MESSAGE = 'Log in to create a remix'

export interface RemixBurnDeps {
  newAttemptKey: () => string
  burn: (source: string, attemptKey: string) => Promise<{ remix_id: string; balance: number; status: string }>
  render: (options: { remixId: string; signal: AbortSignal; onProgress: (fraction: number) => void }) => Promise<Blob>
  complete: (remixId: string) => Promise<void>
  refund: (remixId: string) => Promise<{ balance: number }>
}

export interface RemixBurnContext {
  source: string | null
  attemptKey: string | null
  remixId: string | null
  balance: number | null
  progress: number
  result: Blob | null
  error: string | null
}

type Ev =
  | { type: 'CREATE'; source: string; balance: number | null; signedIn: boolean }
  | { type: 'RESUME'; source: string; attemptKey: string }
  | { type: 'CONFIRM' }
  | { type: 'CANCEL' }
  | { type: 'RETRY' }
  | { type: 'REFUND' }
  | { type: 'RESET' }
  | { type: 'RENDER.PROGRESS'; fraction: number }
  | { type: 'RENDER.DONE'; result: Blob }
  | { type: 'RENDER.FAILED'; error: unknown }

export function createRemixBurnMachine(deps: RemixBurnDeps) {
  type Ctx = RemixBurnContext
  return setup({
    types: {} as { context: Ctx; events: Ev },
    actors: {
      burner: fromPromise<{ remix_id: string; balance: number; status: string }, { source: string; key: string }>(({ input }) =>
        deps.burn(input.source, input.key),
      ),
      refunder: fromPromise<{ balance: number }, string>(({ input }) => deps.refund(input)),
      renderer: fromCallback<Ev, string>(({ input, sendBack }) => {
        const controller = new AbortController()
        deps
          .render({
            remixId: input,
            signal: controller.signal,
            onProgress: (fraction) => sendBack({ type: 'RENDER.PROGRESS', fraction }),
          })
          .then(async (result) => {
            if (controller.signal.aborted) return
            await deps.complete(input)
            sendBack({ type: 'RENDER.DONE', result })
          })
          .catch((error: unknown) => !controller.signal.aborted && sendBack({ type: 'RENDER.FAILED', error }))
        return () => controller.abort()
      }),
    },
    guards: {
      canCreate: ({ event }) => event.type === 'CREATE' && event.signedIn && (event.balance ?? 0) >= REMIX_COST,
    },
  }).createMachine({
    id: 'remix-burn',
    initial: 'idle',
    context: { source: null, attemptKey: null, remixId: null, balance: null, progress: 0, result: null, error: null },
    states: {
      idle: {
        on: {
          CREATE: [
            {
              guard: 'canCreate',
              target: 'confirming',
              actions: assign(({ event }) => ({
                source: event.source,
                balance: event.balance,
                attemptKey: deps.newAttemptKey(),
                remixId: null,
                error: null,
                progress: 0,
                result: null,
              })),
            },
            { actions: assign(({ event }) => ({ error: event.signedIn ? INSUFFICIENT_MESSAGE : LOGIN_MESSAGE })) },
          ],
          RESUME: {
            target: 'burning',
            actions: assign(({ event }) => ({
              source: event.source,
              attemptKey: event.attemptKey,
              remixId: null,
              error: null,
              progress: 0,
              result: null,
            })),
          },
        },
      },
      confirming: { on: { CONFIRM: 'burning', CANCEL: { target: 'idle', actions: assign({ attemptKey: null }) } } },
      burning: {
        invoke: {
          src: 'burner',
          input: ({ context }) => ({ source: context.source!, key: context.attemptKey! }),
          onDone: {
            target: 'rendering',
            actions: assign(({ event }) => ({ remixId: event.output.remix_id, balance: event.output.balance })),
          },
          onError: {
            target: 'idle',
            actions: assign(({ event }) => ({
              error: errorMessage(event.error) === 'insufficient_balance' ? INSUFFICIENT_MESSAGE : errorMessage(event.error),
            })),
          },
        },
      },
      rendering: {
        invoke: { src: 'renderer', input: ({ context }) => context.remixId! },
        on: {
          'RENDER.PROGRESS': { actions: assign({ progress: ({ event }) => Math.min(1, Math.max(0, event.fraction)) }) },
          'RENDER.DONE': { target: 'remixed', actions: assign({ result: ({ event }) => event.result, progress: 1 }) },
          'RENDER.FAILED': { target: 'failed', actions: assign({ error: ({ event }) => errorMessage(event.error) }) },
          CANCEL: { target: 'failed', actions: assign({ error: 'Render cancelled' }) },
        },
      },
      remixed: { on: { RESET: { target: 'idle', actions: assign({ attemptKey: null, remixId: null, result: null, progress: 0 }) } } },
      failed: {
        on: {
          // Same key: the server answers the existing burn, no second debit.
          RETRY: { target: 'burning', actions: assign({ error: null, progress: 0 }) },
          REFUND: 'refunding',
        },
      },
      refunding: {
        invoke: {
          src: 'refunder',
          input: ({ context }) => context.remixId!,
          onDone: {
            target: 'idle',
            actions: assign(({ event }) => ({ balance: event.output.balance, attemptKey: null, remixId: null, error: null })),
          },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => errorMessage(event.error) }) },
        },
      },
    },
  })
}
