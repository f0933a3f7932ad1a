/**
 * What a database's schema is, read from its catalog as one flat map "kind name" → definition, so two
 * databases (one migrated, one built from supabase/schemas/) compare object by object. It covers what
 * the migrations create beside what bootstrap.sql provides: tables and their columns (type, default,
 * nullability, identity, generation), constraints, indexes, RLS flags, policies, triggers, views,
 * functions (pg_get_functiondef: body, security definer, search_path, volatility), privileges of
 * schemas, tables, sequences and functions, comments, default privileges, publications, and the rows
 * of tables the schema files carry as data.
 */
import type { Queryable } from '../../supabase/local/core/db.ts'

/** Schemas whose objects are compared; local_meta is the local backend's own bookkeeping. */
export const SCHEMAS = ['public', 'auth', 'storage', 'cube_realtime', 'realtime', 'extensions']
/** Tables whose rows come from a seed migration, not from the schema files. */
export const SEEDED_TABLES = ['public.songs']

export type Snapshot = Map<string, string>

/** An ACL as text in a fixed order: the same grants made in another order are the same privileges. */
const sortedAcl = (acl: string) => `(select string_agg(x::text, ',' order by x::text) from unnest(${acl}) x)`

const schemaList = `array[${SCHEMAS.map((s) => `'${s}'`).join(',')}]`

/**
 * `foldFunctionWhitespace`: function definitions compared with runs of white space as one space
 * (only the squash uses it: it rewraps long lines of function bodies, and nothing else).
 */
