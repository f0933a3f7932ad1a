import type { IncomingMessage, ServerResponse } from 'node:http'
import { callerFromRequest, runAs, type Caller } from '../core/caller.ts'
import type { Database, Queryable } from '../core/db.ts'
import { HttpError, restError, sendJson } from '../core/errors.ts'
import { readJson } from '../core/http-body.ts'
import type { Catalog, RpcFunction, Table } from './catalog.ts'
import {
  checkEmbedParams,
  columnOf,
  jsonToText,
  nonNegativeInt,
  orderClause,
  Params,
  parseSelect,
  quoteIdent,
  selectList,
  tableOf,
  tableRef,
  whereClause,
} from './query.ts'

const SINGLE = 'application/vnd.pgrst.object+json'

function preferences(req: IncomingMessage): Map<string, string> {
  const prefs = new Map<string, string>()
  const header = req.headers.prefer
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [key, value] = part.trim().split('=')
    if (key) prefs.set(key.trim(), (value ?? '').trim())
  }
  return prefs
}

function checkProfile(req: IncomingMessage) {
  for (const name of ['accept-profile', 'content-profile']) {
    const value = req.headers[name]
    if (value !== undefined && value !== 'public') throw restError(406, 'PGRST106', 'The schema must be one of the following: public', null, null)
  }
}

const wantsSingle = (req: IncomingMessage) => (req.headers.accept ?? '').includes(SINGLE)

