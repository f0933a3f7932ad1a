// A channel's postgres_changes bindings as realtime-js sends them in phx_join
// ({event, schema, table?, filter?}), and which row changes each of them wants. Filters have
// Supabase Realtime's form `column=op.value` with op eq, neq, lt, lte, gt, gte or in.((a,b)).

export type ChangeType = 'INSERT' | 'UPDATE' | 'DELETE'

export interface Binding {
  id: number
  event: '*' | ChangeType
  schema: string
  table: string | undefined
  filter: string | undefined
  test: ((row: Record<string, unknown>) => boolean | undefined) | undefined
  /** What the client sent, echoed in the join reply (realtime-js compares it field by field). */
  sent: { event: unknown; schema: unknown; table?: unknown; filter?: unknown }
}

export interface BindingRequest {
  event?: unknown
  schema?: unknown
  table?: unknown
  filter?: unknown
}

const OPS = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in'] as const
type Op = (typeof OPS)[number]
const FILTER = /^([A-Za-z_][A-Za-z0-9_]*)=(eq|neq|lt|lte|gt|gte|in)\.(.*)$/s

const asText = (v: unknown) => (v === null || v === undefined ? undefined : typeof v === 'object' ? JSON.stringify(v) : String(v))

function compare(op: Op, actual: string, wanted: string): boolean {
  const a = Number(actual)
  const w = Number(wanted)
  const numeric = actual.trim() !== '' && wanted.trim() !== '' && Number.isFinite(a) && Number.isFinite(w)
  const order = numeric ? Math.sign(a - w) : actual < wanted ? -1 : actual > wanted ? 1 : 0
  switch (op) {
    case 'eq':
      return actual === wanted || (numeric && a === w)
    case 'neq':
      return !(actual === wanted || (numeric && a === w))
    case 'lt':
      return order < 0
    case 'lte':
      return order <= 0
    case 'gt':
      return order > 0
    case 'gte':
      return order >= 0
    case 'in':
      return wanted
        .replace(/^\(|\)$/g, '')
        .split(',')
        .map((x) => x.trim().replace(/^"(.*)"$/, '$1'))
        .includes(actual)
  }
}

/**
 * The filter's test on a row: true/false when the row has the column, undefined when it does not
 * (a DELETE carries only the key and the table's notified columns).
 */
export function parseFilter(filter: string): Binding['test'] | Error {
  const match = FILTER.exec(filter)
  if (!match) return new Error(`Invalid filter "${filter}": expected column=op.value with op one of ${OPS.join(', ')}`)
  const [, column, op, wanted] = match as unknown as [string, string, Op, string]
  return (row) => {
    if (!(column in row)) return undefined
    const actual = asText(row[column])
    return actual !== undefined && compare(op, actual, wanted)
  }
}

/** Validates the join's bindings; an Error names the first bad one. */
export function parseBindings(requests: unknown, nextId: () => number): Binding[] | Error {
  if (requests === undefined || requests === null) return []
  if (!Array.isArray(requests)) return new Error('postgres_changes must be a list')
  const bindings: Binding[] = []
  for (const r of requests as BindingRequest[]) {
    const event = typeof r?.event === 'string' ? r.event.toUpperCase() : undefined
    if (event !== '*' && event !== 'INSERT' && event !== 'UPDATE' && event !== 'DELETE')
      return new Error(`Invalid event ${JSON.stringify(r?.event)}`)
    if (typeof r.schema !== 'string' || !r.schema) return new Error('A postgres_changes binding needs a schema')
    const table = typeof r.table === 'string' && r.table !== '' && r.table !== '*' ? r.table : undefined
    const filter = typeof r.filter === 'string' && r.filter !== '' ? r.filter : undefined
    const test = filter === undefined ? undefined : parseFilter(filter)
    if (test instanceof Error) return test
    const sent = {
      event: r.event,
      schema: r.schema,
      ...(r.table === undefined ? {} : { table: r.table }),
      ...(r.filter === undefined ? {} : { filter: r.filter }),
    }
    bindings.push({ id: nextId(), event, schema: r.schema, table, filter, test, sent })
  }
  return bindings
}

/** The binding as the join reply echoes it (realtime-js matches it against what it sent). */
export const bindingReply = (b: Binding) => ({ ...b.sent, id: b.id })

export const bindingWants = (b: Binding, schema: string, table: string, type: ChangeType) =>
  (b.event === '*' || b.event === type) && (b.schema === '*' || b.schema === schema) && (b.table === undefined || b.table === table)
