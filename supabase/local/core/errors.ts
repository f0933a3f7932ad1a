import type { IncomingMessage, ServerResponse } from 'node:http'

/** An answer that ends a request early: a status and the JSON body Supabase's services send. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(body.message ?? body.msg ?? body.error ?? status))
  }
}

/**
 * The client went away mid-request (a closed tab, a cancelled upload): not a fault of the server,
 * and nobody is left to read an answer, so it is not logged as one.
 */
export const clientWentAway = (req: IncomingMessage, error: unknown): boolean =>
  req.destroyed && (error as NodeJS.ErrnoException | null)?.code === 'ECONNRESET'

/** PostgREST's error shape. */
export const restError = (
  status: number,
  code: string,
  message: string,
  details: string | null = null,
  hint: string | null = null,
): HttpError => new HttpError(status, { code, message, details, hint })

/** GoTrue's error shape (auth-js reads `code` when the API-version header is present). */
export const authError = (status: number, code: string, msg: string): HttpError =>
  new HttpError(status, { code, error_code: code, msg }, { 'X-Supabase-Api-Version': '2024-01-01' })

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | number> = {}): void {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  })
  res.end(text)
}

export function sendError(res: ServerResponse, error: HttpError): void {
  sendJson(res, error.status, error.body, error.headers)
}

/** A PostgreSQL error as thrown by pg and PGlite (both carry the SQLSTATE in `code`). */
export interface SqlError {
  code: string
  message: string
  detail?: string
  hint?: string
}

export const isSqlError = (error: unknown): error is SqlError =>
  typeof error === 'object' &&
  error !== null &&
  typeof (error as { code?: unknown }).code === 'string' &&
  /^[0-9A-Z]{5}$/.test((error as { code: string }).code) &&
  typeof (error as { message?: unknown }).message === 'string'

/** PostgREST's mapping from SQLSTATE to HTTP status for the errors our calls can meet. */
export function sqlErrorToHttp(error: SqlError, role: string): HttpError {
  const code = error.code
  let status = 400
  // PostgREST's custom statuses: a function raising SQLSTATE 'PT' + three digits picks the HTTP status.
  if (/^PT[1-5]\d\d$/.test(code)) status = Number(code.slice(2))
  else if (code === '42501') status = role === 'anon' ? 401 : 403
  else if (code === '23505' || code === '23503') status = 409
  else if (code === '42883' || code === '42P01') status = 404
  // A write in a GET or HEAD request's READ ONLY transaction: the method does not allow it.
  else if (code === '25006') status = 405
  else if (code.startsWith('53') || code.startsWith('57') || code.startsWith('58') || code === 'XX000') status = 500
  return restError(status, code, error.message, error.detail ?? null, error.hint ?? null)
}
