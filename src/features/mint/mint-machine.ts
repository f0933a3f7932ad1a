/**
 * Minting an NFT: editing → minting → minted | failed (and back to editing).
 *
 *   createMintMachine({ mint })   the server call injected (the app: the 'mint' edge function)
 *   events: MINT { input, balance } | RESET
 *
 * The checks here only spare a round trip and word the reference's messages; the server repeats
 * every one of them (fields, image scheme, balance) and is the one that burns and mints.
 * Each MINT gets its own client key, so the server turns a repeated request into one mint.
 */
import { assign, fromPromise, raise, setup } from 'xstate'
import type { MintInput, MintRequestRow } from '../../backend/web3.ts'

export const MINT_COST = 100
export const MISSING = { title: 'Missing information', description: 'Please provide a name, description, and image URL.' } as const
export const INSUFFICIENT = { title: 'Insufficient Balance', description: 'You need at least 100 CUBE to mint an NFT.' } as const
export const MINT_ERROR_TITLE = 'Error minting NFT'

/** http(s) URLs or an image picked on the device (data:image/…); `javascript:` and the rest are refused. */
export function isSafeImageUrl(value: string): boolean {
  if (/^data:image\/(png|jpe?g|gif|webp);base64,/.test(value)) return true
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

export type MintDraft = Omit<MintInput, 'client_key'>

export interface MintContext {
  draft: MintDraft | null
  request: MintRequestRow | null
  error: { title: string; description: string } | null
}

type MintEvent = { type: 'MINT'; input: MintDraft; balance: number | null } | { type: 'RESET' }

const newKey = () => (globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`).replace(/[^A-Za-z0-9_-]/g, '')

export function createMintMachine(deps: { mint: (input: MintInput) => Promise<{ request: MintRequestRow; balance: number }> }) {
  return setup({
    types: { context: {} as MintContext, events: {} as MintEvent },
    actors: { mint: fromPromise(({ input }: { input: MintInput }) => deps.mint(input)) },
    actions: { notifyError: () => undefined, notifyMinted: () => undefined },
    guards: {
      missing: ({ event }) =>
        event.type === 'MINT' && (!event.input.name.trim() || !event.input.description.trim() || !event.input.image.trim()),
      unsafeImage: ({ event }) => event.type === 'MINT' && !isSafeImageUrl(event.input.image.trim()),
      poor: ({ event }) => event.type === 'MINT' && (event.balance ?? 0) < MINT_COST,
    },
  }).createMachine({
    id: 'mint',
    initial: 'editing',
    context: { draft: null, request: null, error: null },
    states: {
      editing: {
        on: {
          MINT: [
            { guard: 'missing', actions: [assign({ error: { ...MISSING } }), 'notifyError'] },
            {
              guard: 'unsafeImage',
              actions: [
                assign({
                  error: { title: 'Image Error', description: 'Only http(s) image URLs or an image from your device can be minted.' },
                }),
                'notifyError',
              ],
            },
            { guard: 'poor', actions: [assign({ error: { ...INSUFFICIENT } }), 'notifyError'] },
            { target: 'minting', actions: assign({ draft: ({ event }) => event.input, error: null, request: null }) },
          ],
        },
      },
      minting: {
        invoke: {
          src: 'mint',
          input: ({ context }) => ({ ...context.draft!, client_key: newKey() }),
          onDone: { target: 'minted', actions: [assign({ request: ({ event }) => event.output.request }), 'notifyMinted'] },
          onError: {
            target: 'failed',
            actions: [
              assign({
                error: ({ event }) => ({
                  title: MINT_ERROR_TITLE,
                  description: event.error instanceof Error && event.error.message ? event.error.message : 'Something went wrong',
                }),
              }),
              'notifyError',
            ],
          },
        },
      },
      // A new MINT after a result goes back to editing and is checked and minted like the first one.
      minted: { on: { RESET: 'editing', MINT: { target: 'editing', actions: raise(({ event }) => event) } } },
      failed: { on: { RESET: 'editing', MINT: { target: 'editing', actions: raise(({ event }) => event) } } },
    },
  })
}
