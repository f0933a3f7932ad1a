import type { Database } from '../core/db.ts'
import { loadPreRequest } from '../core/pre-request.ts'

export interface Column {
  name: string
  /** SQL type as format_type() spells it, used to cast text parameters. */
  type: string
}

export interface Table {
  name: string
  columns: Map<string, Column>
  primaryKey: string[]
}

export interface ForeignKey {
  child: string
  childColumns: string[]
  parent: string
  parentColumns: string[]
}

export interface RpcFunction {
  name: string
  argNames: string[]
  argTypes: string[]
  /** How many trailing arguments have defaults. */
  defaults: number
  returnsSet: boolean
  returnType: string
  /** The columns of a composite result (a table's row type, RETURNS TABLE or OUT parameters); undefined for a scalar. */
  resultColumns: Column[] | undefined
}

/** The public schema as PostgREST's schema cache sees it: what identifiers are valid. */
export interface Catalog {
  tables: Map<string, Table>
  foreignKeys: ForeignKey[]
  functions: Map<string, RpcFunction[]>
  /** The configured db-pre-request call (core/pre-request.ts), reloaded with the schema as PostgREST does. */
  preRequest: string | undefined
}

// Arrays come back as JSON text so PGlite and pg hand over the same shapes.
const TABLES_SQL = `
select c.relname as table_name,
       (select json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod)) order by a.attnum)::text
          from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns,
       coalesce((select json_agg(a.attname order by k.ord)::text
          from pg_constraint co
          cross join lateral unnest(co.conkey) with ordinality as k(att, ord)
          join pg_attribute a on a.attrelid = co.conrelid and a.attnum = k.att
         where co.conrelid = c.oid and co.contype = 'p'), '[]') as primary_key
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
 where n.nspname = 'public' and c.relkind in ('r', 'v', 'p', 'm')`

const FOREIGN_KEYS_SQL = `
select cl.relname as child, pl.relname as parent,
       json_agg(ca.attname order by k.ord)::text as child_columns,
       json_agg(pa.attname order by k.ord)::text as parent_columns
  from pg_constraint co
  join pg_class cl on cl.oid = co.conrelid join pg_namespace cn on cn.oid = cl.relnamespace
  join pg_class pl on pl.oid = co.confrelid join pg_namespace pn on pn.oid = pl.relnamespace
  cross join lateral unnest(co.conkey, co.confkey) with ordinality as k(child_att, parent_att, ord)
  join pg_attribute ca on ca.attrelid = co.conrelid and ca.attnum = k.child_att
  join pg_attribute pa on pa.attrelid = co.confrelid and pa.attnum = k.parent_att
 where co.contype = 'f' and cn.nspname = 'public' and pn.nspname = 'public'
 group by co.oid, cl.relname, pl.relname`

const FUNCTIONS_SQL =
  `
select p.proname as name,
       coalesce(array_to_json(p.proargnames[1:p.pronargs])::text, '[]') as arg_names,
       coalesce((select json_agg(format_type(t, null) order by o)::text from unnest(p.proargtypes) with ordinality as ` +
  `u(t, o)), '[]') as arg_types,
       p.pronargdefaults as defaults, p.proretset as returns_set, format_type(p.prorettype, null) as return_type,
       coalesce(
         (select json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod)) order by a.attnum)::text
            from pg_type t join pg_attribute a on a.attrelid = t.typrelid
           where t.oid = p.prorettype and t.typrelid <> 0 and a.attnum > 0 and not a.attisdropped),
         (select json_agg(json_build_object('name', x.n, 'type', format_type(x.ty, null)) order by x.o)::text
            from unnest(p.proallargtypes, p.proargmodes::text[], p.proargnames) with ordinality as x(ty, m, n, o)
           where p.prorettype = 'record'::regtype and x.m in ('o', 'b', 't'))) as result_columns
  from pg_proc p join pg_namespace n on n.oid = p.pronamespace
 where n.nspname = 'public' and p.prokind = 'f' and p.prorettype <> 'trigger'::regtype`

export async function loadCatalog(db: Database): Promise<Catalog> {
  const tables = new Map<string, Table>()
  for (const row of (await db.query<{ table_name: string; columns: string; primary_key: string }>(TABLES_SQL)).rows) {
    const columns = JSON.parse(row.columns ?? '[]') as Column[]
    tables.set(row.table_name, {
      name: row.table_name,
      columns: new Map(columns.map((c) => [c.name, c])),
      primaryKey: JSON.parse(row.primary_key) as string[],
    })
  }
  const foreignKeys = (
    await db.query<{ child: string; parent: string; child_columns: string; parent_columns: string }>(FOREIGN_KEYS_SQL)
  ).rows.map((r) => ({
    child: r.child,
    parent: r.parent,
    childColumns: JSON.parse(r.child_columns) as string[],
    parentColumns: JSON.parse(r.parent_columns) as string[],
  }))
  const functions = new Map<string, RpcFunction[]>()
  for (const r of (
    await db.query<{
      name: string
      arg_names: string
      arg_types: string
      defaults: number
      returns_set: boolean
      return_type: string
      result_columns: string | null
    }>(FUNCTIONS_SQL)
  ).rows) {
    const fn: RpcFunction = {
      name: r.name,
      argNames: JSON.parse(r.arg_names) as string[],
      argTypes: JSON.parse(r.arg_types) as string[],
      defaults: Number(r.defaults),
      returnsSet: Boolean(r.returns_set),
      returnType: r.return_type,
      resultColumns: r.result_columns ? (JSON.parse(r.result_columns) as Column[]) : undefined,
    }
    functions.set(r.name, [...(functions.get(r.name) ?? []), fn])
  }
  return { tables, foreignKeys, functions, preRequest: await loadPreRequest(db) }
}
