/**
 * Folds the migrations into supabase/schemas/: `npm run db:schema-fold`.
 *
 * Applies bootstrap.sql and every migration to a throwaway PostgreSQL 15 database and reads what
 * they made with pg_dump (tables, constraints, indexes, RLS, policies, triggers, grants, comments,
 * rows of configuration tables), minus what bootstrap.sql alone makes. Functions are taken as text:
 * from the newest migration after the baseline that defines one, else as the schema file has it,
 * else from the newest migration defining it (so their comments and layout survive). Each object
 * keeps the comment written above it (in the schema file, else in its migration) and its file (or
 * gets one by domains.ts). Then the schema files are applied to a second database and both catalogs
 * are compared; any difference fails the run.
 *
 *   npm run db:schema-fold              rewrite supabase/schemas/ from the migrations
 *   npm run db:schema-fold -- --squash  also replace every migration by one baseline (done once)
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { findPostgresBin } from '../../tests/backend/support/postgres-cluster.ts'
import { MIGRATIONS_DIR } from '../../supabase/local/core/migrate.ts'
import { catalogSnapshot, compareSnapshots, SEEDED_TABLES } from './catalog.ts'
import { DOMAINS, domainOf } from './domains.ts'
import { classify, type Kind, type ObjectRef } from './objects.ts'
import { compileSchema, readSchemaFiles, SCHEMAS_DIR, type SchemaStatement } from './schema-files.ts'
import { splitStatements, type Statement } from './sql-statements.ts'
import { applyBootstrap, applyMigrations, applySchemaFiles, throwaway } from './throwaway.ts'

export const BASELINE_VERSION = '20261127120000'
export const BASELINE_FILE = `${BASELINE_VERSION}_baseline.sql`
const SEED_SUFFIX = '_catalogue_seed.sql'

interface Located extends Statement, ObjectRef {
  file: string
}

/** Comments that say the rule, not where it came from: tracker numbers and migration names go. */
export function scrubComment(comment: string): string {
  return comment
    .split('\n')
    .map((line) =>
      line
        .replace(/\s*\((?:see\s+)?issues?\s+\d+[^)]*\)/gi, '')
        .replace(/\s*\(migration\s+\d{14}_[\w]+\.sql\)/gi, '')
        .replace(/\b[Ii]ssue\s+\d+(?:,?\s+item\s+\d+)?:?\s*/g, '')
        .replace(/\s+$/, ''),
    )
    .join('\n')
}

function migrationStatements(dir: string): Located[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
  return files.flatMap((file) => {
    const statements = splitStatements(readFileSync(join(dir, file), 'utf8'))
    return statements.map((s, i) => {
      const ref = classify(s.text)
      // "drop policy if exists x; create policy x": the comment above the drop is the create's.
      let comment = s.comment
      const previous = statements[i - 1]
      if (!comment && previous && /^drop\s/i.test(previous.text) && previous.comment) comment = previous.comment
      return { ...s, ...ref, comment, file }
    })
  })
}

function pgDump(url: string, args: string[]): string {
  const found = findPostgresBin()
  if (!found) throw new Error('pg_dump is needed: apt-get install -y postgresql (PostgreSQL 15)')
  return execFileSync(join(found.bin, 'pg_dump'), ['--no-owner', ...args, '-d', url], {
    maxBuffer: 256 * 1024 * 1024,
  }).toString()
}

/** pg_dump's statements that carry meaning (its SET lines and section headers dropped). */
const dumpStatements = (text: string) =>
  splitStatements(text.replace(/^\\.*$/gm, ''))
    .map((s) => ({ ...s, comment: '', ...classify(s.text) }))
    .filter((s) => s.kind !== 'setting' && !/^select\s+pg_catalog\.set_config/i.test(s.text))

/**
 * Policies of one name on many tables are one rule (e.g. "two-factor sessions only" on every
 * table): they are kept together, under the rule, rather than scattered over every domain.
 */
