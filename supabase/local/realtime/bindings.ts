import { parseFilter, type Condition, type TypedCondition } from './filters.ts'

// A channel's postgres_changes bindings as realtime-js sends them in phx_join
// ({event, schema, table?, filter?}), and which row changes each of them wants. Filters have
// hosted Realtime's form (filters.ts); their conditions get their columns' types when the channel
// joins (service.ts checks them against the table), and PostgreSQL evaluates them.

export type ChangeType = 'INSERT' | 'UPDATE' | 'DELETE'

export interface Binding {
  id: number
  event: '*' | ChangeType
  schema: string
  table: string | undefined
  filter: string | undefined
  /** The filter's conditions (AND); typed once checked against the table. */
  conditions: (Condition | TypedCondition)[]
  /** What the client sent, echoed in the join reply (realtime-js compares it field by field). */
  sent: { event: unknown; schema: unknown; table?: unknown; filter?: unknown }
}

export interface BindingRequest {
  event?: unknown
  schema?: unknown
  table?: unknown
  filter?: unknown
}

/**
 * Reads the join's bindings; an Error (the join is refused) names the first malformed one. A filter
 * hosted Realtime cannot parse does not refuse the join there: the channel joins, its bindings are
 * echoed, and a `system` message says why postgres_changes is off; `problem` is that message.
 */
export function parseBindings(requests: unknown, nextId: () => number): { bindings: Binding[]; problem?: string } | Error {
  if (requests === undefined || requests === null) return { bindings: [] }
  if (!Array.isArray(requests)) return new Error('postgres_changes must be a list')
  const bindings: Binding[] = []
  let problem: string | undefined
  for (const r of requests as BindingRequest[]) {
    const event = typeof r?.event === 'string' ? r.event.toUpperCase() : undefined
    if (event !== '*' && event !== 'INSERT' && event !== 'UPDATE' && event !== 'DELETE')
      return new Error(`Invalid event ${JSON.stringify(r?.event)}`)
    if (typeof r.schema !== 'string' || !r.schema) return new Error('A postgres_changes binding needs a schema')
    const table = typeof r.table === 'string' && r.table !== '' && r.table !== '*' ? r.table : undefined
    const filter = typeof r.filter === 'string' && r.filter !== '' ? r.filter : undefined
    let conditions = filter === undefined ? [] : parseFilter(filter)
    if (typeof conditions === 'string') {
      problem ??= conditions
      conditions = []
    } else if (conditions.length && table === undefined)
      problem ??= 'No subscription params provided. Please provide at least a `schema` or `table` to subscribe to'
    const sent = {
      event: r.event,
      schema: r.schema,
      ...(r.table === undefined ? {} : { table: r.table }),
      ...(r.filter === undefined ? {} : { filter: r.filter }),
    }
    bindings.push({ id: nextId(), event, schema: r.schema, table, filter, conditions, sent })
  }
  return problem === undefined ? { bindings } : { bindings, problem }
}

/** The binding as the join reply echoes it (realtime-js matches it against what it sent). */
export const bindingReply = (b: Binding) => ({ ...b.sent, id: b.id })

export const bindingWants = (b: Binding, schema: string, table: string, type: ChangeType) =>
  (b.event === '*' || b.event === type) && (b.schema === '*' || b.schema === schema) && (b.table === undefined || b.table === table)
