import type { IncomingMessage } from 'node:http'
import { restError } from '../core/errors.ts'

// Content negotiation as PostgREST does it (Plan/Negotiate.hs, MediaType.hs) with the handlers a
// hosted project has by default: JSON, the singular object (.single()), both with nulls=stripped,
// CSV (.csv()) and GeoJSON (.geojson(), which needs PostGIS in the database, as on hosted).
// Explain plans (.explain()) need db-plan-enabled, which hosted Supabase leaves off, and no other
// media type has a handler: those are 406 PGRST107, exactly as hosted answers.

export type Format = 'json' | 'csv' | 'geojson'

export interface Media {
  format: Format
  /** application/vnd.pgrst.object+json: exactly one row, sent as an object. */
  single: boolean
  /** nulls=stripped: keys whose value is null are left out. */
  strip: boolean
  contentType: string
}

interface Accepted {
  text: string
  type: string
  params: Map<string, string>
}

/** Network.Wai.Parse.parseHttpAccept: spaces removed, `;q=` cut off, sorted by q, then parameters, then fewer stars. */
function parseAccept(header: string): Accepted[] {
  return header
    .split(',')
    .map((entry, index) => {
      const compact = entry.replace(/ /g, '')
      const qAt = compact.indexOf(';q=')
      const text = qAt < 0 ? compact : compact.slice(0, qAt)
      const q = qAt < 0 ? 1 : Number.parseFloat(compact.slice(qAt + 3)) || 0
      const [type = '', ...rest] = text.split(';')
      const params = new Map(
        rest.map((p) => {
          const eq = p.indexOf('=')
          return [p.slice(0, eq < 0 ? p.length : eq).toLowerCase(), eq < 0 ? '' : p.slice(eq + 1).replace(/^"(.*)"$/, '$1')] as const
        }),
      )
      const key = [q, text.split(';').length - 1, -(text.match(/\*/g)?.length ?? 0)]
      return { accepted: { text, type: type.toLowerCase(), params }, key, index }
    })
    .sort((a, b) => b.key[0]! - a.key[0]! || b.key[1]! - a.key[1]! || b.key[2]! - a.key[2]! || a.index - b.index)
    .map((e) => e.accepted)
}

const PLAN_OPTIONS = ['analyze', 'verbose', 'settings', 'buffers', 'wal']

/** MediaType.toMime: how PostgREST names an accepted type in its 406 message. */
function mimeOf(a: Accepted): string {
  const stripped = a.params.get('nulls') === 'stripped'
  switch (a.type) {
    case 'application/json':
      return 'application/json'
    case 'application/vnd.pgrst.array+json':
    case 'application/vnd.pgrst.array':
      return stripped ? 'application/vnd.pgrst.array+json;nulls=stripped' : 'application/json'
    case 'application/vnd.pgrst.object+json':
    case 'application/vnd.pgrst.object':
      return `application/vnd.pgrst.object+json${stripped ? ';nulls=stripped' : ''}`
    case 'application/vnd.pgrst.plan':
    case 'application/vnd.pgrst.plan+text':
    case 'application/vnd.pgrst.plan+json': {
      const format = a.type.endsWith('+json') ? 'json' : 'text'
      const forType = a.params.get('for') ?? 'application/json'
      const options = (a.params.get('options') ?? '').split('|')
      const chosen = PLAN_OPTIONS.filter((o) => options.includes(o))
      const inner = mimeOf({ text: forType, type: forType.split(';')[0]!.toLowerCase(), params: new Map() })
      return `application/vnd.pgrst.plan+${format}; for="${inner}"${chosen.length ? `; options=${chosen.join('|')}` : ''}`
    }
    case 'application/geo+json':
    case 'text/csv':
    case 'text/plain':
    case 'text/xml':
    case 'application/openapi+json':
    case 'application/x-www-form-urlencoded':
    case 'application/octet-stream':
    case '*/*':
      return a.type
    default:
      return a.text
  }
}

const CHARSET = '; charset=utf-8'

function mediaFor(a: Accepted): Media | undefined {
  const strip = a.params.get('nulls') === 'stripped'
  switch (a.type) {
    case '*/*':
    case 'application/json':
      return { format: 'json', single: false, strip: false, contentType: `application/json${CHARSET}` }
    case 'application/vnd.pgrst.array+json':
    case 'application/vnd.pgrst.array':
      return strip
        ? { format: 'json', single: false, strip: true, contentType: `application/vnd.pgrst.array+json;nulls=stripped${CHARSET}` }
        : { format: 'json', single: false, strip: false, contentType: `application/json${CHARSET}` }
    case 'application/vnd.pgrst.object+json':
    case 'application/vnd.pgrst.object':
      return {
        format: 'json',
        single: true,
        strip,
        contentType: `application/vnd.pgrst.object+json${strip ? ';nulls=stripped' : ''}${CHARSET}`,
      }
    case 'text/csv':
      return { format: 'csv', single: false, strip: false, contentType: `text/csv${CHARSET}` }
    case 'application/geo+json':
      return { format: 'geojson', single: false, strip: false, contentType: `application/geo+json${CHARSET}` }
    default:
      return undefined
  }
}

/** The first acceptable type in the client's order of preference, or 406 PGRST107 naming them all. */
export function negotiate(req: IncomingMessage): Media {
  const header = req.headers.accept
  const accepted = parseAccept(header === undefined || header.trim() === '' ? '*/*' : header)
  for (const a of accepted) {
    const media = mediaFor(a)
    if (media) return media
  }
  throw restError(406, 'PGRST107', `None of these media types are available: ${accepted.map(mimeOf).join(', ')}`)
}

/** What the source's shape means for the body aggregate (SqlFragment.hs asJsonF): rows, one composite, one scalar, scalars. */
export type Returns = 'rows' | 'composite' | 'scalar' | 'scalars'

/**
 * The SQL that turns the rows of the CTE `_src` (read as `_r`) into the response body, as
 * PostgREST's builtin aggregates do (SqlFragment.hs: asJsonF, asJsonSingleF, asCsvF, asGeoJsonF).
 */
export function bodyAggregate(media: Media, returns: Returns = 'rows'): string {
  const strip = (sql: string) => (media.strip ? `json_strip_nulls(${sql})` : sql)
  if (media.format === 'csv')
    return (
      `(select coalesce(string_agg(a.k, ','), '') from (select json_object_keys(r)::text as k from ` +
      `(select row_to_json(hh) as r from _src as hh limit 1) s) a) || chr(10) || ` +
      `coalesce(string_agg(substring(_r::text, 2, length(_r::text) - 2), chr(10)), '')`
    )
  if (media.format === 'geojson')
    return `json_build_object('type', 'FeatureCollection', 'features', coalesce(json_agg(ST_AsGeoJSON(_r)::json), '[]'))::text`
  const value = returns === 'scalar' || returns === 'scalars' ? '_r._scalar' : '_r'
  if (media.single || returns === 'composite' || returns === 'scalar') return `coalesce(${strip(`json_agg(${value})->0`)}, 'null')::text`
  return `coalesce(${strip(`json_agg(${value})`)}, '[]')::text`
}

/** .single() on a result that is not exactly one row (PGRST116, 406); thrown inside the transaction, so writes roll back. */
export function checkSingle(media: Media, rows: number): void {
  if (media.single && rows !== 1)
    throw restError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${rows} rows`)
}