const RULE_TABLES = 5
const repeatedPolicies = new Set<string>()
const policyName = (s: ObjectRef) => s.key.split(' ').slice(2).join(' ')
function noteRepeatedPolicies(statements: ObjectRef[]) {
  const count = new Map<string, number>()
  for (const s of statements) if (s.kind === 'policy') count.set(policyName(s), (count.get(policyName(s)) ?? 0) + 1)
  for (const [name, n] of count) if (n >= RULE_TABLES) repeatedPolicies.add(name)
}

/** The object a statement is kept beside: its table, or the function it grants, or itself. */
function ownerKey(s: ObjectRef): string {
  if (s.kind === 'policy' && repeatedPolicies.has(policyName(s))) return `policy-rule ${policyName(s)}`
  if (s.table && s.kind !== 'data') return `table ${s.table}`
  if (s.kind === 'grant' || s.kind === 'comment') return s.key
  if (s.kind === 'data') return `rows ${s.table ?? ''}`
  return s.key
}

const ORDER_IN_GROUP: Kind[] = [
  'schema',
  'table',
  'sequence',
  'table-alter',
  'constraint',
  'foreign-key',
  'index',
  'rls',
  'policy',
  'trigger',
  'view',
  'function',
  'grant',
  'comment',
  'data',
  'block',
]

