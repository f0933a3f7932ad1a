// Plumbing every edge function shares, written against the Fetch API only (Request, Response,
// Headers), so the same module runs on Deno (hosted Supabase) and in the local backend on Node.
// No npm imports here: dependencies are injected by the entry point (index.ts, or the local
// backend's functions registry).

export const corsHeaders: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
}

/** An edge function: one Fetch request in, one response out. */
export type EdgeHandler = (req: Request) => Promise<Response>

export const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { ...corsHeaders, 'Content-Type': 'application/json' } })

/** The browser's CORS preflight. */
export const preflight = (): Response => new Response(null, { status: 204, headers: corsHeaders })

/** The caller's access token from `Authorization: Bearer …`, if any. */
export const bearerToken = (req: Request): string | undefined => /^Bearer\s+(\S+)$/i.exec(req.headers.get('Authorization') ?? '')?.[1]

/**
 * The client's network address as the gateway in front of the function reports it: hosted
 * Supabase sets CF-Connecting-IP and X-Forwarded-For (first entry: the client); the local backend
 * sets X-Forwarded-For to the socket's peer and drops any the client sent. Null when neither is there.
 */
export const clientAddress = (req: Request): string | null =>
  (req.headers.get('cf-connecting-ip') ?? req.headers.get('x-forwarded-for')?.split(',')[0] ?? '').trim() || null