export async function catalogSnapshot(
  db: Queryable,
  options: { data?: boolean; foldFunctionWhitespace?: boolean } = {},
): Promise<Snapshot> {
  const relationAcl = sortedAcl(`coalesce(c.relacl, acldefault(case c.relkind when 'S' then 's' else 'r' end::"char", c.relowner))`)
  const functionDef = options.foldFunctionWhitespace
    ? "regexp_replace(pg_get_functiondef(p.oid), '\\s+', ' ', 'g')"
    : 'pg_get_functiondef(p.oid)'
  const functionAcl = sortedAcl("coalesce(p.proacl, acldefault('f', p.proowner))")
  const out: Snapshot = new Map()
  const add = async (sql: string) => {
    for (const row of (await db.query<{ k: string; v: string | null }>(sql)).rows) out.set(row.k, row.v ?? '')
  }
  await add(
    `select 'schema ' || nspname as k, ${sortedAcl("coalesce(nspacl, acldefault('n', nspowner))")} as v from pg_namespace where
      nspname = any(${schemaList})`,
  )
  await add(
    `select 'relation ' || c.oid::regclass::text as k,
            concat_ws(' ', 'kind=' || c.relkind::text, 'rls=' || c.relrowsecurity, 'force=' || c.relforcerowsecurity,
                      'acl=' ||
                        ${relationAcl}, 'options=' || coalesce(c.reloptions::text, '')) as v
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = any(${schemaList}) and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`,
  )
  await add(
    `select 'column ' || a.attrelid::regclass::text || '.' || a.attname as k,
            concat_ws(' ', format_type(a.atttypid, a.atttypmod), case when a.attnotnull then 'not null' end,
                      'default ' || pg_get_expr(d.adbin, d.adrelid), nullif('identity ' || a.attidentity::text, 'identity '),
                      nullif('generated ' || a.attgenerated::text, 'generated '), 'acl=' || ${sortedAcl('a.attacl')}, 'position ' ||
                        row_number() over (partition by a.attrelid order by a.attnum)) as v
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
       left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where n.nspname = any(${schemaList}) and c.relkind in ('r', 'p', 'v', 'm', 'f') and a.attnum > 0 and not a.attisdropped`,
  )
  await add(
    // A CHECK re-read from pg_dump's text nests its ANDs differently: compared without parentheses.
    `select 'constraint ' || conrelid::regclass::text || ' ' || conname as k,
            case when contype = 'c' then translate(pg_get_constraintdef(oid), '()', '') else pg_get_constraintdef(oid) end as v
       from pg_constraint where connamespace = any(select oid from pg_namespace where nspname = any(${schemaList})) and conrelid <> 0`,
  )
  await add(
    `select 'index ' || i.indexrelid::regclass::text as k, pg_get_indexdef(i.indexrelid) as v
       from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = any(${schemaList})`,
  )
  await add(
    `select 'policy ' || schemaname || '.' || tablename || ' ' || policyname as k,
            concat_ws(' | ', permissive, cmd, roles::text, 'using ' || qual, 'check ' || with_check) as v
       from pg_policies where schemaname = any(${schemaList})`,
  )
  await add(
    `select 'trigger ' || t.tgrelid::regclass::text || ' ' || t.tgname as k, pg_get_triggerdef(t.oid) || ' enabled=' ||
      t.tgenabled::text as v
       from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where not t.tgisinternal and n.nspname = any(${schemaList})`,
  )
  await add(
    `select 'view ' || c.oid::regclass::text as k, pg_get_viewdef(c.oid) as v
       from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind in ('v', 'm') and n.nspname = any(${schemaList})`,
  )
  await add(
    `select 'function ' || p.oid::regprocedure::text as k,
            ${functionDef} || E'\\n-- acl=' || ${functionAcl} as v
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = any(${schemaList}) and p.prokind in ('f', 'p')`,
  )
  await add(
    `select 'comment ' || d.classoid::regclass::text || ' ' ||
            coalesce(pg_describe_object(d.classoid, d.objoid, d.objsubid), d.objoid::text) as k, d.description as v
       from pg_description d
      where (d.classoid = 'pg_class'::regclass and d.objoid in (select c.oid from pg_class c join pg_namespace n on n.oid =
        c.relnamespace where n.nspname = any(${schemaList})))
         or (d.classoid = 'pg_proc'::regclass and d.objoid in (select p.oid from pg_proc p join pg_namespace n on n.oid =
           p.pronamespace where n.nspname = any(${schemaList})))
         or (d.classoid = 'pg_namespace'::regclass and d.objoid in (select oid from pg_namespace where nspname = any(${schemaList})))`,
  )
  await add(
    `select 'default privileges ' || pg_get_userbyid(defaclrole) || ' ' || coalesce(defaclnamespace::regnamespace::text, '*') || ' '
      || defaclobjtype::text as k,
            defaclacl::text as v from pg_default_acl`,
  )
  await add(`select 'publication ' || pubname || ' ' || schemaname || '.' || tablename as k, '' as v from pg_publication_tables`)
  await add(
    `select 'type ' || t.oid::regtype::text as k, t.typtype::text as v from pg_type t join pg_namespace n on n.oid = t.typnamespace
      where n.nspname = any(${schemaList}) and t.typtype in ('e', 'd', 'c') and not exists (select 1 from pg_class c where c.reltype
        = t.oid)`,
  )
  if (options.data !== false) {
    const tables = (
      await db.query<{ t: string }>(
        `select c.oid::regclass::text as t from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where c.relkind = 'r' and n.nspname in ('public', 'storage') and not (n.nspname || '.' || c.relname = any($1)) order by 1`,
        [SEEDED_TABLES],
      )
    ).rows.map((r) => r.t)
    for (const table of tables) {
      // Timestamps the insert time stamps are left out: they say when, not what.
      const stamped = (
        await db.query<{ a: string }>(
          `select a.attname as a from pg_attribute a join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
            where a.attrelid = $1::regclass and a.atttypid = 'timestamptz'::regtype`,
          [table],
        )
      ).rows.map((r) => `'${r.a}'`)
      const row = stamped.length ? `(to_jsonb(r) - array[${stamped.join(', ')}]::text[])::text` : 'to_jsonb(r)::text'
      const { rows } = await db.query<{ n: string; h: string | null }>(
        `select count(*)::text as n, md5(string_agg(${row}, E'\\n' order by ${row})) as h from ${table} r`,
      )
      if (rows[0]!.n !== '0') out.set(`rows ${table}`, `${rows[0]!.n} rows, md5 ${rows[0]!.h}`)
    }
  }
  // Role settings in this database: PostgREST's pgrst.db_pre_request (the two-factor gate of every
  // API request) lives there, not in any schema object, so pg_dump never shows it.
  await add(
    `select 'role setting ' || r.rolname as k, array_to_string(array(select unnest(s.setconfig) order by 1), ', ') as v
       from pg_db_role_setting s join pg_roles r on r.oid = s.setrole
      where s.setdatabase = (select oid from pg_database where datname = current_database())`,
  )
  return out
}

/** Each difference between two snapshots, named: "only in <a>", "only in <b>", or both definitions. */
export function compareSnapshots(a: Snapshot, b: Snapshot, names: [string, string] = ['migrations', 'schema files']): string[] {
  const differences: string[] = []
  for (const key of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const left = a.get(key)
    const right = b.get(key)
    if (left === right) continue
    if (left === undefined) differences.push(`${key}: only in the ${names[1]}`)
    else if (right === undefined) differences.push(`${key}: only in the ${names[0]}`)
    else {
      const [l, r] = aroundFirstDifference(left, right)
      differences.push(`${key} differs:\n  ${names[0]}: ${l}\n  ${names[1]}: ${r}`)
    }
  }
  return differences
}

/** Both texts, whitespace folded, cut to where they first differ (long function bodies stay readable). */
function aroundFirstDifference(a: string, b: string): [string, string] {
  const x = a.replace(/\s+/g, ' ').trim()
  const y = b.replace(/\s+/g, ' ').trim()
  let i = 0
  while (i < x.length && x[i] === y[i]) i++
  const from = Math.max(0, i - 120)
  const cut = (s: string) => `${from > 0 ? '…' : ''}${s.slice(from, i + 200)}${s.length > i + 200 ? '…' : ''}`
  return [cut(x), cut(y)]
}
