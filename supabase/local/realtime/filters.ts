// postgres_changes filters as hosted Realtime reads them (lib/extensions/postgres_cdc_rls/
// subscriptions.ex of github.com/supabase/realtime): conditions `column=[not.]op.value` joined by commas (AND),
// op one of FILTER_OPS, a value in double quotes when it holds `,()"\` (realtime-js's filter builder
// quotes so), `in.(a,b)` a list. Each condition is checked against the table when the channel joins
// (realtime.subscription_check_filters) and evaluated by PostgreSQL with the column's type
// (realtime.check_equality_op), so `gt`, `like`, `match` or `is` mean exactly what they mean in SQL.

export const FILTER_OPS = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in', 'like', 'ilike', 'is', 'match', 'imatch', 'isdistinct'] as const
export type FilterOp = (typeof FILTER_OPS)[number]

export interface Condition {
  column: string
  op: FilterOp
  /** For `in`, a PostgreSQL array literal ({a,b}); otherwise the value unquoted. */
  value: string
  negate: boolean
}

/** A condition once checked against its table: the column's type, as format_type() writes it. */
export interface TypedCondition extends Condition {
  type: string
}

/** Splits at commas outside parentheses and double quotes (a backslash escapes inside quotes). */
function splitTopLevel(filter: string): string[] {
  const parts: string[] = []
  let current = ''
  let depth = 0
  let quoted = false
  let prev = ''
  for (let i = 0; i < filter.length; i++) {
    const ch = filter[i]!
    if (quoted) {
      if (ch === '\\' && i + 1 < filter.length) {
        current += ch + filter[++i]
        prev = filter[i]!
        continue
      }
      if (ch === '"') quoted = false
      current += ch
    } else if (ch === '"' && (prev === '.' || prev === '(' || prev === ',')) {
      quoted = true
      current += ch
    } else if (ch === '(') {
      depth++
      current += ch
    } else if (ch === ')') {
      depth = Math.max(0, depth - 1)
      current += ch
    } else if (ch === ',' && depth === 0) {
      parts.push(current)
      current = ''
      prev = ''
      continue
    } else current += ch
    prev = ch
  }
  parts.push(current)
  return parts
}

/** `"a\"b"` → `a"b`; a value that does not close its quotes stays as written. */
function unquote(value: string): string {
  if (!value.startsWith('"')) return value
  let out = ''
  for (let i = 1; i < value.length; i++) {
    const ch = value[i]!
    if (ch === '\\' && i + 1 < value.length) out += value[++i]
    else if (ch === '"') return i === value.length - 1 ? out : value
    else out += ch
  }
  return value
}

/** Elixir's inspect of a list of strings, which hosted's error names the unreadable part with. */
const inspectList = (parts: string[]) => `[${parts.map((p) => JSON.stringify(p)).join(', ')}]`

/** The filter's conditions, or hosted's error text ("Error parsing `filter` params: …"). */
export function parseFilter(filter: string): Condition[] | string {
  const trimmed = filter.trim()
  if (trimmed === '') return []
  const conditions: Condition[] = []
  for (const raw of splitTopLevel(trimmed)) {
    const segment = raw.trim()
    const fail = (reason: string) => `Error parsing \`filter\` params: ${reason}`
    if (segment === '') return fail('filter must not contain empty segments (check for extra commas)')
    const eq = segment.indexOf('=')
    if (eq < 0) return fail(inspectList([segment]))
    const column = segment.slice(0, eq)
    let rest = segment.slice(eq + 1)
    const negate = rest.startsWith('not.')
    if (negate) rest = rest.slice(4)
    const dot = rest.indexOf('.')
    if (dot < 0) return fail(inspectList([rest]))
    const op = rest.slice(0, dot)
    const value = rest.slice(dot + 1)
    if (!(FILTER_OPS as readonly string[]).includes(op)) return fail(inspectList([op, value]))
    if (op === 'in') {
      if (!(value.length >= 2 && value.startsWith('(') && value.endsWith(')')))
        return fail('`in` filter value must be wrapped by parentheses')
      conditions.push({ column, op, value: `{${value.slice(1, -1)}}`, negate })
    } else conditions.push({ column, op: op as FilterOp, value: unquote(value), negate })
  }
  return conditions
}

/** As hosted writes a subscription's filters in its error messages: {"column", "op", "value", negate}. */
export const describeConditions = (conditions: Condition[]) =>
  `[${conditions.map((c) => `{${JSON.stringify(c.column)}, ${JSON.stringify(c.op)}, ${JSON.stringify(c.value)}, ${c.negate}}`).join(', ')}]`

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`
const IS_VALUES = ['null', 'true', 'false', 'unknown']
const SQL_OPS: Partial<Record<FilterOp, string>> = {
  eq: '=',
  neq: '<>',
  lt: '<',
  lte: '<=',
  gt: '>',
  gte: '>=',
  like: 'LIKE',
  ilike: 'ILIKE',
  match: '~',
  imatch: '~*',
}

/**
 * The condition as SQL on the row alias `t`, its value as parameter `$n` (pushed onto `values`).
 * A condition whose result is NULL does not match, negated or not (as check_equality_op's callers
 * count it).
 */
export function conditionSql(c: TypedCondition, values: unknown[]): string {
  const column = `t.${ident(c.column)}`
  let test: string
  if (c.op === 'is') test = `${column} IS ${c.value.toUpperCase()}`
  else {
    values.push(c.value)
    const param = `$${values.length}`
    if (c.op === 'in') test = `${column} = any (${param}::${c.type}[])`
    else if (c.op === 'isdistinct') test = `${column} IS DISTINCT FROM ${param}::${c.type}`
    else test = `${column} ${SQL_OPS[c.op]} ${param}::${c.type}`
  }
  return `coalesce(${c.negate ? `not (${test})` : `(${test})`}, false)`
}

/**
 * The statements that check a condition against its table when the channel joins, as
 * realtime.subscription_check_filters does; each raises (with hosted's message) when it does not hold.
 */
export function conditionCheck(c: Condition, columnType: string): { text: string; values: string[] } | string {
  if (c.op === 'is') {
    if (!IS_VALUES.includes(c.value)) return 'invalid value for is filter: must be null, true, false, or unknown'
    if (c.value !== 'null' && columnType !== 'boolean') return `is ${c.value} filter requires a boolean column, got ${columnType}`
    return { text: 'select 1', values: [] }
  }
  if (c.op === 'in')
    return {
      text:
        `select case when coalesce(cardinality($1::${columnType}[]), 0) > 100 ` +
        "then 'too many values for `in` filter. Maximum 100' end as problem",
      values: [c.value],
    }
  if (c.op === 'like' || c.op === 'ilike')
    return {
      text:
        `select case when not exists (select 1 from pg_catalog.pg_operator where oprname = '~~' and oprleft = $1::regtype) ` +
        `then 'operator ${c.op} requires a text-compatible column type, got ' || $1 end as problem`,
      values: [columnType],
    }
  if (c.op === 'match' || c.op === 'imatch')
    return {
      text:
        `select case when not exists (select 1 from pg_catalog.pg_operator where oprname = '${c.op === 'imatch' ? '~*' : '~'}' ` +
        `and oprleft = $1::regtype and oprright = $1::regtype and oprresult = 'boolean'::regtype) ` +
        `then 'operator ${c.op} requires a text-compatible column type, got ' || $1 when '' ~ $2 then null end as problem`,
      values: [columnType, c.value],
    }
  return { text: `select $1::${columnType} is null and false as problem`, values: [c.value] }
}