async function main() {
  const squash = process.argv.includes('--squash')
  const migrationsDir = MIGRATIONS_DIR
  const existing = readSchemaFiles(SCHEMAS_DIR)
  const sources = migrationStatements(migrationsDir)
  const migrationFiles = [...new Set(sources.map((s) => s.file))]
  const baselineIndex = migrationFiles.indexOf(BASELINE_FILE)
  const afterBaseline = new Set(baselineIndex === -1 ? [] : migrationFiles.slice(baselineIndex + 1))

  const home = new Map<string, string>()
  const existingByKey = new Map<string, SchemaStatement>()
  noteRepeatedPolicies(existing)
  for (const s of existing) {
    const defines = ['table', 'function', 'schema', 'view', 'data', 'block'].includes(s.kind) || ownerKey(s).startsWith('policy-rule ')
    if (defines && !home.has(ownerKey(s))) home.set(ownerKey(s), s.file.replace(/\.sql$/, ''))
    const k = `${s.kind}|${s.key}`
    if (!existingByKey.has(k)) existingByKey.set(k, s)
  }

  const db = await throwaway('postgres')
  if (db.kind !== 'postgres') throw new Error('db:schema-fold needs PostgreSQL 15 (apt-get install -y postgresql)')
  try {
    const base = await db.create('fold_base')
    await applyBootstrap(base)
    const migrated = await db.create('fold_migrated')
    console.log(`applying ${migrationFiles.length} migrations…`)
    await applyMigrations(migrated, migrationsDir)
    const baseUrl = db.urls.get(base)!
    const migratedUrl = db.urls.get(migrated)!

    const baseTexts = new Set(dumpStatements(pgDump(baseUrl, ['--schema-only'])).map((s) => s.text))
    const schema = dumpStatements(pgDump(migratedUrl, ['--schema-only', '--exclude-schema=local_meta'])).filter(
      (s) => !baseTexts.has(s.text),
    )
    const data = (await dataStatements(migrated)).map((text) => ({ text, comment: '', ...classify(text) }))
    const lastDefinition = new Map<string, Located>()
    const firstDefinition = new Map<string, Located>()
    for (const s of sources) {
      const k = `${s.kind}|${s.key}`
      if (!firstDefinition.has(k)) firstDefinition.set(k, s)
      lastDefinition.set(k, s)
    }

    const warnings: string[] = []
    const out: Located[] = []
    for (const s of [...schema, ...data]) {
      const k = `${s.kind}|${s.key}`
      let text = s.text
      let comment = ''
      if (s.kind === 'function') {
        const newer = lastDefinition.get(k)
        const kept = existingByKey.get(k)
        const chosen = newer && afterBaseline.has(newer.file) ? newer : (kept ?? newer)
        if (chosen) {
          text = compactHeader(chosen.text.replace(/^create\s+function/i, 'create or replace function'))
          comment = chosen.comment
        } else warnings.push(`${s.key}: no migration states it as text; written as pg_dump renders it`)
      } else if (['table', 'policy', 'trigger', 'index', 'view', 'constraint', 'foreign-key', 'schema'].includes(s.kind)) {
        const source = s.kind === 'table' ? firstDefinition.get(k) : lastDefinition.get(k)
        // A table's reason is often the header of the migration that created it.
        comment = existingByKey.get(k)?.comment || source?.comment || (s.kind === 'table' ? (source?.detachedComment ?? '') : '')
      }
      out.push({
        ...s,
        text: s.kind === 'function' ? wrapFunction(text, squash) : wrapLines(text),
        comment: scrubComment(comment),
        file: '',
      })
    }
    // Primary keys, unique and foreign keys inside their table's create statement, as one writes
    // them by hand (the schema files create tables in the order their references need).
    const inline = new Map<string, string[]>()
    for (const s of out) {
      if (s.kind !== 'constraint' && s.kind !== 'foreign-key') continue
      const m = /\sadd\s+(constraint\s[\s\S]*?);?$/i.exec(s.text)
      if (!m || !out.some((t) => t.kind === 'table' && t.table === s.table)) continue
      inline.set(s.table!, [...(inline.get(s.table!) ?? []), m[1]!.trim().replace(/\s+/g, ' ')])
      s.kind = 'other'
    }
    for (const s of out) {
      const extra = s.kind === 'table' ? inline.get(s.table!) : undefined
      if (extra) s.text = wrapLines(s.text.replace(/\n\);$/, `,\n${extra.map((c) => `    ${c}`).join(',\n')}\n);`))
    }
    out.splice(0, out.length, ...out.filter((s) => s.kind !== 'other' || !/^alter\s+table/i.test(s.text)))

    // Privileges, one revoke and the fewest grants per object, from the catalog: the schema files are
    // applied where default privileges already gave the API roles everything, so each object made
    // here starts from "nobody but its owner" and gets exactly what the migrations left it.
    const made = new Set(out.filter((s) => ['table', 'function', 'schema'].includes(s.kind)).map((s) => s.key))
    const privileges = await privilegeStatements(migrated)
    const sequencesOf = new Map(privileges.filter((p) => p.owner).map((p) => [p.key, p.owner!]))
    const isMade = (key: string) => made.has(key) || made.has(sequencesOf.get(key) ?? '')
    const kept = out.filter((s) => !(s.kind === 'grant' && isMade(s.key)))
    out.splice(0, out.length, ...kept)
    const privilegesOf = new Map(privileges.filter((x) => isMade(x.key)).map((p) => [p.key, p]))

    // The hosted project's realtime publication: set by DO blocks (the local backend has none).
    const blocks = new Map<string, Located>()
    for (const s of [...existing.map((e) => ({ ...e })), ...sources.filter((x) => baselineIndex === -1 || afterBaseline.has(x.file))]) {
      if (s.kind === 'block' && /publication\s+supabase_realtime/i.test(s.text))
        blocks.set(s.text, { ...s, comment: scrubComment(s.comment) })
    }
    // One block naming every table the hosted project's clients subscribe to.
    const published = new Set<string>()
    for (const b of blocks.values()) {
      for (const list of b.text.matchAll(/add\s+table\s+([^;]+);/gi)) for (const t of list[1]!.split(',')) published.add(t.trim())
    }
    if (published.size) {
      const text =
        `do $$\nbegin\n  if exists (select 1 from pg_publication where pubname = 'supabase_realtime') then\n` +
        `    alter publication supabase_realtime add table ${[...published].sort().join(', ')};\n  end if;\nend\n$$;`
      const comment =
        existing.find((e) => e.kind === 'block' && /supabase_realtime/.test(e.text))?.comment ||
        '-- The tables whose changes a hosted project streams to subscribed clients (the local backend\n' +
          '-- streams them with cube_realtime.notify_change triggers instead; it has no publication).'
      out.push({ ...classify(text), key: 'block realtime', text: wrapLines(text), comment, file: '' })
    }
    // Role settings (PostgREST's pgrst.db_pre_request on the authenticator role): no schema object
    // holds them and pg_dump does not show them, so the block that sets them is carried as written.
    const roleSettings = [...existing, ...sources.filter((x) => baselineIndex === -1 || afterBaseline.has(x.file))].filter(
      (x) => x.kind === 'block' && /alter\s+role\s+authenticator/i.test(x.text),
    )
    const lastRoleSettings = roleSettings.at(-1)
    if (lastRoleSettings)
      out.push({ ...lastRoleSettings, key: 'block role settings', comment: scrubComment(lastRoleSettings.comment), file: '' })
    noteRepeatedPolicies(out)

    // Each object's file: where it already is, else its domain.
    const files = new Map<string, Located[]>()
    for (const s of out) {
      const owner = s.kind === 'block' ? s.key : ownerKey(s)
      const name = owner.replace(/^[\w-]+\s+/, '').replace(/^rows\s+/, '')
      const domain =
        home.get(owner) ??
        (s.kind === 'block'
          ? s.key === 'block role settings'
            ? 'auth'
            : 'realtime'
          : owner.startsWith('policy-rule ')
            ? 'auth'
            : s.kind === 'schema' || owner.startsWith('schema ')
              ? domainOf(`${name}.`)
              : domainOf(name))
      if (domain === 'unsorted') warnings.push(`${s.key}: no domain matched; put in unsorted.sql (move it and rerun)`)
      const list = files.get(domain) ?? []
      list.push({ ...s, file: `${domain}.sql` })
      files.set(domain, list)
    }

    rmSync(SCHEMAS_DIR, { recursive: true, force: true })
    mkdirSync(SCHEMAS_DIR, { recursive: true })
    for (const [domain, list] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
      // Each file ends with who may do what with its objects (a sequence goes with its table).
      const keys = new Set(list.filter((x) => ['table', 'function', 'schema'].includes(x.kind)).map((x) => x.key))
      const own = [...privilegesOf.values()].filter((p) => keys.has(p.key) || keys.has(p.owner ?? ''))
      writeFileSync(join(SCHEMAS_DIR, `${domain}.sql`), renderFile(domain, list, accessSection(own)))
    }
    console.log(`wrote ${files.size} files in supabase/schemas/ (${out.length} statements)`)
    for (const w of warnings) console.warn(`note: ${w}`)

    // The schema files must build what the migrations built.
    const built = await db.create('fold_schema')
    await applySchemaFiles(built)
    const fold = { foldFunctionWhitespace: squash }
    const differences = compareSnapshots(await catalogSnapshot(migrated, fold), await catalogSnapshot(built, fold))
    if (differences.length) {
      console.error(`supabase/schemas/ does not build what the migrations build (${differences.length} differences):`)
      for (const d of differences) console.error(`- ${d}`)
      process.exitCode = 1
      return
    }
    console.log('checked: the schema files build exactly what the migrations build')

    if (squash) {
      const seeds = migrationFiles.filter((f) => f.endsWith(SEED_SUFFIX))
      const seed = seeds.at(-1)
      const baseline = renderBaseline(readSchemaFiles(SCHEMAS_DIR))
      const before = await catalogSnapshot(migrated, fold)
      const seedText = seed ? readFileSync(join(migrationsDir, seed), 'utf8') : undefined
      for (const f of migrationFiles) rmSync(join(migrationsDir, f))
      writeFileSync(join(migrationsDir, BASELINE_FILE), baseline)
      if (seedText) writeFileSync(join(migrationsDir, `${String(Number(BASELINE_VERSION) + 1)}${SEED_SUFFIX}`), seedText)
      const squashed = await db.create('fold_squashed')
      await applyMigrations(squashed, migrationsDir)
      const lost = compareSnapshots(before, await catalogSnapshot(squashed, fold), ['old migrations', 'baseline'])
      const songs = async (d: typeof migrated) =>
        JSON.stringify((await d.query('select * from public.songs order by id')).rows.map((r) => ({ ...r, created_at: undefined })))
      if ((await songs(migrated)) !== (await songs(squashed))) lost.push('rows public.songs differ after the seed')
      if (lost.length) {
        console.error(`the baseline does not build what the old migrations built:\n${lost.map((d) => `- ${d}`).join('\n')}`)
        process.exitCode = 1
        return
      }
      console.log(
        `squashed ${migrationFiles.length} migrations into ${BASELINE_FILE}` +
          `${seed ? ` and ${Number(BASELINE_VERSION) + 1}${SEED_SUFFIX}` : ''}`,
      )
    }
  } finally {
    await db.close()
  }
}

