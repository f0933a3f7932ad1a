// The route table of the local backend: every Supabase service it stands in for and every
// endpoint it answers, each handled by one module in that service's folder. A new endpoint is a
// handler there plus one line here (and a contract test through supabase-js, see
// supabase/CONTEXT.md); a new service (realtime/) is one more entry in the list.
import { challenge, enroll, unenroll, verifyFactor } from './auth/factors.ts'
import { health } from './auth/health.ts'
import { createMailFrequency } from './auth/email-links.ts'
import { logout } from './auth/logout.ts'
import { createRateLimiter } from './auth/rate-limit.ts'
import { recover, resend } from './auth/recover.ts'
import { authService } from './auth/service.ts'
import { signup } from './auth/signup.ts'
import { token } from './auth/token.ts'
import { updateUser } from './auth/update-user.ts'
import { user } from './auth/user.ts'
import { verifyGet, verifyPost } from './auth/verify.ts'
import type { AuthOptions } from './auth/context.ts'
import type { Database } from './core/db.ts'
import type { Service } from './core/router.ts'
import { localAiConfig } from './functions/ai-config.ts'
import { EDGE_FUNCTIONS } from './functions/registry.ts'
import { functionsService } from './functions/service.ts'
import { localServiceClient } from './functions/service-client.ts'
import { localUserClient } from './functions/user-client.ts'
import type { MinterFor } from '../functions/_shared/chain.ts'
import type { CustodialKeys } from '../functions/_shared/custodial-keys.ts'
import { chainRpcService } from './chain/chain-rpc.ts'
import type { RateLimit } from './auth/rate-limit.ts'
import type { Catalog } from './rest/catalog.ts'
import { remove } from './rest/delete.ts'
import { insert } from './rest/insert.ts'
import { rpc } from './rest/rpc.ts'
import { select } from './rest/select.ts'
import { restService } from './rest/service.ts'
import { update } from './rest/update.ts'
import { download } from './storage/download.ts'
import type { ObjectFiles } from './storage/files.ts'
import { removeMany, removeOne } from './storage/remove.ts'
import { list } from './storage/list.ts'
import { storageService } from './storage/service.ts'
import { upload } from './storage/upload.ts'
import { objectBytes } from './storage/object-bytes.ts'

/** What the services share: one database, one signing secret. */
export interface BackendContext {
  db: Database
  jwtSecret: string
  /** The public schema as last loaded (REST's schema cache). */
  catalog(): Catalog
  auth: AuthOptions
  /** Where Storage keeps object bytes; undefined: Storage is not served. */
  objectFiles: ObjectFiles | undefined
  /** The chains edge functions can mint on (none when the embedded chain is off). */
  minterFor?: MinterFor
  /** Wallet links per client address per hour (wallet-verify). */
  walletLinkRateLimit: number
  /** Seals custodial private keys with a key kept outside the database (wallet-verify). */
  custodialKeys: CustodialKeys
  /** One JSON-RPC call to the embedded chain (undefined when it is off), for /chain/rpc. */
  chainRpc?: (method: string, params: unknown[]) => Promise<unknown>
  chainRpcRateLimit?: RateLimit
}

export function routeTable(context: BackendContext): Service[] {
  const { db, jwtSecret, catalog, auth, objectFiles, minterFor, walletLinkRateLimit, custodialKeys } = context
  return [
    // /auth/v1 (GoTrue): "METHOD /path"
    authService(
      {
        db,
        options: auth,
        signupLimiter: createRateLimiter(auth.signupRateLimit),
        mailLimiter: createRateLimiter(auth.mailRateLimit),
        mailFrequency: createMailFrequency(auth.mailFrequencySeconds),
      },
      {
        'POST /signup': signup,
        'GET /verify': verifyGet,
        'POST /verify': verifyPost,
        'POST /recover': recover,
        'POST /resend': resend,
        'POST /token': token,
        'GET /user': user,
        'PUT /user': updateUser,
        'POST /factors': enroll,
        'POST /factors/:id/challenge': challenge,
        'POST /factors/:id/verify': verifyFactor,
        'DELETE /factors/:id': unenroll,
        'POST /logout': logout,
        'GET /health': health,
      },
    ),
    // /rest/v1 (PostgREST): /rpc/<name> and /<table>, by method
    restService(
      { db, jwtSecret, catalog },
      {
        rpc: { GET: rpc, HEAD: rpc, POST: rpc },
        table: { GET: select, HEAD: select, POST: insert, PATCH: update, DELETE: remove },
      },
    ),
    // /storage/v1 (Storage): by the kind of object route the raw path names (storage/paths.ts)
    storageService({ db, jwtSecret, files: objectFiles }, { upload, download, removeOne, removeMany, list }),
    // /functions/v1 and /api: the edge functions registry, by name
    functionsService(
      {
        clientFor: localUserClient(db, jwtSecret, () => catalog().preRequest),
        aiConfig: localAiConfig(db),
        fetch: globalThis.fetch.bind(globalThis),
        service: localServiceClient(db),
        minterFor: minterFor ?? (() => undefined),
        walletLinkRateLimit,
        readObject: objectBytes(db, objectFiles),
        custodialKeys,
      },
      EDGE_FUNCTIONS,
    ),
    // /chain/rpc: the embedded chain's JSON-RPC, reads only (chain/chain-rpc.ts)
    chainRpcService({ send: context.chainRpc, rateLimit: context.chainRpcRateLimit }),
  ]
}
