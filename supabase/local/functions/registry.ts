import type { AiConfigSource } from '../../functions/_shared/ai-provider.ts'
import type { EdgeHandler } from '../../functions/_shared/http.ts'
import { aiTestConnection } from '../../functions/ai-test-connection/handler.ts'
import { aiText } from '../../functions/ai-text/handler.ts'
import type { UserClientFactory } from '../../functions/_shared/user-client.ts'
import { initUserTokens } from '../../functions/init-user-tokens/handler.ts'

/** What the local backend injects into an edge function (on Deno, index.ts injects supabase-js). */
export interface EdgeFunctionDeps {
  clientFor: UserClientFactory
  /** The admin's AI provider settings and keys, read as the service role. */
  aiConfig: AiConfigSource
  /** Outbound HTTP (the provider calls); tests may swap it. */
  fetch: typeof fetch
}

/**
 * The edge functions the local backend serves at /functions/v1/<name> (and /api/<name>): the
 * same handler modules hosted Supabase runs from supabase/functions/<name>/index.ts. A new
 * function is one handler.ts there and one line here.
 */
export const EDGE_FUNCTIONS: Readonly<Record<string, (deps: EdgeFunctionDeps) => EdgeHandler>> = {
  'init-user-tokens': (deps) => initUserTokens(deps),
  'ai-test-connection': (deps) => aiTestConnection(deps),
  'ai-text': (deps) => aiText(deps),
}