const MAX_LINE = 132

/**
 * Lines of what pg_dump wrote, broken at spaces outside quotes so none passes the repository's line
 * length; a string literal too long for one line is continued as adjacent literals on the next
 * (SQL joins 'a' and 'b' separated by a newline into 'ab').
 */
export function wrapLines(text: string, splitLiterals = true): string {
  return text
    .split('\n')
    .flatMap((line) => {
      const out: string[] = []
      let rest = line
      const indent = `${/^\s*/.exec(line)![0]}    `
      while ([...rest].length > MAX_LINE + 8) {
        let quote: string | null = null
        let lastSpace = -1
        let lastQuotedSpace = -1
        for (let i = 0; i < Math.min(rest.length, MAX_LINE); i++) {
          const ch = rest[i]!
          if (quote) {
            if (ch === quote) quote = null
            else if (ch === ' ' && quote === "'") lastQuotedSpace = i
          } else if (ch === "'" || ch === '"') quote = ch
          else if (ch === ' ' && i > indent.length) lastSpace = i
        }
        if (lastSpace > indent.length) {
          out.push(rest.slice(0, lastSpace))
          rest = indent + rest.slice(lastSpace + 1)
        } else if (splitLiterals && lastQuotedSpace > indent.length) {
          out.push(`${rest.slice(0, lastQuotedSpace + 1)}'`)
          rest = `${indent}'${rest.slice(lastQuotedSpace + 1)}`
        } else break
      }
      out.push(rest)
      return out
    })
    .join('\n')
}

