import type { IncomingMessage, ServerResponse } from 'node:http'
import { callerFromRequest, runAs } from '../core/caller.ts'
import type { Database } from '../core/db.ts'
import { HttpError, sendJson } from '../core/errors.ts'
import { readBody } from '../core/http-body.ts'

/**
 * The edge function init-user-tokens (supabase/functions/init-user-tokens for hosted projects),
 * served locally at POST /functions/v1/init-user-tokens and POST /api/init-user-tokens: the
 * caller's own JWT runs public.init_user_tokens(), which creates the wallet and the welcome bonus
 * exactly once. Answers { wallet: { balance, daily_earned } }.
 */
export function initUserTokensRoute(db: Database, jwtSecret: string) {
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') throw new HttpError(405, { error: 'Method not allowed: use POST' })
    await readBody(req)
    let caller
    try {
      caller = await callerFromRequest(req, jwtSecret)
    } catch (error) {
      throw error instanceof HttpError ? new HttpError(401, { error: String(error.body.message) }) : error
    }
    if (caller.role !== 'authenticated') throw new HttpError(401, { error: 'Sign in first: a user access token is required' })
    const { rows } = await runAs(db, caller.role, caller.claims, (tx) => tx.query<{ wallet: string }>('select public.init_user_tokens()::text as wallet'))
    sendJson(res, 200, `{"wallet":${rows[0]!.wallet}}`)
  }
}
