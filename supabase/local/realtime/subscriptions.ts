import type { Caller } from '../core/caller.ts'
import type { Queryable } from '../core/db.ts'
import type { Binding } from './bindings.ts'
import { conditionCheck, conditionSql, describeConditions, type TypedCondition } from './filters.ts'

// The database side of postgres_changes filters: checking a channel's filters against their tables
// when it joins (as hosted's realtime.subscription_check_filters does, for the caller's role), and
// evaluating them on a changed row (as realtime.is_visible_through_filters does).

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** The error hosted sends in the `system` message when a subscription cannot be created. */
const unableToSubscribe = (b: Binding, exception: string) =>
  'Unable to subscribe to changes with given parameters. An exception happened so please check your connect parameters: ' +
  `[event: ${JSON.stringify(b.event)}, schema: ${JSON.stringify(b.schema)}, table: ${JSON.stringify(b.table ?? '*')}, ` +
  `filters: ${describeConditions(b.conditions)}]. Exception: ${exception}`

/**
 * Types every binding's conditions (in place) from its table's columns the caller's role may read;
 * the first one that does not hold is returned as hosted's message (then no binding of the channel
 * is served, as hosted creates a channel's subscriptions in one transaction).
 */
export async function checkBindings(db: Queryable, caller: Caller, bindings: Binding[]): Promise<string | undefined> {
  for (const b of bindings) {
    if (!b.conditions.length || b.table === undefined) continue
    const { rows } = await db.query<{ name: string; type: string; selectable: boolean }>(
      `select a.attname as name, format_type(a.atttypid, null) as type,
              pg_catalog.has_column_privilege($3, a.attrelid, a.attnum, 'SELECT') as selectable
         from pg_catalog.pg_attribute a
        where a.attrelid = to_regclass(quote_ident($1) || '.' || quote_ident($2)) and a.attnum > 0 and not a.attisdropped`,
      [b.schema, b.table, caller.role],
    )
    if (!rows.length)
      return (
        'Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: ' +
        `[event: ${JSON.stringify(b.event)}, schema: ${JSON.stringify(b.schema)}, table: ${JSON.stringify(b.table)}, ` +
        `filters: ${describeConditions(b.conditions)}]`
      )
    const typed: TypedCondition[] = []
    for (const c of b.conditions) {
      const column = rows.find((r) => r.name === c.column && r.selectable)
      if (!column) return unableToSubscribe(b, `invalid column for filter ${c.column}`)
      const check = conditionCheck(c, column.type)
      if (typeof check === 'string') return unableToSubscribe(b, check)
      try {
        const { rows: answer } = await db.query<{ problem: unknown }>(check.text, check.values)
        const problem = answer[0]?.problem
        if (typeof problem === 'string') return unableToSubscribe(b, problem)
      } catch (error) {
        const text =
          c.op === 'match' || c.op === 'imatch' ? `invalid regular expression for ${c.op} filter: ${messageOf(error)}` : messageOf(error)
        return unableToSubscribe(b, text)
      }
      typed.push({ ...c, type: column.type })
    }
    b.conditions = typed
  }
  return undefined
}

/**
 * Which of `bindings` (all on the changed row's table) the row passes: every condition must hold,
 * and a condition on a column the row does not carry (a DELETE carries only the old row's replica
 * identity) fails, as hosted fails closed. One statement for all of them, through PostgreSQL's own
 * operators on the columns' types.
 */
export async function passingBindings(
  db: Queryable,
  schema: string,
  table: string,
  row: Record<string, unknown>,
  bindings: Binding[],
): Promise<Set<Binding>> {
  const passing = new Set<Binding>()
  const values: unknown[] = [JSON.stringify(row)]
  const tests: { binding: Binding; column: string }[] = []
  const columns: string[] = []
  for (const b of bindings) {
    if (!b.conditions.length) {
      passing.add(b)
      continue
    }
    const typed = b.conditions as TypedCondition[]
    if (typed.some((c) => !c.type || !(c.column in row))) continue
    const column = `m${tests.length}`
    columns.push(`${typed.map((c) => conditionSql(c, values)).join(' and ')} as ${column}`)
    tests.push({ binding: b, column })
  }
  if (!tests.length) return passing
  try {
    const { rows } = await db.query<Record<string, boolean>>(
      `select ${columns.join(', ')} from jsonb_populate_record(null::${ident(schema)}.${ident(table)}, $1::jsonb) t`,
      values,
    )
    for (const { binding, column } of tests) if (rows[0]?.[column] === true) passing.add(binding)
  } catch (error) {
    console.error('realtime: evaluating filters:', messageOf(error))
  }
  return passing
}
