import type { Queryable } from '../../supabase/local/core/db.ts'

// What the public schema of a migrated database holds, read from the catalogue in the terms the
// type renderer needs. Read on PGlite or PostgreSQL alike (plain pg_catalog queries).

export interface PgType {
  oid: number
  name: string
  /** pg_type.typtype: b base, e enum, c composite, d domain, p pseudo. */
  kind: string
  /** Element type of an array type (0 when not an array). */
  elem: number
  /** Base type of a domain (0 otherwise). */
  base: number
  /** For composite types, the relation whose row it is. */
  relid: number
}

export interface Column {
  name: string
  type: number
  notNull: boolean
  hasDefault: boolean
  /** Identity ALWAYS or generated columns cannot be written. */
  readOnly: boolean
}

export interface Relation {
  oid: number
  name: string
  /** r table, p partitioned table, v view, m materialized view. */
  kind: string
  columns: Column[]
  /** Whether a view can be inserted into / updated (simple views can). */
  updatable: boolean
}

export interface ForeignKey {
  name: string
  table: string
  columns: string[]
  referencedRelation: string
  referencedColumns: string[]
  isOneToOne: boolean
}

export interface FunctionArg {
  name: string
  type: number
  hasDefault: boolean
}

export interface SqlFunction {
  name: string
  args: FunctionArg[]
  returnType: number
  returnsSet: boolean
  /** Columns of `returns table (...)` (OUT / TABLE parameters). */
  outColumns: { name: string; type: number }[]
}

export interface Schema {
  types: Map<number, PgType>
  relations: Relation[]
  foreignKeys: ForeignKey[]
  functions: SqlFunction[]
  enums: Map<string, string[]>
}

const PUBLIC = `(select oid from pg_namespace where nspname = 'public')`

export async function introspect(db: Queryable): Promise<Schema> {
  const types = new Map<number, PgType>()
  const typeRows = await db.query<{ oid: number; name: string; kind: string; elem: number; base: number; relid: number }>(
    `select oid::int as oid, typname as name, typtype as kind, typelem::int as elem, typbasetype::int as base, ` +
      `typrelid::int as relid from pg_type`,
  )
  for (const t of typeRows.rows)
    types.set(Number(t.oid), { ...t, oid: Number(t.oid), elem: Number(t.elem), base: Number(t.base), relid: Number(t.relid) })

  const rels = await db.query<{ oid: number; name: string; kind: string }>(
    `select c.oid::int as oid, c.relname as name, c.relkind as kind from pg_class c
      where c.relnamespace = ${PUBLIC} and c.relkind in ('r', 'p', 'v', 'm') order by c.relname`,
  )
  const cols = await db.query<{ rel: number; name: string; type: number; not_null: boolean; has_default: boolean; read_only: boolean }>(
    `select a.attrelid::int as rel, a.attname as name, a.atttypid::int as type, a.attnotnull as not_null,
            (a.atthasdef or a.attidentity <> '') as has_default, (a.attidentity = 'a' or a.attgenerated <> '') as read_only
       from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relnamespace = ${PUBLIC} and a.attnum > 0 and not a.attisdropped order by a.attrelid, a.attnum`,
  )
  const updatable = await db.query<{ name: string; is_insertable_into: string }>(
    `select table_name as name, is_insertable_into from information_schema.tables where table_schema = 'public'`,
  )
  const insertable = new Set(updatable.rows.filter((r) => r.is_insertable_into === 'YES').map((r) => r.name))
  const relations: Relation[] = rels.rows.map((r) => ({
    oid: Number(r.oid),
    name: r.name,
    kind: r.kind,
    columns: cols.rows
      .filter((c) => Number(c.rel) === Number(r.oid))
      .map((c) => ({ name: c.name, type: Number(c.type), notNull: c.not_null, hasDefault: c.has_default, readOnly: c.read_only })),
    updatable: insertable.has(r.name),
  }))

  const fks = await db.query<{ name: string; table: string; columns: string[]; ref: string; ref_columns: string[]; one_to_one: boolean }>(
    `select con.conname as name, c.relname as table,
            array(select a.attname from unnest(con.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = ` +
      `con.conrelid and a.attnum = k.n order by k.i)::text[] as columns,
            rc.relname as ref,
            array(select a.attname from unnest(con.confkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = ` +
      `con.confrelid and a.attnum = k.n order by k.i)::text[] as ref_columns,
            exists (select 1 from pg_index ix where ix.indrelid = con.conrelid and ix.indisunique
                     and (select array_agg(x order by x) from unnest(ix.indkey::int2[]) x) = (select array_agg(x order by ` +
      `x) from unnest(con.conkey) x)) as one_to_one
       from pg_constraint con join pg_class c on c.oid = con.conrelid join pg_class rc on rc.oid = con.confrelid
      where con.contype = 'f' and c.relnamespace = ${PUBLIC} and rc.relnamespace = ${PUBLIC}
      order by c.relname, con.conname`,
  )
  const foreignKeys = fks.rows.map((f) => ({
    name: f.name,
    table: f.table,
    columns: f.columns,
    referencedRelation: f.ref,
    referencedColumns: f.ref_columns,
    isOneToOne: f.one_to_one,
  }))

  const fns = await db.query<{
    name: string
    arg_names: string[] | null
    arg_modes: string[] | null
    all_types: number[] | null
    in_types: string
    n_defaults: number
    ret: number
    ret_set: boolean
  }>(
    `select p.proname as name, p.proargnames::text[] as arg_names, p.proargmodes::text[] as arg_modes,
            p.proallargtypes::int[] as all_types, p.proargtypes::text as in_types, p.pronargdefaults::int as n_defaults,
            p.prorettype::int as ret, p.proretset as ret_set
       from pg_proc p
      where p.pronamespace = ${PUBLIC} and p.prokind = 'f'
        and p.prorettype not in ('trigger'::regtype, 'event_trigger'::regtype)
      order by p.proname, p.oid`,
  )
  const functions: SqlFunction[] = fns.rows.map((f) => {
    const inTypes = f.in_types.trim() === '' ? [] : f.in_types.trim().split(/\s+/).map(Number)
    const allTypes = f.all_types?.map(Number) ?? inTypes
    const modes = f.arg_modes ?? allTypes.map(() => 'i')
    const names = f.arg_names ?? []
    const args: FunctionArg[] = []
    const outColumns: { name: string; type: number }[] = []
    allTypes.forEach((type, i) => {
      const mode = modes[i]
      const name = names[i] ?? ''
      if (mode === 'i' || mode === 'b' || mode === 'v') args.push({ name, type, hasDefault: false })
      if (mode === 'o' || mode === 'b' || mode === 't') outColumns.push({ name, type })
    })
    for (let i = args.length - Number(f.n_defaults); i < args.length; i++) if (i >= 0) args[i]!.hasDefault = true
    return { name: f.name, args, returnType: Number(f.ret), returnsSet: f.ret_set, outColumns }
  })

  const enumRows = await db.query<{ name: string; label: string }>(
    `select t.typname as name, e.enumlabel as label from pg_enum e join pg_type t on t.oid = e.enumtypid
      where t.typnamespace = ${PUBLIC} order by t.typname, e.enumsortorder`,
  )
  const enums = new Map<string, string[]>()
  for (const e of enumRows.rows) enums.set(e.name, [...(enums.get(e.name) ?? []), e.label])

  return { types, relations, foreignKeys, functions, enums }
}
