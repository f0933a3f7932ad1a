import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate'
import type { ShareAnswer, ShareItemType, SharePlatform } from '../../backend/sharing.ts'

/**
 * One share, as the user sees it: idle → mining (the indicator stays at least MINING_MS while the
 * server answers) → credited | notCredited (with the server's reason) → idle on the next share.
 * The server alone decides the credit (share_credit); the machine only shows its answer.
 * The shared platform's button is locked LOCK_MS after each share (guard 'notLocked').
 */
export const MINING_MS = 1500
export const LOCK_MS = 3000

export interface ShareRequest {
  itemType: ShareItemType
  itemId: string
  platform: SharePlatform
}

export interface ShareDeps {
  credit: (req: ShareRequest) => Promise<ShareAnswer>
  /** Resolves after ms (a fake clock in unit tests). */
  wait: (ms: number) => Promise<void>
  now: () => number
}

export interface ShareContext {
  request: ShareRequest | null
  answer: ShareAnswer | null
  /** Why nothing was credited: the server's reason code, or 'error' when the call failed. */
  reason: string | null
  error: string | null
  /** Per platform: when its button unlocks (ms, deps.now()). */
  lockedUntil: Partial<Record<SharePlatform, number>>
}

type ShareEvent = { type: 'SHARE'; request: ShareRequest }

const REASON_TEXT: Record<string, string> = {
  already_shared_today: 'Already shared today: each item earns once per platform per day',
  daily_cap: 'Daily share limit reached',
}
export const reasonText = (reason: string | null, error: string | null): string =>
  reason === 'error'
    ? `Share not credited: ${error ?? 'the server did not answer'}`
    : (REASON_TEXT[reason ?? ''] ?? `Share not credited (${reason ?? 'unknown'})`)

export function createShareMachine(deps: ShareDeps) {
  return setup({
    types: {} as { context: ShareContext; events: ShareEvent },
    actors: {
      credit: fromPromise<ShareAnswer, ShareRequest>(async ({ input }) => {
        const [answer] = await Promise.all([deps.credit(input), deps.wait(MINING_MS)])
        return answer
      }),
    },
    guards: {
      notLocked: ({ context, event }) => (context.lockedUntil[event.request.platform] ?? 0) <= deps.now(),
    },
  }).createMachine({
    id: 'share',
    initial: 'idle',
    context: { request: null, answer: null, reason: null, error: null, lockedUntil: {} },
    states: {
      idle: { on: { SHARE: { guard: 'notLocked', target: 'mining' } } },
      mining: {
        entry: assign(({ context, event }) => ({
          request: event.request,
          answer: null,
          reason: null,
          error: null,
          lockedUntil: { ...context.lockedUntil, [event.request.platform]: deps.now() + LOCK_MS },
        })),
        invoke: {
          src: 'credit',
          input: ({ context }) => context.request as ShareRequest,
          onDone: [
            {
              guard: ({ event }) => event.output.credited > 0,
              target: 'credited',
              actions: assign({ answer: ({ event }) => event.output }),
            },
            { target: 'notCredited', actions: assign({ answer: ({ event }) => event.output, reason: ({ event }) => event.output.reason }) },
          ],
          onError: {
            target: 'notCredited',
            actions: assign({
              reason: 'error',
              error: ({ event }) =>
                event.error instanceof Error ? event.error.message : String((event.error as { message?: string })?.message ?? event.error),
            }),
          },
        },
      },
      credited: { on: { SHARE: { guard: 'notLocked', target: 'mining' } } },
      notCredited: { on: { SHARE: { guard: 'notLocked', target: 'mining' } } },
    },
  })
}

export type ShareMachine = ReturnType<typeof createShareMachine>
export type ShareActor = ActorRefFrom<ShareMachine>
