/**
 * Writes the migration that takes the migrated database to what supabase/schemas/ says:
 * `npm run db:diff -- <name>` (e.g. `npm run db:diff -- listen_cap`).
 *
 * Applies the migrations to one throwaway database and the schema files to another, compares their
 * catalogs (catalog.ts) and writes, for each difference it can write safely, the statement from the
 * schema files: functions (create or replace; dropped first when the signature or result changes),
 * policies, triggers and indexes (dropped and created), views, RLS flags, privileges (the object's
 * revoke and grants), new tables (with everything of theirs). A change to an existing table's
 * columns or constraints, to rows, types or comments is refused, listed, for a hand-written
 * migration (data may have to move with it). The new migration is then applied to the migrated
 * database and both compared again: the script fails unless nothing differs.
 */
import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Queryable } from '../../supabase/local/core/db.ts'
import { MIGRATIONS_DIR } from '../../supabase/local/core/migrate.ts'
import { catalogSnapshot, compareSnapshots, type Snapshot } from './catalog.ts'
import { readSchemaFiles, SCHEMAS_DIR, type SchemaStatement } from './schema-files.ts'
import { applyBootstrap, applyMigrations, applySchemaFiles, throwaway } from './throwaway.ts'

export interface Diff {
  /** The migration's statements, in an order that applies. */
  statements: string[]
  /** Differences this tool does not write, each named. */
  refused: string[]
}

const LETTERS: Record<string, string> = {
  r: 'SELECT',
  a: 'INSERT',
  w: 'UPDATE',
  d: 'DELETE',
  D: 'TRUNCATE',
  x: 'REFERENCES',
  t: 'TRIGGER',
  X: 'EXECUTE',
  U: 'USAGE',
  C: 'CREATE',
}

/**
 * The statements that give an object exactly the privileges an ACL (as catalog.ts writes it:
 * "anon=r/postgres,authenticated=X/postgres") says, besides its owner's: one grant per set of
 * privileges, naming every role that has it.
 */
export function aclStatements(what: string, name: string, acl: string, columns = ''): string[] {
  const rolesOf = new Map<string, string[]>()
  for (const item of acl.split(',').filter(Boolean)) {
    const m = /^(.*)=([a-zA-Z*]*)\/(.*)$/.exec(item)
    if (!m || m[1] === 'postgres') continue
    const privileges = [...m[2]!.replace(/\*/g, '')].map((l) => `${LETTERS[l]}${columns}`).join(', ')
    if (privileges) rolesOf.set(privileges, [...(rolesOf.get(privileges) ?? []), m[1] === '' ? 'public' : m[1]!])
  }
  const grants = [...rolesOf].map(([privileges, roles]) => `grant ${privileges} on ${what} ${name} to ${roles.join(', ')};`)
  return columns ? grants : [`revoke all on ${what} ${name} from public, anon, authenticated, service_role;`, ...grants]
}
const aclOf = (v: string | undefined) => (v === undefined ? undefined : (/acl=(\S*)/.exec(v)?.[1] ?? ''))