/**
 * A function's header (what precedes its body) wrapped like any statement: PostgreSQL stores only
 * the body as written. With `body`, long lines of the body too, at spaces outside quotes, leaving
 * lines with comments alone: done once, when the migrations are squashed (the squash compares
 * function bodies with white space folded, the one thing this changes).
 */
function wrapFunction(text: string, body: boolean): string {
  const start = text.search(/\$[A-Za-z_]*\$/)
  if (start === -1) return text
  const rest = text.slice(start)
  const wrappedBody = body
    ? rest
        .split('\n')
        .map((line) => (line.includes('--') ? line : wrapLines(line, false)))
        .join('\n')
    : rest
  return wrapLines(text.slice(0, start).trimEnd()) + ' ' + wrappedBody
}

const ATTRIBUTE = /^\s*(language|security|stable|immutable|volatile|set\s|strict|parallel|cost|leakproof|called|external|as\b)/i

/**
 * A function's attributes (language, volatility, security, search_path) on one line before its
 * body: the body, and so what PostgreSQL stores and runs, is untouched.
 */
export function compactHeader(text: string): string {
  const body = text.search(/\$[A-Za-z_]*\$/)
  if (body === -1) return text
  const lines = text.slice(0, body).split('\n')
  const out: string[] = []
  for (const line of lines) {
    const previous = out.at(-1)
    if (previous !== undefined && ATTRIBUTE.test(line) && ATTRIBUTE.test(previous))
      out[out.length - 1] = `${previous.trimEnd()} ${line.trim()}`
    else out.push(ATTRIBUTE.test(line) ? line.trim() : line)
  }
  const header = out.join('\n')
  return `${/\s$/.test(header) ? header : `${header} `}${text.slice(body)}`
}

interface Privileges {
  /** "table public.x", "function public.f", "sequence public.x_id_seq", "schema x". */
  key: string
  /** For a sequence: the key of the table that owns it. */
  owner?: string
  table?: string
  /** TABLE, SEQUENCE, FUNCTION or SCHEMA, and the object as SQL names it (a function with its arguments). */
  what: string
  name: string
  /** "ALL" or a privilege list, with the roles that hold exactly it. */
  grants: { privileges: string; roles: string }[]
  /** Column privileges, each a whole GRANT statement. */
  columnGrants: string[]
}

