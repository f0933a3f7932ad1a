import { restError } from '../core/errors.ts'
import type { Catalog, Column, Table } from './catalog.ts'

// Builds SQL for the PostgREST subset we serve. Identifiers come only from the catalog and are
// always quoted; every value is a text parameter cast to the column's own type, so user input
// never becomes SQL text.

export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`
export const tableRef = (name: string): string => `"public".${quoteIdent(name)}`

/** Collects text parameters and hands out their placeholders. */
export class Params {
  readonly values: (string | null)[] = []
  add(value: string | null): string {
    this.values.push(value)
    return `$${this.values.length}`
  }
  /** A placeholder already cast to `type` (text in, server-side conversion). */
  typed(value: string | null, type: string): string {
    return `(${this.add(value)}::text)::${type}`
  }
}

/** A JSON value as the text PostgreSQL parses for any column type. */
export function jsonToText(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

export type SelectItem =
  | { kind: 'star' }
  | { kind: 'column'; name: string; alias?: string }
  | { kind: 'embed'; relation: string; alias?: string; items: SelectItem[] }

const unsupported = (message: string, details: string | null = null) => restError(400, 'PGRST100', message, details)

function splitTopLevel(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let current = ''
  for (const ch of text) {
    if (ch === '(') depth++
    if (ch === ')') depth--
    if (depth < 0) throw unsupported(`"failed to parse select parameter (${text})"`, 'unexpected ")"')
    if (ch === ',' && depth === 0) {
      parts.push(current)
      current = ''
    } else current += ch
  }
  if (depth !== 0) throw unsupported(`"failed to parse select parameter (${text})"`, 'unbalanced parentheses')
  parts.push(current)
  return parts
}

const NAME = '[A-Za-z_][A-Za-z0-9_]*'
const EMBED = new RegExp(`^(?:(${NAME}):)?(${NAME})(!${NAME})?\\((.*)\\)$`, 's')
const COLUMN = new RegExp(`^(?:(${NAME}):)?(${NAME}|\\*)$`)

export function parseSelect(text: string | null): SelectItem[] {
  const source = (text ?? '*').replace(/\s+/g, '')
  if (source === '') return [{ kind: 'star' }]
  return splitTopLevel(source).map((part): SelectItem => {
    const embed = EMBED.exec(part)
    if (embed) {
      if (embed[3]) throw unsupported(`"${part}": relationship hints (!${embed[3].slice(1)}) are not supported by the local backend`)
      return { kind: 'embed', alias: embed[1], relation: embed[2]!, items: parseSelect(embed[4] || '*') }
    }
    const column = COLUMN.exec(part)
    if (column) {
      if (column[2] === '*') {
        if (column[1]) throw unsupported(`"${part}": an alias needs a column`)
        return { kind: 'star' }
      }
      return { kind: 'column', alias: column[1], name: column[2]! }
    }
    throw unsupported(`"${part}" in select is not supported by the local backend (columns, aliases and simple embedding only)`)
  })
}

export function tableOf(catalog: Catalog, name: string): Table {
  const table = catalog.tables.get(name)
  if (!table) throw restError(400, 'PGRST205', `Could not find the table 'public.${name}' in the schema cache`)
  return table
}

export function columnOf(table: Table, name: string): Column {
  const column = table.columns.get(name)
  if (!column) throw restError(400, '42703', `column ${table.name}.${name} does not exist`)
  return column
}

/** `<embedded path>.order|limit|offset` query parameters (supabase-js `referencedTable`). */
const EMBED_PARAM = /^(.+)\.(order|limit|offset)$/

/** The request's query parameters as seen by embedding, and which embed parameters it used. */
export interface EmbedContext {
  url: URL
  consumed: Set<string>
}

/** Every `<path>.order/limit/offset` parameter must belong to an embedded to-many resource. */
export function checkEmbedParams(embed: EmbedContext): void {
  for (const key of embed.url.searchParams.keys()) {
    if (EMBED_PARAM.test(key) && !embed.consumed.has(key)) throw unsupported(`"${key}" does not name an embedded list in select`)
  }
}

/** The select list for `table` (aliased `alias`), with embedded relations as JSON subqueries. */
export function selectList(catalog: Catalog, table: Table, alias: string, items: SelectItem[], depth = 0, embed?: EmbedContext, path = ''): string {
  if (depth > 3) throw unsupported('embedding is limited to three levels')
  return items
    .map((item) => {
      if (item.kind === 'star') return `${alias}.*`
      if (item.kind === 'column') {
        columnOf(table, item.name)
        return `${alias}.${quoteIdent(item.name)} as ${quoteIdent(item.alias ?? item.name)}`
      }
      const related = catalog.tables.get(item.relation)
      const noRelation = restError(400, 'PGRST200', `Could not find a relationship between '${table.name}' and '${item.relation}' in the schema cache`)
      if (!related) throw noRelation
      const toMany = catalog.foreignKeys.filter((fk) => fk.child === related.name && fk.parent === table.name)
      const toOne = catalog.foreignKeys.filter((fk) => fk.child === table.name && fk.parent === related.name)
      if (toMany.length + toOne.length === 0) throw noRelation
      if (toMany.length + toOne.length > 1) throw restError(400, 'PGRST201', `Could not embed because more than one relationship was found for '${table.name}' and '${item.relation}'`)
      const inner = `_t${depth + 1}`
      const here = path ? `${path}.${item.alias ?? item.relation}` : (item.alias ?? item.relation)
      const list = selectList(catalog, related, inner, item.items, depth + 1, embed, here)
      const name = quoteIdent(item.alias ?? item.relation)
      const shaping = (kind: string) => {
        const value = embed?.url.searchParams.get(`${here}.${kind}`) ?? null
        if (value !== null) embed!.consumed.add(`${here}.${kind}`)
        return value
      }
      const order = shaping('order')
      const limit = nonNegativeInt(`${here}.limit`, shaping('limit'))
      const offset = nonNegativeInt(`${here}.offset`, shaping('offset'))
      if (toMany[0]) {
        const fk = toMany[0]
        const join = fk.childColumns.map((c, i) => `${inner}.${quoteIdent(c)} = ${alias}.${quoteIdent(fk.parentColumns[i]!)}`).join(' and ')
        const page = `${orderClause(related, inner, order)}${limit !== undefined ? ` limit ${limit}` : ''}${offset ? ` offset ${offset}` : ''}`
        return `coalesce((select json_agg(_e${depth}) from (select ${list} from ${tableRef(related.name)} ${inner} where ${join}${page}) _e${depth}), '[]'::json) as ${name}`
      }
      if (order !== null || limit !== undefined || offset !== undefined) throw unsupported(`"${here}" is a single row: order, limit and offset do not apply`)
      const fk = toOne[0]!
      const join = fk.parentColumns.map((c, i) => `${inner}.${quoteIdent(c)} = ${alias}.${quoteIdent(fk.childColumns[i]!)}`).join(' and ')
      return `(select row_to_json(_e${depth}) from (select ${list} from ${tableRef(related.name)} ${inner} where ${join} limit 1) _e${depth}) as ${name}`
    })
    .join(', ')
}

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
  if (key === 'or' || key === 'and' || key === 'not.or' || key === 'not.and') throw unsupported(`"${key}" filters are not supported by the local backend`)
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
    const forms: Record<string, string> = { null: 'is null', not_null: 'is not null', true: 'is true', false: 'is false', unknown: 'is unknown' }
    const form = forms[value.toLowerCase()]
    if (!form) throw unsupported(`"failed to parse filter (${raw})"`, 'is accepts null, not_null, true, false or unknown')
    condition = `${ref} ${form}`
  } else throw unsupported(`"${op}" filters are not supported by the local backend`, `supported: eq, neq, gt, gte, lt, lte, like, ilike, in, is (optionally with not.)`)
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
