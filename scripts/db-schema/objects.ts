/**
 * What a SQL statement defines, read from its first words: the kind of object, the object's key
 * (schema-qualified, the same key whichever file or migration states it), the table it belongs to,
 * and the stage at which it can be created. Schema files are applied stage by stage (tables before
 * the functions whose signatures name their row types, functions before the policies and triggers
 * that call them), so a developer keeps each object beside its domain's others in any file.
 */
export type Kind =
  | 'schema'
  | 'table'
  | 'table-alter'
  | 'sequence'
  | 'function'
  | 'constraint'
  | 'foreign-key'
  | 'index'
  | 'view'
  | 'trigger'
  | 'rls'
  | 'policy'
  | 'grant'
  | 'comment'
  | 'data'
  | 'block'
  | 'setting'
  | 'drop'
  | 'other'

export const STAGES: Kind[] = [
  'schema',
  'table',
  'sequence',
  'table-alter',
  'function',
  'constraint',
  'foreign-key',
  'index',
  'view',
  'trigger',
  'rls',
  'policy',
  'grant',
  'comment',
  'data',
  'block',
]

export interface ObjectRef {
  kind: Kind
  /** e.g. "function public.listen_start", "policy public.songs songs_read", "table public.songs". */
  key: string
  /** The table a constraint, index, policy, trigger, grant or comment on a table belongs to. */
  table?: string
}

const ident = String.raw`(?:"(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)`
const qname = String.raw`(${ident}(?:\.${ident})?)`

/** "public.x", lower-cased and unquoted where quotes are not needed; unqualified names are public's. */
export function normalName(name: string): string {
  const parts = name.match(new RegExp(ident, 'g'))!.map((p) => (p.startsWith('"') ? p.slice(1, -1).replace(/""/g, '"') : p.toLowerCase()))
  return (parts.length === 1 ? ['public', parts[0]!] : parts).join('.')
}
const unquote = (name: string) => (name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name.toLowerCase())

