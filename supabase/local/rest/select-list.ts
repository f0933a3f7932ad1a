import { restError } from '../core/errors.ts'
import type { Catalog, Table } from './catalog.ts'
import { EMBED_PARAM, nonNegativeInt, orderClause } from './filters.ts'
import { columnOf, quoteIdent, tableRef, unsupported } from './sql.ts'

// The `select` parameter: columns, aliases and embedded relations, as a SQL select list.

export type SelectItem =
  | { kind: 'star' }
  | { kind: 'column'; name: string; alias?: string }
  | { kind: 'embed'; relation: string; alias?: string; items: SelectItem[] }

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
export function selectList(
  catalog: Catalog,
  table: Table,
  alias: string,
  items: SelectItem[],
  depth = 0,
  embed?: EmbedContext,
  path = '',
): string {
  if (depth > 3) throw unsupported('embedding is limited to three levels')
  return items
    .map((item) => {
      if (item.kind === 'star') return `${alias}.*`
      if (item.kind === 'column') {
        columnOf(table, item.name)
        return `${alias}.${quoteIdent(item.name)} as ${quoteIdent(item.alias ?? item.name)}`
      }
      const related = catalog.tables.get(item.relation)
      const noRelation = restError(
        400,
        'PGRST200',
        `Could not find a relationship between '${table.name}' and '${item.relation}' in the schema cache`,
      )
      if (!related) throw noRelation
      const toMany = catalog.foreignKeys.filter((fk) => fk.child === related.name && fk.parent === table.name)
      const toOne = catalog.foreignKeys.filter((fk) => fk.child === table.name && fk.parent === related.name)
      if (toMany.length + toOne.length === 0) throw noRelation
      if (toMany.length + toOne.length > 1)
        throw restError(
          400,
          'PGRST201',
          `Could not embed because more than one relationship was found for '${table.name}' and '${item.relation}'`,
        )
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
        const limitClause = limit !== undefined ? ` limit ${limit}` : ''
        const page = `${orderClause(related, inner, order)}${limitClause}${offset ? ` offset ${offset}` : ''}`
        return (
          `coalesce((select json_agg(_e${depth}) from (select ${list} from ${tableRef(related.name)} ${inner} where ` +
          `${join}${page}) _e${depth}), '[]'::json) as ${name}`
        )
      }
      if (order !== null || limit !== undefined || offset !== undefined)
        throw unsupported(`"${here}" is a single row: order, limit and offset do not apply`)
      const fk = toOne[0]!
      const join = fk.parentColumns.map((c, i) => `${inner}.${quoteIdent(c)} = ${alias}.${quoteIdent(fk.childColumns[i]!)}`).join(' and ')
      return (
        `(select row_to_json(_e${depth}) from (select ${list} from ${tableRef(related.name)} ${inner} where ${join} ` +
        `limit 1) _e${depth}) as ${name}`
      )
    })
    .join(', ')
}
