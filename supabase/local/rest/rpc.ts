import { restError } from '../core/errors.ts'
import { readJson } from '../core/http-body.ts'
import type { Column, RpcFunction, Table } from './catalog.ts'
import type { RpcHandler } from './context.ts'
import { EMBED_PARAM, orderClause, RESERVED_PARAMS, whereClause } from './filters.ts'
import { bodyAggregate, checkSingle, negotiate, type Returns } from './media.ts'
import { checkMaxAffected, preferenceApplied, preferencesOf } from './prefer.ts'
import { pageClause, requestedRange } from './range.ts'
import { inRequestTransaction } from './request-transaction.ts'
import { countRows, sendRead } from './respond.ts'
import { checkEmbedParams, parseSelect, selectList } from './select-list.ts'
import { Params, quoteIdent } from './sql.ts'

/** A query-string value that is a filter (`op.value`); on a GET call anything else is an argument (QueryParams.hs). */
const FILTER_VALUE =
  /^(not\.)?(eq|neq|gt|gte|lt|lte|like|ilike|match|imatch|in|is|isdistinct|fts|plfts|phfts|wfts|cs|cd|ov|sl|sr|nxr|nxl|adj)(\([^)]*\))?\./

/** The call's result as a relation PostgREST can shape: a table's own row type keeps its relationships for embedding. */
function resultTable(fn: RpcFunction, tables: Map<string, Table>): Table {
  const table = tables.get(fn.returnType)
  if (table && fn.resultColumns) return table
  const columns: Column[] = fn.resultColumns ?? []
  // A name no foreign key uses: embedding from a RETURNS TABLE result finds no relationship, as in PostgREST.
  return { name: `${fn.name}()`, columns: new Map(columns.map((c) => [c.name, c])), primaryKey: [] }
}

/**
 * A POST body's arguments as PostgREST reads them (ApiRequest/Payload.hs): an object; of an array of
 * objects with the same keys, the first ("only takes the first object"); no body or any other JSON
 * value, none.
 */
function rpcArguments(body: unknown): Record<string, unknown> {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>
  if (!Array.isArray(body) || body.length === 0) return {}
  const objects = body.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r)) ? (body as Record<string, unknown>[]) : []
  const keys = (o: Record<string, unknown>) => Object.keys(o).sort().join('\u0000')
  if (objects.length === 0 || objects.some((o) => keys(o) !== keys(objects[0]!)))
    throw restError(400, 'PGRST102', 'All object keys must match')
  return objects[0]!
}

/**
 * POST (arguments in the body) or GET/HEAD (in the query) /rest/v1/rpc/<name>: calls a public SQL
 * function and shapes its result as PostgREST does: select (with embedding for a table's row
 * type), filters, order, limit/offset and Range, counts, media types, max-affected.
 */
export const rpc: RpcHandler = async (context, { req, res, url }, name, caller) => {
  const { catalog } = context
  const prefs = preferencesOf(req)
  const media = negotiate(req)
  const range = requestedRange(req, url)
  let args: Record<string, unknown>
  const shaping = new URL(url)
  if (req.method === 'POST') {
    args = rpcArguments(await readJson(req, 'rest'))
  } else {
    args = {}
    for (const [key, value] of url.searchParams) {
      if (RESERVED_PARAMS.has(key) || EMBED_PARAM.test(key) || FILTER_VALUE.test(value)) continue
      args[key] = value
      shaping.searchParams.delete(key)
    }
  }
  const keys = Object.keys(args)
  const fn = (catalog().functions.get(name) ?? []).find((f: RpcFunction) => {
    const required = f.argNames.slice(0, f.argNames.length - f.defaults)
    return keys.every((k) => f.argNames.includes(k)) && required.every((k) => k in args)
  })
  if (!fn) {
    throw restError(
      404,
      'PGRST202',
      `Could not find the function public.${name}(${keys.sort().join(', ')}) in the schema cache`,
      `Searched for the function public.${name} with parameters ${keys.join(', ') || 'none'}`,
    )
  }
  if (prefs.handling === 'strict' && prefs.maxAffected !== undefined && !fn.returnsSet)
    throw restError(400, 'PGRST128', 'Function must return SETOF or TABLE when max-affected preference is used with handling=strict')
  const params = new Params()
  const argType = (k: string) => fn.argTypes[fn.argNames.indexOf(k)]!
  const call = `"public".${quoteIdent(fn.name)}(${keys
    .map(
      (k) => `${quoteIdent(k)} => ${req.method === 'POST' ? params.json(args[k], argType(k)) : params.typed(String(args[k]), argType(k))}`,
    )
    .join(', ')})`
  // GET and HEAD are safe methods: the call runs in a READ ONLY transaction whatever the function's
  // volatility, so a function that writes fails (25006, 405) as in PostgREST; writes go through POST.
  const access = { readOnly: req.method !== 'POST' }
  if (fn.returnType === 'void') {
    await inRequestTransaction(
      context,
      caller,
      prefs,
      async (tx) => {
        await tx.query(`select ${call}`, params.values)
      },
      access,
    )
    res.writeHead(204, { 'Content-Range': '*/*', ...preferenceApplied(prefs, 'rpc') }).end()
    return
  }
  const composite = fn.resultColumns !== undefined
  const returns: Returns = composite ? (fn.returnsSet ? 'rows' : 'composite') : fn.returnsSet ? 'scalars' : 'scalar'
  const table = resultTable(fn, catalog().tables)
  const embed = { url: shaping, consumed: new Set<string>() }
  const items = parseSelect(shaping.searchParams.get('select'))
  // A scalar result has no columns: select, filters and order name none of them (42703), as in PostgREST.
  const list = composite ? selectList(catalog(), table, '_t0', items, 0, embed) : '_t0._scalar'
  if (!composite && items.some((i) => i.kind !== 'star')) selectList(catalog(), table, '_t0', items, 0, embed)
  checkEmbedParams(embed)
  const where = whereClause(table, '_t0', shaping, params)
  const order = orderClause(table, '_t0', shaping.searchParams.get('order'))
  const source = composite
    ? `select * from ${call} _t0${where}`
    : fn.returnsSet
      ? `select _s.v as _scalar from ${call} as _s(v)`
      : `select ${call} as _scalar`
  const head = req.method === 'HEAD'
  const counted = prefs.count === 'exact' || prefs.count === 'estimated'
  const answer = await inRequestTransaction(
    context,
    caller,
    prefs,
    async (tx) => {
      // The function runs once: its rows are materialised, then paged, aggregated and counted.
      const { rows } = await tx.query<{ n: string; body: string | null; total: string }>(
        `with _all as materialized (${source}), _src as (select ${list} from _all _t0${order}${pageClause(range)}) ` +
          `select count(*)::text as n, ${head ? 'null::text' : bodyAggregate(media, returns)} as body, ` +
          `(select count(*) from _all)::text as total from _src _r`,
        params.values,
      )
      const returned = Number(rows[0]!.n)
      checkSingle(media, returned)
      checkMaxAffected(prefs, returned)
      const total = counted
        ? Number(rows[0]!.total)
        : prefs.count === 'planned'
          ? await countRows(tx, 'planned', `select 1 from ${call} _t0${composite ? where : ''}`, params.values)
          : undefined
      return { returned, total, body: rows[0]!.body }
    },
    access,
  )
  sendRead(req, res, { ...answer, range, media, prefs, action: 'rpc' })
}