const qualify = (name: string) => (name.includes('.') ? name : `public.${name}`)
const quoteName = (name: string) => (/^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`)
const kindOf = (key: string) => key.slice(0, key.indexOf(' '))

/** What to write to turn the database `from` (migrated) into `to` (built from `statements`). */
export function diffSnapshots(from: Snapshot, to: Snapshot, statements: SchemaStatement[]): Diff {
  const out: string[] = []
  const refused: string[] = []
  const written = new Set<string>()
  const find = (kind: string, key: string) => statements.filter((s) => s.kind === kind && s.key === key)
  const once = (text: string) => {
    if (!written.has(text)) {
      written.add(text)
      out.push(text)
    }
  }
  const differing = [...new Set([...from.keys(), ...to.keys()])].filter((k) => from.get(k) !== to.get(k)).sort()
  const newTables = new Set(
    differing.filter((k) => k.startsWith('relation ') && !from.has(k) && /kind=r/.test(to.get(k)!)).map((k) => qualify(k.slice(9))),
  )
  const inNewTable = (key: string) => [...newTables].some((t) => key.includes(` ${t.replace(/^public\./, '')}`) || key.includes(` ${t}`))

  // New tables first, with everything that belongs to them.
  for (const table of newTables) {
    for (const kind of ['table', 'table-alter', 'index', 'rls', 'policy', 'trigger', 'comment'])
      for (const s of statements.filter((x) => x.kind === kind && (x.table === table || x.key === `table ${table}`))) once(s.text)
    const acl = /acl=(\S*)/.exec(to.get(`relation ${table.replace(/^public\./, '')}`) ?? '')?.[1] ?? ''
    aclStatements('table', table, acl).forEach(once)
  }

  for (const key of differing) {
    const kind = kindOf(key)
    const rest = key.slice(kind.length + 1)
    const before = from.get(key)
    const after = to.get(key)
    if (inNewTable(key) && ['relation', 'column', 'constraint', 'index', 'policy', 'trigger', 'comment'].includes(kind)) continue
    if (kind === 'function') {
      const name = qualify(rest.slice(0, rest.indexOf('(')))
      const defs = find('function', `function ${name}`)
      if (after === undefined) {
        // Only drop it if no other signature of it is defined: then the definition replaces it.
        once(`drop function if exists ${qualify(rest)};`)
        continue
      }
      if (defs.length !== 1) {
        refused.push(`${key}: defined ${defs.length} times in supabase/schemas/`)
        continue
      }
      const returns = (d: string | undefined) => /RETURNS ([\s\S]*?)\n/.exec(d ?? '')?.[1]
      const recreated = before !== undefined && returns(before) !== returns(after)
      if (recreated) once(`drop function ${qualify(rest)};`)
      once(defs[0]!.text)
      if (before === undefined || recreated || aclOf(before) !== aclOf(after))
        aclStatements('function', qualify(rest), aclOf(after)!).forEach(once)
    } else if (kind === 'policy' || kind === 'trigger') {
      // "policy public.songs a name" / "trigger songs a_name": table, then the name.
      const [table, ...nameParts] = rest.split(' ')
      const name = nameParts.join(' ')
      const t = qualify(table!)
      once(`drop ${kind} if exists ${quoteName(name)} on ${t};`)
      if (after !== undefined) {
        const defs = find(kind, `${kind} ${t} ${name}`)
        if (defs.length !== 1) refused.push(`${key}: defined ${defs.length} times in supabase/schemas/`)
        else once(defs[0]!.text)
      }
    } else if (kind === 'index') {
      const name = qualify(rest)
      once(`drop index if exists ${name};`)
      if (after !== undefined) {
        const defs = find('index', `index ${name}`)
        if (defs.length === 1) once(defs[0]!.text)
        else if (/_pkey$|_key$/.test(name))
          continue // a constraint's own index: the constraint says it
        else refused.push(`${key}: defined ${defs.length} times in supabase/schemas/`)
      }
    } else if (kind === 'view') {
      const name = qualify(rest)
      once(`drop view if exists ${name};`)
      if (after !== undefined) for (const s of find('view', `view ${name}`)) once(s.text)
    } else if (kind === 'relation' && before !== undefined && after !== undefined) {
      const field = (v: string, f: string) => new RegExp(`${f}=(\\S*)`).exec(v)?.[1]
      const table = qualify(rest)
      if (field(before, 'kind') !== field(after, 'kind') || field(before, 'options') !== field(after, 'options')) {
        refused.push(`${key} changes kind or storage options`)
        continue
      }
      if (field(before, 'rls') !== field(after, 'rls'))
        once(`alter table ${table} ${field(after, 'rls') === 'true' ? 'enable' : 'disable'} row level security;`)
      if (field(before, 'force') !== field(after, 'force'))
        once(`alter table ${table} ${field(after, 'force') === 'true' ? 'force' : 'no force'} row level security;`)
      if (field(before, 'acl') !== field(after, 'acl'))
        aclStatements(/kind=S/.test(after) ? 'sequence' : 'table', table, field(after, 'acl')!).forEach(once)
    } else if (
      kind === 'column' &&
      before !== undefined &&
      after !== undefined &&
      before.replace(/ acl=\S*/, '') === after.replace(/ acl=\S*/, '')
    ) {
      // Only the column's privileges.
      const table = qualify(rest.slice(0, rest.lastIndexOf('.')))
      const column = rest.slice(rest.lastIndexOf('.') + 1)
      once(`revoke all (${column}) on table ${table} from public, anon, authenticated, service_role;`)
      aclStatements('table', table, aclOf(after)!, ` (${column})`).forEach(once)
    } else {
      const what = before === undefined ? 'only in the schema files' : after === undefined ? 'only in the migrations' : 'differs'
      refused.push(`${key} (${what}): write this change by hand in a migration`)
    }
  }
  return { statements: out, refused }
}

/** A migration timestamp (UTC, YYYYMMDDHHMMSS) later than every existing migration's. */
export function nextVersion(existing: readonly string[], now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14)
  const last = existing
    .map((f) => /^(\d{14})_/.exec(f)?.[1])
    .filter(Boolean)
    .sort()
    .at(-1)
  return last === undefined || stamp > last ? stamp : String(Number(last) + 1)
}

export function renderMigration(name: string, diff: Diff): string {
  return (
    `-- ${name.replace(/_/g, ' ')}: written by \`npm run db:diff\` from the difference between the migrations and\n` +
    `-- supabase/schemas/ (where each object's comment says why it is so).\n\n` +
    `set check_function_bodies = off;\n\n${diff.statements.join('\n\n')}\n\nreset check_function_bodies;\n`
  )
}