/** .single(): exactly one row or PostgREST's 406 (thrown inside the transaction, so writes roll back). */
function singleRow(body: string): string {
  const rows = JSON.parse(body) as unknown[]
  if (rows.length !== 1) throw restError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${rows.length} rows`)
  return JSON.stringify(rows[0])
}

/** The data API (PostgREST subset) at /rest/v1. */
export function restRoutes(db: Database, catalog: () => Catalog, jwtSecret: string) {
  async function select(req: IncomingMessage, res: ServerResponse, table: Table, url: URL, caller: Caller) {
    const params = new Params()
    const embed = { url, consumed: new Set<string>() }
    const list = selectList(catalog(), table, '_t0', parseSelect(url.searchParams.get('select')), 0, embed)
    checkEmbedParams(embed)
    const where = whereClause(table, '_t0', url, params)
    const order = orderClause(table, '_t0', url.searchParams.get('order'))
    const limit = nonNegativeInt('limit', url.searchParams.get('limit'))
    const offset = nonNegativeInt('offset', url.searchParams.get('offset')) ?? 0
    const page = `${limit !== undefined ? ` limit ${limit}` : ''}${offset ? ` offset ${offset}` : ''}`
    const counted = preferences(req).get('count')
    if (counted !== undefined && counted !== 'exact' && counted !== 'planned' && counted !== 'estimated') throw restError(400, 'PGRST100', `unknown count preference "${counted}"`)
    const single = wantsSingle(req)
    const head = req.method === 'HEAD'
    const { body, total } = await runAs(db, caller.role, caller.claims, async (tx) => {
      // HEAD (supabase-js `head: true`) only wants the count: the rows are never built.
      const rows = head ? undefined : await tx.query<{ body: string }>(`select coalesce(json_agg(_r), '[]')::text as body from (select ${list} from ${tableRef(table.name)} _t0${where}${order}${page}) _r`, params.values)
      let total: number | undefined
      if (counted) total = Number((await tx.query<{ n: string }>(`select count(*)::text as n from ${tableRef(table.name)} _t0${where}`, params.values)).rows[0]!.n)
      return { body: rows?.rows[0]!.body, total }
    })
    if (body === undefined) {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Range': `*/${total ?? '*'}` }).end()
      return
    }
    const count = (JSON.parse(body) as unknown[]).length
    const range = count === 0 ? `*/${total ?? '*'}` : `${offset}-${offset + count - 1}/${total ?? '*'}`
    sendJson(res, 200, single ? singleRow(body) : body, { 'Content-Range': range })
  }

  /** Runs a data-changing statement and answers as PostgREST does for `Prefer: return=...`. */
  async function mutate(req: IncomingMessage, res: ServerResponse, table: Table, url: URL, caller: Caller, statement: string, params: Params, createdStatus: number) {
    const representation = preferences(req).get('return') === 'representation'
    const single = wantsSingle(req)
    const embed = { url, consumed: new Set<string>() }
    const list = selectList(catalog(), table, '_t0', parseSelect(url.searchParams.get('select')), 0, embed)
    checkEmbedParams(embed)
    const body = await runAs(db, caller.role, caller.claims, async (tx: Queryable) => {
      if (!representation && !single) {
        await tx.query(statement, params.values)
        return undefined
      }
      const { rows } = await tx.query<{ body: string }>(`with _m as (${statement} returning _t0.*) select coalesce(json_agg(_r), '[]')::text as body from (select ${list} from _m _t0) _r`, params.values)
      const text = rows[0]!.body
      return single ? singleRow(text) : text
    })
    if (!representation) {
      res.writeHead(createdStatus === 201 ? 201 : 204, { 'Content-Range': '*/*' }).end()
      return
    }
    sendJson(res, createdStatus === 201 ? 201 : 200, body, { 'Content-Range': '*/*' })
  }

  async function insert(req: IncomingMessage, res: ServerResponse, table: Table, url: URL, caller: Caller) {
    const payload = await readJson(req, 'rest')
    const rows = Array.isArray(payload) ? payload : [payload]
    if (payload === undefined || rows.length === 0 || rows.some((r) => r === null || typeof r !== 'object' || Array.isArray(r))) {
      throw restError(400, 'PGRST102', 'Empty or invalid json', 'insert needs a JSON object or a non-empty array of objects')
    }
    const objects = rows as Record<string, unknown>[]
    const columnsParam = url.searchParams.get('columns')
    const columns = columnsParam
      ? columnsParam.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1'))
      : [...new Set(objects.flatMap((o) => Object.keys(o)))]
    for (const c of columns) columnOf(table, c)
    const prefs = preferences(req)
    const missingDefault = prefs.get('missing') === 'default'
    const params = new Params()
    let statement: string
    if (columns.length === 0) {
      if (objects.length !== 1) throw restError(400, 'PGRST102', 'Empty or invalid json', 'several rows without any column')
      statement = `insert into ${tableRef(table.name)} as _t0 default values`
    } else {
      const values = objects
        .map((o) => `(${columns.map((c) => (c in o ? params.typed(jsonToText(o[c]), table.columns.get(c)!.type) : missingDefault ? 'default' : 'null')).join(', ')})`)
        .join(', ')
      statement = `insert into ${tableRef(table.name)} as _t0 (${columns.map(quoteIdent).join(', ')}) values ${values}`
    }
    const resolution = prefs.get('resolution')
    if (resolution !== undefined) {
      if (resolution !== 'merge-duplicates' && resolution !== 'ignore-duplicates') throw restError(400, 'PGRST100', `unknown resolution "${resolution}"`)
      const conflictParam = url.searchParams.get('on_conflict')
      const target = conflictParam ? conflictParam.split(',').map((c) => columnOf(table, c.trim()).name) : table.primaryKey
      if (target.length === 0) throw restError(400, 'PGRST100', `table ${table.name} has no primary key: pass on_conflict`)
      const updates = columns.length ? columns : target
      statement +=
        resolution === 'ignore-duplicates'
          ? ` on conflict (${target.map(quoteIdent).join(', ')}) do nothing`
          : ` on conflict (${target.map(quoteIdent).join(', ')}) do update set ${updates.map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`).join(', ')}`
    }
    await mutate(req, res, table, url, caller, statement, params, 201)
  }

  async function update(req: IncomingMessage, res: ServerResponse, table: Table, url: URL, caller: Caller) {
    const payload = await readJson(req, 'rest')
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload) || Object.keys(payload).length === 0) {
      throw restError(400, 'PGRST102', 'Empty or invalid json', 'update needs a JSON object with at least one column')
    }
    rejectPaging(url)
    const params = new Params()
    const sets = Object.entries(payload as Record<string, unknown>).map(([c, v]) => `${quoteIdent(columnOf(table, c).name)} = ${params.typed(jsonToText(v), table.columns.get(c)!.type)}`)
    const where = whereClause(table, '_t0', url, params)
    await mutate(req, res, table, url, caller, `update ${tableRef(table.name)} as _t0 set ${sets.join(', ')}${where}`, params, 204)
  }

  async function remove(req: IncomingMessage, res: ServerResponse, table: Table, url: URL, caller: Caller) {
    rejectPaging(url)
    const params = new Params()
    const where = whereClause(table, '_t0', url, params)
    await mutate(req, res, table, url, caller, `delete from ${tableRef(table.name)} as _t0${where}`, params, 204)
  }

  function rejectPaging(url: URL) {
    for (const key of ['limit', 'offset', 'order']) {
      if (url.searchParams.has(key)) throw restError(400, 'PGRST100', `"${key}" on update or delete is not supported by the local backend`)
    }
  }

  async function rpc(req: IncomingMessage, res: ServerResponse, name: string, url: URL, caller: Caller) {
    let args: Record<string, unknown>
    if (req.method === 'POST') {
      const body = await readJson(req, 'rest')
      if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) throw restError(400, 'PGRST102', 'Empty or invalid json', 'rpc arguments must be a JSON object')
      args = (body ?? {}) as Record<string, unknown>
    } else args = Object.fromEntries(url.searchParams)
    const keys = Object.keys(args)
    const fn = (catalog().functions.get(name) ?? []).find((f: RpcFunction) => {
      const required = f.argNames.slice(0, f.argNames.length - f.defaults)
      return keys.every((k) => f.argNames.includes(k)) && required.every((k) => k in args)
    })
    if (!fn) {
      throw restError(404, 'PGRST202', `Could not find the function public.${name}(${keys.sort().join(', ')}) in the schema cache`, `Searched for the function public.${name} with parameters ${keys.join(', ') || 'none'}`)
    }
    const params = new Params()
    const call = `"public".${quoteIdent(fn.name)}(${keys.map((k) => `${quoteIdent(k)} => ${params.typed(jsonToText(args[k]), fn.argTypes[fn.argNames.indexOf(k)]!)}`).join(', ')})`
    const sql = fn.returnsSet
      ? `select coalesce(json_agg(_r), '[]')::text as body from ${call} _r`
      : fn.returnType === 'void'
        ? `select ${call}, null::text as body`
        : `select to_json(${call})::text as body`
    const { rows } = await runAs(db, caller.role, caller.claims, (tx) => tx.query<{ body: string | null }>(sql, params.values))
    if (fn.returnType === 'void') {
      res.writeHead(204).end()
      return
    }
    sendJson(res, 200, rows[0]?.body ?? 'null')
  }

  /** Answers /rest/v1/* (path without the prefix). */
  return async function handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<void> {
    const caller = await callerFromRequest(req, jwtSecret)
    checkProfile(req)
    const rpcMatch = /^\/rpc\/([^/]+)$/.exec(path)
    if (rpcMatch) {
      if (req.method !== 'POST' && req.method !== 'GET') throw new HttpError(405, { code: 'PGRST117', message: `Unsupported HTTP method: ${req.method}`, details: null, hint: null })
      return rpc(req, res, decodeURIComponent(rpcMatch[1]!), url, caller)
    }
    const tableMatch = /^\/([^/]+)\/?$/.exec(path)
    if (!tableMatch) throw restError(404, 'PGRST125', `Invalid path ${path}`)
    const table = tableOf(catalog(), decodeURIComponent(tableMatch[1]!))
    switch (req.method) {
      case 'GET':
      case 'HEAD':
        return select(req, res, table, url, caller)
      case 'POST':
        return insert(req, res, table, url, caller)
      case 'PATCH':
        return update(req, res, table, url, caller)
      case 'DELETE':
        return remove(req, res, table, url, caller)
      default:
        throw new HttpError(405, { code: 'PGRST117', message: `Unsupported HTTP method: ${req.method}`, details: null, hint: null })
    }
  }
}
