import type { TableHandler } from './context.ts'
import { mutate } from './mutate.ts'
import { whereClause } from './filters.ts'
import { Params, tableRef } from './sql.ts'
import { rejectPaging } from './request.ts'

/** DELETE /rest/v1/<table>: delete the rows the filters select (RLS narrows them further). */
export const remove: TableHandler = async (context, request, table, caller) => {
  rejectPaging(request.url)
  const params = new Params()
  const where = whereClause(table, '_t0', request.url, params)
  await mutate(context, request, table, caller, {
    action: 'delete',
    statement: `delete from ${tableRef(table.name)} as _t0${where}`,
    params,
  })
}