/**
 * One REVOKE per kind of object and one GRANT per set of privileges and roles, each naming every
 * object it covers: a file's access reads as a short list of who may do what.
 */
function accessSection(list: Privileges[]): string[] {
  const out: string[] = []
  for (const what of ['SCHEMA', 'TABLE', 'SEQUENCE', 'FUNCTION']) {
    const objects = list.filter((p) => p.what === what).sort((a, b) => a.name.localeCompare(b.name))
    if (!objects.length) continue
    out.push(wrapLines(`REVOKE ALL ON ${what} ${objects.map((p) => p.name).join(', ')} FROM PUBLIC, anon, authenticated, service_role;`))
    const byGrant = new Map<string, string[]>()
    for (const p of objects)
      for (const g of p.grants) byGrant.set(`${g.privileges}|${g.roles}`, [...(byGrant.get(`${g.privileges}|${g.roles}`) ?? []), p.name])
    for (const [k, names] of [...byGrant].sort()) {
      const [privileges, roles] = k.split('|') as [string, string]
      out.push(wrapLines(`GRANT ${privileges} ON ${what} ${names.join(', ')} TO ${roles};`))
    }
    for (const p of objects) for (const c of p.columnGrants) out.push(wrapLines(c))
  }
  return out
}

const ALL: Record<string, string[]> = {
  table: ['DELETE', 'INSERT', 'REFERENCES', 'SELECT', 'TRIGGER', 'TRUNCATE', 'UPDATE'],
  sequence: ['SELECT', 'UPDATE', 'USAGE'],
  function: ['EXECUTE'],
  schema: ['CREATE', 'USAGE'],
}

