import type { Column, PgType, Relation, Schema, SqlFunction } from './introspect.ts'

// Renders the public schema as TypeScript in the shape `supabase gen types typescript` writes
// (Database → public → Tables/Views/Functions/Enums/CompositeTypes, Row/Insert/Update,
// Relationships, Args/Returns), so supabase-js types every call the same way against the local
// backend and a hosted project.

const STRING_TYPES = new Set([
  'text',
  'varchar',
  'bpchar',
  'char',
  'name',
  'uuid',
  'date',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
  'interval',
  'bytea',
  'inet',
  'cidr',
  'macaddr',
  'citext',
  'tsvector',
  'regclass',
  'regtype',
  'bit',
  'varbit',
  'money',
])
const NUMBER_TYPES = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid'])

function tsType(schema: Schema, oid: number, indent: string): string {
  const t: PgType | undefined = schema.types.get(oid)
  if (!t) return 'unknown'
  if (t.kind === 'd') return tsType(schema, t.base, indent)
  if (t.kind === 'e') return `Database["public"]["Enums"]["${t.name}"]`
  if (t.elem !== 0 && t.name.startsWith('_')) return `${tsType(schema, t.elem, indent)}[]`
  if (t.kind === 'c' && t.relid !== 0) {
    // A table's or view's row type is that relation's Row, named once (as supabase gen types names it).
    const rel = schema.relations.find((r) => r.oid === t.relid)
    if (rel) return `Database["public"]["${rel.kind === 'v' || rel.kind === 'm' ? 'Views' : 'Tables'}"]["${rel.name}"]["Row"]`
    return 'Record<string, unknown>'
  }
  if (t.name === 'bool') return 'boolean'
  if (NUMBER_TYPES.has(t.name)) return 'number'
  if (t.name === 'json' || t.name === 'jsonb') return 'Json'
  if (STRING_TYPES.has(t.name)) return 'string'
  if (t.name === 'void') return 'undefined'
  if (t.name === 'record') return 'Record<string, unknown>'
  return 'unknown'
}

function objectType(fields: [string, string][], indent: string): string {
  if (fields.length === 0) return '{}'
  return `{\n${fields.map(([k, v]) => `${indent}  ${k}: ${v}`).join('\n')}\n${indent}}`
}

const NONE = '{\n      [_ in never]: never\n    }'

function rowFields(schema: Schema, columns: Column[], indent: string, view: boolean): [string, string][] {
  // PostgreSQL cannot tell whether a view's column can be null: every view column may be.
  return columns.map((c) => [c.name, `${tsType(schema, c.type, indent)}${c.notNull && !view ? '' : ' | null'}`])
}

function writeFields(schema: Schema, columns: Column[], indent: string, mode: 'insert' | 'update', view: boolean): [string, string][] {
  return columns.map((c) => {
    const type = `${tsType(schema, c.type, indent)}${c.notNull && !view ? '' : ' | null'}`
    if (c.readOnly) return [`${c.name}?`, 'never']
    const optional = mode === 'update' || view || c.hasDefault || !c.notNull
    return [`${c.name}${optional ? '?' : ''}`, type]
  })
}

function relationships(schema: Schema, rel: Relation, indent: string): string {
  const fks = schema.foreignKeys.filter((f) => f.table === rel.name)
  if (fks.length === 0) return '[]'
  const list = (xs: string[]) => `[${xs.map((x) => `"${x}"`).join(', ')}]`
  return `[\n${fks
    .map(
      (f) =>
        `${indent}  {\n${indent}    foreignKeyName: "${f.name}"\n${indent}    columns: ${list(f.columns)}\n${indent}    ` +
        `isOneToOne: ${f.isOneToOne}\n${indent}    referencedRelation: "${f.referencedRelation}"\n${indent}    ` +
        `referencedColumns: ${list(f.referencedColumns)}\n${indent}  },`,
    )
    .join('\n')}\n${indent}]`
}

