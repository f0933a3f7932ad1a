import { restError } from '../core/errors.ts'
import type { Catalog, Column, Table } from './catalog.ts'

// SQL for the PostgREST subset we serve. Identifiers come only from the catalog and are always
// quoted; every value is a text parameter cast to the column's own type, so user input never
// becomes SQL text.

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
  /**
   * A JSON value converted to `type` the way PostgREST's json_to_recordset does it: a JSON string
   * stays a JSON string in a json/jsonb column, a JSON array becomes an array, an object the JSON
   * text of a text column, anything else the type's input from the value's text.
   */
  json(value: unknown, type: string): string {
    return `(select _j.v from json_to_record(json_build_object('v', ${this.add(JSON.stringify(value ?? null))}::json)) as _j(v ${type}))`
  }
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

/** PostgREST's "cannot parse or not supported" error. */
export const unsupported = (message: string, details: string | null = null) => restError(400, 'PGRST100', message, details)