async function privilegeStatements(db: Awaited<ReturnType<Awaited<ReturnType<typeof throwaway>>['create']>>): Promise<Privileges[]> {
  const { rows } = await db.query<{ kind: string; name: string; owner: string | null; col: string | null; grantee: string; priv: string }>(
    `select case c.relkind when 'S' then 'sequence' else 'table' end as kind, quote_ident(n.nspname) || '.' || quote_ident(c.relname)
      as name,
            (select 'table ' || quote_ident(tn.nspname) || '.' || quote_ident(t.relname) from pg_depend d join pg_class t on t.oid =
              d.refobjid
               join pg_namespace tn on tn.oid = t.relnamespace
              where c.relkind = 'S' and d.objid = c.oid and d.classid = 'pg_class'::regclass and d.deptype in ('a', 'i') limit 1) as owner,
            null as col, coalesce(r.rolname, 'public') as grantee, a.privilege_type as priv
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       cross join aclexplode(coalesce(c.relacl, acldefault(case c.relkind when 'S' then 's' else 'r' end::"char", c.relowner))) a
       left join pg_roles r on r.oid = a.grantee
      where c.relkind in ('r', 'p', 'v', 'm', 'S') and a.grantee <> c.relowner
     union all
     select 'table', quote_ident(n.nspname) || '.' || quote_ident(c.relname), null, quote_ident(at.attname), coalesce(r.rolname,
       'public'), a.privilege_type
       from pg_attribute at join pg_class c on c.oid = at.attrelid join pg_namespace n on n.oid = c.relnamespace
       cross join aclexplode(at.attacl) a left join pg_roles r on r.oid = a.grantee
      where at.attacl is not null and a.grantee <> c.relowner
     union all
     select 'function', quote_ident(n.nspname) || '.' || quote_ident(p.proname) || '(' || pg_get_function_identity_arguments(p.oid)
       || ')', null, null,
            coalesce(r.rolname, 'public'), a.privilege_type
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       cross join aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a left join pg_roles r on r.oid = a.grantee
      where a.grantee <> p.proowner
     union all
     select 'schema', quote_ident(n.nspname), null, null, coalesce(r.rolname, 'public'), a.privilege_type
       from pg_namespace n cross join aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a left join pg_roles r on r.oid =
         a.grantee
      where a.grantee <> n.nspowner`,
  )
  // Every object, also one whose only privileges are its owner's (it then gets the revoke alone).
  const objects = await db.query<{ kind: string; name: string }>(
    `select case c.relkind when 'S' then 'sequence' else 'table' end as kind, quote_ident(n.nspname) || '.' || quote_ident(c.relname)
      as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind in ('r', 'p', 'v', 'm', 'S')
     union all
     select 'function', quote_ident(n.nspname) || '.' || quote_ident(p.proname) || '(' || pg_get_function_identity_arguments(p.oid) || ')'
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     union all select 'schema', quote_ident(nspname) from pg_namespace`,
  )
  const byObject = new Map<string, typeof rows>()
  for (const o of objects.rows) byObject.set(`${o.kind} ${o.name}`, [])
  for (const r of rows) byObject.get(`${r.kind} ${r.name}`)?.push(r)
  const owners = new Map(rows.filter((r) => r.owner).map((r) => [`${r.kind} ${r.name}`, r.owner!]))
  const out: Privileges[] = []
  for (const [id, held] of byObject) {
    const [kind, name] = [id.slice(0, id.indexOf(' ')), id.slice(id.indexOf(' ') + 1)]
    const what = `${kind.toUpperCase()} ${name}`
    const grants: Privileges['grants'] = []
    const columnGrants: string[] = []
    const privilegeList = (privs: string[], columns = '') =>
      privs.length === ALL[kind]!.length && !columns ? 'ALL' : privs.map((p) => `${p}${columns}`).join(', ')
    // Whole-object privileges: roles with the same set share one grant.
    const perRole = new Map<string, string[]>()
    for (const g of held.filter((x) => !x.col)) perRole.set(g.grantee, [...(perRole.get(g.grantee) ?? []), g.priv].sort())
    const bySet = new Map<string, string[]>()
    for (const [role, privs] of perRole) bySet.set(privs.join(','), [...(bySet.get(privs.join(',')) ?? []), role])
    for (const [privs, roles] of [...bySet].sort())
      grants.push({ privileges: privilegeList(privs.split(',')), roles: roles.sort().join(', ') })
    // Column privileges: one grant per privilege and role set, naming its columns.
    const perPriv = new Map<string, Set<string>>()
    for (const g of held.filter((x) => x.col)) {
      const k = `${g.priv}|${g.grantee}`
      perPriv.set(k, (perPriv.get(k) ?? new Set()).add(g.col!))
    }
    const byColumns = new Map<string, string[]>()
    for (const [k, cols] of perPriv) {
      const [priv, role] = k.split('|') as [string, string]
      const ck = `${priv}|${[...cols].sort().join(', ')}`
      byColumns.set(ck, [...(byColumns.get(ck) ?? []), role])
    }
    for (const [ck, roles] of [...byColumns].sort()) {
      const [priv, cols] = ck.split('|') as [string, string]
      columnGrants.push(`GRANT ${privilegeList([priv], ` (${cols})`)} ON ${what} TO ${roles.sort().join(', ')};`)
    }
    const bare = name.replace(/\(.*$/, '').replace(/"/g, '')
    // A schema's name stands alone; other unqualified names are public's.
    const key = `${kind} ${bare.includes('.') || kind === 'schema' ? bare : `public.${bare}`}`
    out.push({
      key,
      owner: owners.get(id),
      table: kind === 'table' ? key.slice(6) : undefined,
      what: kind.toUpperCase(),
      name,
      grants,
      columnGrants,
    })
  }
  return out
}

/**
 * The rows the migrations left in configuration tables, as one insert per table. Columns a row
 * would get by default anyway are left out: timestamps the insert time stamps (they would make
 * every fold differ) and columns null in every row. Bucket rows skip buckets that already exist
 * (a hosted project may have made one by hand).
 */
async function dataStatements(db: Awaited<ReturnType<Awaited<ReturnType<typeof throwaway>>['create']>>): Promise<string[]> {
  const tables = (
    await db.query<{ t: string; identity: boolean }>(
      `select n.nspname || '.' || c.relname as t,
              exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attidentity = 'a') as identity
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind = 'r' and n.nspname in ('public', 'storage') and n.nspname || '.' || c.relname <> all($1) order by 1`,
      [SEEDED_TABLES],
    )
  ).rows
  const out: string[] = []
  for (const { t, identity } of tables) {
    const columns = (
      await db.query<{ name: string; skippable: boolean }>(
        `select quote_ident(a.attname) as name,
                (d.adbin is not null and a.atttypid = 'timestamptz'::regtype) as skippable
           from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
          where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped order by a.attnum`,
        [t],
      )
    ).rows
    const { rows } = await db.query<Record<string, string | null>>(
      `select ${columns.map((c) => `quote_nullable(${c.name}) as ${c.name}`).join(', ')} from ${t} order by 1`,
    )
    if (!rows.length) continue
    const unquoted = (c: string) => c.replace(/^"|"$/g, '')
    const kept = columns.filter((c) => !c.skippable && rows.some((r) => r[unquoted(c.name)] !== 'NULL')).map((c) => c.name)
    const values = rows.map((r) => `  (${kept.map((c) => r[unquoted(c)]).join(', ')})`)
    out.push(
      `insert into ${t} (${kept.join(', ')})${identity ? ' overriding system value' : ''} values\n${values.join(',\n')}` +
        `${t === 'storage.buckets' ? '\non conflict (id) do nothing' : ''};`,
    )
  }
  const sequences = (
    await db.query<{ s: string; v: string }>(
      `select schemaname || '.' || sequencename as s, last_value::text as v from pg_sequences
        where last_value is not null and schemaname in ('public', 'storage')`,
    )
  ).rows
  for (const q of sequences) out.push(`select pg_catalog.setval('${q.s}', ${q.v}, true);`)
  return out
}

function renderFile(domain: string, list: Located[], access: string[]): string {
  const groups = new Map<string, Located[]>()
  for (const s of list) {
    const owner = s.kind === 'block' ? s.key : s.kind === 'data' ? `rows ${s.table}` : ownerKey(s)
    const g = groups.get(owner) ?? []
    g.push(s)
    groups.set(owner, g)
  }
  const rank = (owner: string) =>
    owner.startsWith('schema ')
      ? 0
      : owner.startsWith('table ')
        ? 1
        : owner.startsWith('view ')
          ? 2
          : owner.startsWith('function ')
            ? 3
            : owner.startsWith('policy-rule ')
              ? 4
              : owner.startsWith('rows ')
                ? 5
                : 6
  const ordered = [...groups].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
  const parts = [
    `-- ${DOMAINS[domain] ?? 'Objects no domain rule placed yet: move each to its domain’s file.'}\n` +
      '--\n' +
      '-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).\n' +
      '-- Objects may refer to objects in other files: the files are applied in stages, not in order.',
  ]
  for (const [, group] of ordered) {
    group.sort((a, b) => ORDER_IN_GROUP.indexOf(a.kind) - ORDER_IN_GROUP.indexOf(b.kind))
    const chunks: string[] = []
    let run: string[] = []
    for (const s of group) {
      // Statements without a comment of their own (grants, constraints) sit together under the object.
      if (s.comment) {
        if (run.length) chunks.push(run.join('\n'))
        run = [`${s.comment}\n${s.text}`]
      } else run.push(s.text)
    }
    if (run.length) chunks.push(run.join('\n'))
    parts.push(chunks.join('\n\n'))
  }
  if (access.length) parts.push(`-- Who may do what: nothing but what is granted here.\n${access.join('\n')}`)
  return `${parts.join('\n\n')}\n`
}

function renderBaseline(statements: SchemaStatement[]): string {
  return (
    `-- Baseline: the database as every earlier migration left it, in one script (supabase/schemas/ compiled\n` +
    `-- stage by stage by \`npm run db:schema-fold\`). Its version is the last of those migrations', so a\n` +
    `-- deployment that applied them does not apply it again (docs/backend.md, "Upgrading a deployment").\n` +
    `-- Never edit it: change supabase/schemas/ and write the difference with \`npm run db:diff -- <name>\`.\n\n` +
    compileSchema(statements, { comments: true })
  )
}

await main()