export function classify(text: string): ObjectRef {
  const t = text.replace(/^\s+/, '')
  let m: RegExpExecArray | null
  const r = (re: string) => new RegExp(re, 'i').exec(t)
  if ((m = r(String.raw`^create\s+schema\s+(?:if\s+not\s+exists\s+)?(${ident})`)))
    return { kind: 'schema', key: `schema ${unquote(m[1]!)}` }
  if ((m = r(String.raw`^create\s+(?:unlogged\s+)?table\s+(?:if\s+not\s+exists\s+)?${qname}`))) {
    const table = normalName(m[1]!)
    return { kind: 'table', key: `table ${table}`, table }
  }
  if ((m = r(String.raw`^create\s+sequence\s+(?:if\s+not\s+exists\s+)?${qname}`)))
    return { kind: 'sequence', key: `sequence ${normalName(m[1]!)}` }
  if ((m = r(String.raw`^alter\s+sequence\s+${qname}`))) return { kind: 'table-alter', key: `sequence ${normalName(m[1]!)}` }
  if ((m = r(String.raw`^create\s+(?:or\s+replace\s+)?(?:function|procedure)\s+${qname}\s*\(`)))
    return { kind: 'function', key: `function ${normalName(m[1]!)}` }
  if ((m = r(String.raw`^create\s+(?:or\s+replace\s+)?(?:materialized\s+)?view\s+${qname}`))) {
    const view = normalName(m[1]!)
    return { kind: 'view', key: `view ${view}`, table: view }
  }
  if (
    (m = r(String.raw`^create\s+(?:unique\s+)?index\s+(?:concurrently\s+)?(?:if\s+not\s+exists\s+)?(${ident})\s+on\s+(?:only\s+)?${qname}`))
  ) {
    const table = normalName(m[2]!)
    return { kind: 'index', key: `index ${table.split('.')[0]}.${unquote(m[1]!)}`, table }
  }
  if ((m = r(String.raw`^create\s+(?:or\s+replace\s+)?(?:constraint\s+)?trigger\s+(${ident})\s+[\s\S]*?\son\s+${qname}`))) {
    const table = normalName(m[2]!)
    return { kind: 'trigger', key: `trigger ${table} ${unquote(m[1]!)}`, table }
  }
  if ((m = r(String.raw`^create\s+policy\s+(${ident})\s+on\s+${qname}`))) {
    const table = normalName(m[2]!)
    return { kind: 'policy', key: `policy ${table} ${unquote(m[1]!)}`, table }
  }
  if (
    (m = r(
      String.raw`^alter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?${qname}\s+(enable|disable|force|no\s+force)\s+row\s+level\s+security`,
    ))
  ) {
    const table = normalName(m[1]!)
    return { kind: 'rls', key: `rls ${table} ${m[2]!.toLowerCase().replace(/\s+/g, ' ')}`, table }
  }
  if ((m = r(String.raw`^alter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?${qname}\s+add\s+constraint\s+(${ident})\s+(foreign\s+key)?`))) {
    const table = normalName(m[1]!)
    return { kind: m[3] ? 'foreign-key' : 'constraint', key: `constraint ${table} ${unquote(m[2]!)}`, table }
  }
  if ((m = r(String.raw`^alter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?${qname}`))) {
    const table = normalName(m[1]!)
    return { kind: 'table-alter', key: `table ${table}`, table }
  }
  if (
    (m = r(
      String.raw`^(?:grant|revoke)\s[\s\S]*?\son\s+` +
        String.raw`(?:(table|function|sequence|schema|all\s+tables\s+in\s+schema|all\s+functions\s+in\s+schema)\s+)?${qname}`,
    ))
  ) {
    const what = (m[1] ?? 'table').toLowerCase().replace(/\s+/g, ' ')
    const name = what === 'schema' || what.startsWith('all') ? unquote(m[2]!) : normalName(m[2]!)
    const kind = what === 'function' ? 'function' : what === 'sequence' ? 'sequence' : what === 'table' ? 'table' : what
    return { kind: 'grant', key: `${kind} ${name}`, table: kind === 'table' ? name : undefined }
  }
  if ((m = r(String.raw`^comment\s+on\s+column\s+(${ident}(?:\.${ident})?)\.(${ident})\s`))) {
    const table = normalName(m[1]!)
    return { kind: 'comment', key: `column ${table}.${unquote(m[2]!)}`, table }
  }
  if ((m = r(String.raw`^comment\s+on\s+(table|function|schema|view|policy|trigger)\s+${qname}`))) {
    const what = m[1]!.toLowerCase()
    const name = what === 'schema' ? unquote(m[2]!) : normalName(m[2]!)
    return { kind: 'comment', key: `${what} ${name}`, table: what === 'table' ? name : undefined }
  }
  if ((m = r(String.raw`^(?:insert\s+into|update|delete\s+from)\s+${qname}`)))
    return { kind: 'data', key: `rows ${normalName(m[1]!)}`, table: normalName(m[1]!) }
  if ((m = r(String.raw`^select\s+pg_catalog\.setval\('${qname}'`))) {
    const sequence = normalName(m[1]!)
    return { kind: 'data', key: `sequence value ${sequence}`, table: sequence.replace(/_(?:id_)?seq$/, '') }
  }
  if (r(String.raw`^do\s`)) return { kind: 'block', key: `block ${t.slice(0, 80)}` }
  if (r(String.raw`^(?:set|reset|select\s+pg_catalog\.set_config)\b`)) return { kind: 'setting', key: 'setting' }
  if ((m = r(String.raw`^drop\s+(\w+)\s+(?:if\s+exists\s+)?(${ident})(?:\s+on\s+${qname})?`)))
    return { kind: 'drop', key: `drop ${m[1]} ${m[2]}` }
  return { kind: 'other', key: `other ${t.slice(0, 80)}` }
}
