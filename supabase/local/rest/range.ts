import type { IncomingMessage } from 'node:http'
import { restError } from '../core/errors.ts'
import { unsupported } from './sql.ts'

// Which rows a read wants and how the answer says which it got, as PostgREST does
// (RangeQuery.hs, ApiRequest.hs getRanges): `limit`/`offset` and, on GET only, the
// `Range: <first>-<last>` header (supabase-js never sends it; `Range-Unit: items` is implied);
// the header and the parameters intersect.

export interface RowRange {
  offset: number
  /** Undefined: no upper bound. */
  limit: number | undefined
}

const rangeError = (details: string) => restError(416, 'PGRST103', 'Requested range not satisfiable', details)

function integerParam(name: string, text: string | null): number | undefined {
  if (text === null) return undefined
  if (!/^-?\d{1,15}$/.test(text.trim())) throw unsupported(`"failed to parse ${name} parameter (${text})"`, `${name} must be an integer`)
  return Number(text.trim())
}

export function requestedRange(req: IncomingMessage, url: URL): RowRange {
  const limit = integerParam('limit', url.searchParams.get('limit'))
  // A negative offset is a no-op, as in PostgREST.
  const offset = Math.max(0, integerParam('offset', url.searchParams.get('offset')) ?? 0)
  // limit=0 asks for no rows whatever the Range header says.
  if (limit === 0) return { offset: 0, limit: 0 }
  let lower = offset
  let upper = limit === undefined ? Infinity : offset + limit - 1
  const header = req.method === 'GET' ? req.headers.range : undefined
  const match = header === undefined ? null : /^([0-9]+)-([0-9]*)$/.exec(header)
  if (match) {
    const from = Number(match[1])
    const to = match[2] === '' ? Infinity : Number(match[2])
    if (from > to) throw rangeError('The lower boundary must be lower than or equal to the upper boundary in the Range header.')
    lower = Math.max(lower, from)
    upper = Math.min(upper, to)
  }
  // An empty intersection (a negative limit, or a Range the limit excludes) is PostgREST's NegativeLimit.
  if (upper < lower) throw rangeError('Limit should be greater than or equal to zero.')
  return { offset: lower, limit: upper === Infinity ? undefined : upper - lower + 1 }
}

export const pageClause = (range: RowRange): string =>
  `${range.limit !== undefined ? ` limit ${range.limit}` : ''}${range.offset ? ` offset ${range.offset}` : ''}`

/** Content-Range as RangeQuery.contentRangeH writes it. */
export function contentRange(lower: number, upper: number, total: number | undefined): string {
  const rows = total !== 0 && lower <= upper ? `${lower}-${upper}` : '*'
  return `${rows}/${total ?? '*'}`
}

/**
 * RangeQuery.rangeStatusHeader: 200, or with a known total 206 for part of it and 416 (PGRST103,
 * sent in place of the rows) for an offset beyond it.
 */
export function rangeStatus(range: RowRange, returned: number, total: number | undefined) {
  const lower = range.offset
  const upper = lower + returned - 1
  const header = { 'Content-Range': contentRange(lower, upper, total) }
  if (total === undefined) return { status: 200, header }
  if (lower > total)
    return { status: 416, header, error: rangeError(`An offset of ${lower} was requested, but there are only ${total} rows.`) }
  return { status: 1 + upper - lower < total ? 206 : 200, header }
}
