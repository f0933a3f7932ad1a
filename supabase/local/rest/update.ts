import { restError } from '../core/errors.ts'
import { readJson } from '../core/http-body.ts'
import type { TableHandler } from './context.ts'
import { mutate } from './mutate.ts'
import { whereClause } from './filters.ts'
import { columnOf, Params, quoteIdent, tableRef } from './sql.ts'
import { rejectPaging } from './request.ts'

/** PATCH /rest/v1/<table>: update the rows the filters select (RLS narrows them further). */
export const update: TableHandler = async (context, request, table, caller) => {
  const { req, url } = request
  const payload = await readJson(req, 'rest')
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload) || Object.keys(payload).length === 0) {
    throw restError(400, 'PGRST102', 'Empty or invalid json', 'update needs a JSON object with at least one column')
  }
  rejectPaging(url)
  const params = new Params()
  const sets = Object.entries(payload as Record<string, unknown>).map(
    ([c, v]) => `${quoteIdent(columnOf(table, c).name)} = ${params.json(v, table.columns.get(c)!.type)}`,
  )
  const where = whereClause(table, '_t0', url, params)
  const statement = `update ${tableRef(table.name)} as _t0 set ${sets.join(', ')}${where}`
  await mutate(context, request, table, caller, { action: 'update', statement, params })
}
