/**
 * supabase/schemas/: the database as it is now, one file per domain. Read as statements, each with
 * the object it defines; compiled into one script that creates everything in dependency-safe stages
 * (objects.ts STAGES), whatever file each object sits in.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { classify, STAGES, type ObjectRef } from './objects.ts'
import { splitStatements, type Statement } from './sql-statements.ts'

export const ROOT = join(import.meta.dirname, '..', '..')
export const SCHEMAS_DIR = join(ROOT, 'supabase', 'schemas')

export interface SchemaStatement extends Statement, ObjectRef {
  /** The file it is in, e.g. "ledger.sql". */
  file: string
}

export function readSchemaFiles(dir = SCHEMAS_DIR): SchemaStatement[] {
  let files: string[]
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .sort()
  } catch {
    return []
  }
  return files.flatMap((file) => splitStatements(readFileSync(join(dir, file), 'utf8')).map((s) => ({ ...s, ...classify(s.text), file })))
}

/**
 * One script creating everything the schema files hold, stage by stage. Function bodies are not
 * checked while they are created (a SQL function may call one created after it); every body is
 * checked when it first runs, and the drift test compares the result with the migrated database.
 */
export function compileSchema(statements: SchemaStatement[], options: { comments?: boolean } = {}): string {
  const unknown = statements.filter((s) => !STAGES.includes(s.kind))
  if (unknown.length)
    throw new Error(
      `supabase/schemas/ holds statements that define nothing this tool knows (write them as create/alter/grant/comment/insert/do):\n` +
        unknown.map((s) => `  ${s.file}: ${s.text.slice(0, 100)}`).join('\n'),
    )
  // Functions come before tables (a column default may call one), except those whose signature
  // names a table's row type, which come right after the tables.
  const tables = statements.filter((s) => s.kind === 'table').map((s) => s.key.replace(/^table /, ''))
  const namesRowType = (s: SchemaStatement) => {
    const signature = s.text.slice(0, Math.max(0, s.text.search(/\$[A-Za-z_]*\$|\sbegin\s+atomic\s/i))).toLowerCase()
    return tables.some((t) => signature.includes(t) || signature.includes(`"${t.split('.')[1]}"`))
  }
  const stageOf = (s: SchemaStatement): string => (s.kind === 'function' ? (namesRowType(s) ? 'function' : 'early-function') : s.kind)
  const order = ['schema', 'early-function', ...STAGES.filter((k) => k !== 'schema')]
  const parts: string[] = ['set check_function_bodies = off;']
  for (const stage of order) {
    const inStage = statements.filter((x) => stageOf(x) === stage)
    for (const s of stage === 'table' ? referencedFirst(inStage) : inStage) {
      parts.push(options.comments && s.comment ? `${s.comment}\n${s.text}` : s.text)
    }
  }
  parts.push('reset check_function_bodies;')
  return `${parts.join('\n\n')}\n`
}

/** Tables ordered so that each comes after the tables its foreign keys reference. */
function referencedFirst(tables: SchemaStatement[]): SchemaStatement[] {
  const byName = new Map(tables.map((t) => [t.key.replace(/^table /, ''), t]))
  const done = new Set<string>()
  const visiting = new Set<string>()
  const out: SchemaStatement[] = []
  const visit = (name: string) => {
    if (done.has(name) || !byName.has(name)) return
    if (visiting.has(name))
      throw new Error(`tables reference each other in a cycle through ${name}: add one foreign key with alter table instead`)
    visiting.add(name)
    for (const m of byName.get(name)!.text.matchAll(/references\s+([\w."]+)/gi)) {
      const target = m[1]!.includes('.') ? m[1]! : `public.${m[1]}`
      if (target !== name) visit(target)
    }
    visiting.delete(name)
    done.add(name)
    out.push(byName.get(name)!)
  }
  for (const name of byName.keys()) visit(name)
  return out
}