function relationBlock(schema: Schema, rel: Relation, view: boolean): string {
  const i = '          '
  const parts = [`Row: ${objectType(rowFields(schema, rel.columns, i, view), '        ')}`]
  if (!view || rel.updatable) {
    parts.push(`Insert: ${objectType(writeFields(schema, rel.columns, i, 'insert', view), '        ')}`)
    parts.push(`Update: ${objectType(writeFields(schema, rel.columns, i, 'update', view), '        ')}`)
  }
  parts.push(`Relationships: ${relationships(schema, rel, '        ')}`)
  return `      ${rel.name}: {\n${parts.map((p) => `        ${p}`).join('\n')}\n      }`
}

function functionSignature(schema: Schema, fn: SqlFunction): string {
  const i = '          '
  const named = fn.args.filter((a) => a.name !== '')
  const args =
    named.length === 0
      ? 'Record<PropertyKey, never>'
      : objectType(
          named.map((a) => [`${a.name}${a.hasDefault ? '?' : ''}`, tsType(schema, a.type, i)]),
          '        ',
        )
  let returns: string
  if (fn.outColumns.length > 0) {
    const row = objectType(
      fn.outColumns.map((c) => [c.name, tsType(schema, c.type, i + '  ')]),
      '          ',
    )
    returns = fn.returnsSet ? `${row}[]` : row
  } else {
    const one = tsType(schema, fn.returnType, '        ')
    returns = fn.returnsSet ? `${one}[]` : one
  }
  return `{\n        Args: ${args}\n        Returns: ${returns}\n      }`
}

export function renderDatabaseTypes(schema: Schema): string {
  const tables = schema.relations.filter((r) => r.kind === 'r' || r.kind === 'p')
  const views = schema.relations.filter((r) => r.kind === 'v' || r.kind === 'm')
  const byName = new Map<string, SqlFunction[]>()
  for (const fn of schema.functions) byName.set(fn.name, [...(byName.get(fn.name) ?? []), fn])
  const functions = [...byName.entries()].map(([name, overloads]) =>
    overloads.length === 1
      ? `      ${name}: ${functionSignature(schema, overloads[0]!)}`
      : `      ${name}:\n        | ${overloads.map((f) => functionSignature(schema, f)).join('\n        | ')}`,
  )
  const enums = [...schema.enums.entries()].map(([name, labels]) => `      ${name}: ${labels.map((l) => `"${l}"`).join(' | ')}`)
  const section = (items: string[]) => (items.length ? `{\n${items.join('\n')}\n    }` : NONE)
  return `// Generated from supabase/migrations by \`npm run db:types\` (scripts/db-types/generate.ts): the
// public schema of a freshly migrated database, in the shape \`supabase gen types typescript\`
// writes. Do not edit: tests/backend/database-types.test.ts fails when this file is stale.

export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  public: {
    Tables: ${section(tables.map((t) => relationBlock(schema, t, false)))}
    Views: ${section(views.map((v) => relationBlock(schema, v, true)))}
    Functions: ${section(functions)}
    Enums: ${section(enums)}
    CompositeTypes: ${NONE}
  }
}

type PublicSchema = Database["public"]

/** A table's or view's row: \`Tables<'songs'>\`. */
export type Tables<T extends keyof PublicSchema["Tables"] | keyof PublicSchema["Views"]> = T extends keyof PublicSchema["Tables"]
  ? PublicSchema["Tables"][T]["Row"]
  : T extends keyof PublicSchema["Views"]
    ? PublicSchema["Views"][T]["Row"]
    : never
export type TablesInsert<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Insert"]
export type TablesUpdate<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Update"]
/** An RPC's arguments and result: \`RpcArgs<'listen_start'>\`, \`RpcResult<'listen_start'>\`. */
export type RpcArgs<F extends keyof PublicSchema["Functions"]> = PublicSchema["Functions"][F]["Args"]
export type RpcResult<F extends keyof PublicSchema["Functions"]> = PublicSchema["Functions"][F]["Returns"]
`
}
