import { restError } from '../core/errors.ts'
import { readJson } from '../core/http-body.ts'
import type { TableHandler } from './context.ts'
import { mutate } from './mutate.ts'
import { columnOf, jsonToText, Params, quoteIdent, tableRef } from './sql.ts'
import { preferences } from './request.ts'

/** POST /rest/v1/<table>: insert one row or many; with Prefer: resolution=..., an upsert. */
export const insert: TableHandler = async (context, request, table, caller) => {
  const { req, url } = request
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
    const value = (o: Record<string, unknown>, c: string) =>
      c in o ? params.typed(jsonToText(o[c]), table.columns.get(c)!.type) : missingDefault ? 'default' : 'null'
    const values = objects.map((o) => `(${columns.map((c) => value(o, c)).join(', ')})`).join(', ')
    statement = `insert into ${tableRef(table.name)} as _t0 (${columns.map(quoteIdent).join(', ')}) values ${values}`
  }
  const resolution = prefs.get('resolution')
  if (resolution !== undefined) {
    if (resolution !== 'merge-duplicates' && resolution !== 'ignore-duplicates')
      throw restError(400, 'PGRST100', `unknown resolution "${resolution}"`)
    const conflictParam = url.searchParams.get('on_conflict')
    const target = conflictParam ? conflictParam.split(',').map((c) => columnOf(table, c.trim()).name) : table.primaryKey
    if (target.length === 0) throw restError(400, 'PGRST100', `table ${table.name} has no primary key: pass on_conflict`)
    const updates = columns.length ? columns : target
    statement +=
      resolution === 'ignore-duplicates'
        ? ` on conflict (${target.map(quoteIdent).join(', ')}) do nothing`
        : ` on conflict (${target.map(quoteIdent).join(', ')}) do update set ` +
          `${updates.map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`).join(', ')}`
  }
  await mutate(context, request, table, caller, statement, params, 201)
}