/** The migrated database after `sql`, compared with `target`, without keeping the change. */
export async function differencesAfter(
  db: Queryable & { transaction: (fn: (tx: Queryable) => Promise<void>) => Promise<void> },
  sql: string,
  target: Snapshot,
) {
  let left: string[] = []
  await db
    .transaction(async (tx) => {
      await tx.query(sql)
      left = compareSnapshots(await catalogSnapshot(tx), target)
      throw new Error('roll back')
    })
    .catch((e: Error) => {
      if (e.message !== 'roll back') throw e
    })
  return left
}

async function main() {
  const name = process.argv[2]
  if (!name || !/^[a-z][a-z0-9_]{2,60}$/.test(name)) {
    console.error('usage: npm run db:diff -- <name>   (lower-case words joined by _, e.g. listen_cap)')
    process.exit(2)
  }
  const dbs = await throwaway()
  try {
    const migrated = await dbs.create('diff_migrations')
    const target = await dbs.create('diff_schemas')
    await applyBootstrap(target)
    await Promise.all([applyMigrations(migrated, MIGRATIONS_DIR), applySchemaFiles(target, SCHEMAS_DIR)])
    const [from, to] = await Promise.all([catalogSnapshot(migrated), catalogSnapshot(target)])
    const diff = diffSnapshots(from, to, readSchemaFiles(SCHEMAS_DIR))
    if (diff.refused.length) {
      console.error(`not written: these differences need a migration written by hand (then rerun for the rest):`)
      for (const r of diff.refused) console.error(`- ${r}`)
      process.exitCode = 1
      return
    }
    if (!diff.statements.length) {
      console.log('the migrations already build what supabase/schemas/ says: nothing to write')
      return
    }
    const sql = renderMigration(name, diff)
    const left = await differencesAfter(migrated, sql, to)
    if (left.length) {
      console.error(`the written statements leave differences (not saved):\n${left.map((d) => `- ${d}`).join('\n')}`)
      process.exitCode = 1
      return
    }
    const file = `${nextVersion(readdirSync(MIGRATIONS_DIR))}_${name}.sql`
    writeFileSync(join(MIGRATIONS_DIR, file), sql)
    console.log(
      `wrote supabase/migrations/${file} (${diff.statements.length} statements); the migrations now build what supabase/schemas/ says`,
    )
  } finally {
    await dbs.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
