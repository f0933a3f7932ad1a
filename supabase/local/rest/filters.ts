import type { Table } from './catalog.ts'
import { columnOf, type Params, quoteIdent, unsupported } from './sql.ts'

// The query string's filters (`column=op.value`), order and paging as SQL.

/** `<embedded path>.order|limit|offset` query parameters (supabase-js `referencedTable`). */
export const EMBED_PARAM = /^(.+)\.(order|limit|offset)$/

/** Splits `in.(a,"b,c")` lists: commas separate, double quotes protect, backslash escapes. */
function parseList(text: string): string[] {
  const values: string[] = []
  let current = ''
  let quoted = false
  let wasQuoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quoted) {
      if (ch === '\\' && i + 1 < text.length) current += text[++i]
      else if (ch === '"') quoted = false
      else current += ch
    } else if (ch === '"') {
      quoted = true
      wasQuoted = true
    } else if (ch === ',') {
      values.push(wasQuoted ? current : current.trim())
      current = ''
      wasQuoted = false
    } else current += ch
  }
  if (quoted) throw unsupported(`"failed to parse filter (in.(${text}))"`, 'unterminated quote')
  values.push(wasQuoted ? current : current.trim())
  return values
}

const COMPARISONS: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' }
export const RESERVED_PARAMS = new Set(['select', 'order', 'limit', 'offset', 'on_conflict', 'columns'])

/** One `column=op.value` filter as a SQL condition on `alias`. */
export function filterCondition(table: Table, alias: string, key: string, raw: string, params: Params): string {
  if (key === 'or' || key === 'and' || key === 'not.or' || key === 'not.and')
    throw unsupported(`"${key}" filters are not supported by the local backend`)
  if (key.includes('.')) throw unsupported(`"${key}": filters on embedded resources are not supported by the local backend`)
  const column = columnOf(table, key)
  const ref = `${alias}.${quoteIdent(column.name)}`
  let rest = raw
  let negate = false
  if (rest.startsWith('not.')) {
    negate = true
    rest = rest.slice(4)
  }
  const dot = rest.indexOf('.')
  if (dot < 0) throw unsupported(`"failed to parse filter (${raw})"`, `expected operator.value for ${key}`)
  const op = rest.slice(0, dot)
  const value = rest.slice(dot + 1)
  let condition: string
  if (op in COMPARISONS) condition = `${ref} ${COMPARISONS[op]} ${params.typed(value, column.type)}`
  else if (op === 'like' || op === 'ilike') condition = `${ref}::text ${op} ${params.add(value.replace(/\*/g, '%'))}::text`
  else if (op === 'in') {
    const match = /^\((.*)\)$/s.exec(value)
    if (!match) throw unsupported(`"failed to parse filter (${raw})"`, 'in needs a parenthesised list')
    const items = match[1] === '' ? [] : parseList(match[1]!)
    condition = items.length ? `${ref} in (${items.map((v) => params.typed(v, column.type)).join(', ')})` : 'false'
  } else if (op === 'is') {
    const forms: Record<string, string> = {
      null: 'is null',
      not_null: 'is not null',
      true: 'is true',
      false: 'is false',
      unknown: 'is unknown',
    }
    const form = forms[value.toLowerCase()]
    if (!form) throw unsupported(`"failed to parse filter (${raw})"`, 'is accepts null, not_null, true, false or unknown')
    condition = `${ref} ${form}`
  } else
    throw unsupported(
      `"${op}" filters are not supported by the local backend`,
      `supported: eq, neq, gt, gte, lt, lte, like, ilike, in, is (optionally with not.)`,
    )
  return negate ? `not (${condition})` : condition
}

export function whereClause(table: Table, alias: string, url: URL, params: Params): string {
  const conditions: string[] = []
  for (const [key, value] of url.searchParams) {
    if (RESERVED_PARAMS.has(key) || EMBED_PARAM.test(key)) continue
    conditions.push(filterCondition(table, alias, key, value, params))
  }
  return conditions.length ? ` where ${conditions.join(' and ')}` : ''
}

export function orderClause(table: Table, alias: string, order: string | null): string {
  if (order === null || order === '') return ''
  const terms = order.split(',').map((term) => {
    const [name, ...modifiers] = term.trim().split('.')
    const column = columnOf(table, name ?? '')
    let sql = `${alias}.${quoteIdent(column.name)}`
    for (const m of modifiers) {
      if (m === 'asc' || m === 'desc') sql += ` ${m}`
      else if (m === 'nullsfirst') sql += ' nulls first'
      else if (m === 'nullslast') sql += ' nulls last'
      else throw unsupported(`"failed to parse order (${order})"`, `unknown modifier ${m}`)
    }
    return sql
  })
  return ` order by ${terms.join(', ')}`
}

export function nonNegativeInt(name: string, text: string | null): number | undefined {
  if (text === null) return undefined
  if (!/^\d{1,9}$/.test(text)) throw unsupported(`"${name}=${text}" must be a non-negative integer`)
  return Number(text)
}
