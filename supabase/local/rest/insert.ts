import { restError } from '../core/errors.ts'
import { readJson } from '../core/http-body.ts'
import type { TableHandler } from './context.ts'
import { COUNT_UPDATED, mutate } from './mutate.ts'
import { preferencesOf } from './prefer.ts'
import { columnOf, Params, quoteIdent, tableRef } from './sql.ts'

const keysMismatch = () => restError(400, 'PGRST102', 'All object keys must match')

/**
 * The rows of an insert body as PostgREST reads them (ApiRequest/Payload.hs): an object is one
 * row, an array of objects with the same keys many, any other JSON value no row at all. With
 * `columns` (supabase-js sends it for arrays) the keys may differ and only those columns count.
 */
function payloadRows(payload: unknown, uniformKeys: boolean): Record<string, unknown>[] {
  if (payload !== null && typeof payload === 'object' && !Array.isArray(payload)) return [payload as Record<string, unknown>]
  if (!Array.isArray(payload)) return []
  if (payload.some((r) => r === null || typeof r !== 'object' || Array.isArray(r))) throw keysMismatch()
  const rows = payload as Record<string, unknown>[]
  if (uniformKeys && rows.length) {
    const first = Object.keys(rows[0]!).sort().join('\u0000')
    if (rows.some((r) => Object.keys(r).sort().join('\u0000') !== first)) throw keysMismatch()
  }
  return rows
}

/** POST /rest/v1/<table>: insert one row or many; with Prefer: resolution=..., an upsert. */
export const insert: TableHandler = async (context, request, table, caller) => {
  const { req, url } = request
  const payload = await readJson(req, 'rest')
  if (payload === undefined) throw restError(400, 'PGRST102', 'Empty or invalid json')
  const columnsParam = url.searchParams.get('columns')
  const objects = payloadRows(payload, columnsParam === null)
  const columns = columnsParam ? columnsParam.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1')) : Object.keys(objects[0] ?? {})
  for (const c of columns) columnOf(table, c)
  const prefs = preferencesOf(req)
  const params = new Params()
  let statement: string
  if (objects.length === 0) {
    // Nothing to insert: a statement that inserts no row, so privileges, RLS and the answer stay PostgREST's.
    const first = [...table.columns.values()][0]!
    statement = `insert into ${tableRef(table.name)} as _t0 (${quoteIdent(first.name)}) select null::${first.type} where false`
  } else if (columns.length === 0) {
    if (objects.length !== 1) throw restError(400, 'PGRST102', 'Empty or invalid json', 'several rows without any column')
    statement = `insert into ${tableRef(table.name)} as _t0 default values`
  } else {
    const value = (o: Record<string, unknown>, c: string) =>
      c in o ? params.json(o[c], table.columns.get(c)!.type) : prefs.missing === 'default' ? 'default' : 'null'
    const values = objects.map((o) => `(${columns.map((c) => value(o, c)).join(', ')})`).join(', ')
    statement = `insert into ${tableRef(table.name)} as _t0 (${columns.map(quoteIdent).join(', ')}) values ${values}`
  }
  // Without a primary key or on_conflict PostgREST ignores the resolution (and does not report it).
  const conflictParam = url.searchParams.get('on_conflict')
  const target = conflictParam ? conflictParam.split(',').map((c) => columnOf(table, c.trim()).name) : table.primaryKey
  const resolution = target.length && objects.length ? prefs.resolution : undefined
  if (resolution === 'ignore-duplicates') statement += ` on conflict (${target.map(quoteIdent).join(', ')}) do nothing`
  else if (resolution === 'merge-duplicates') {
    statement += columns.length
      ? ` on conflict (${target.map(quoteIdent).join(', ')}) do update set ` +
        `${columns.map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`).join(', ')} where ${COUNT_UPDATED}`
      : ` on conflict (${target.map(quoteIdent).join(', ')}) do nothing`
  }
  await mutate(context, request, table, caller, {
    action: 'insert',
    statement,
    params,
    merge: prefs.resolution === 'merge-duplicates' && target.length > 0,
    resolutionApplies: target.length > 0,
  })
}
