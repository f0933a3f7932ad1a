const SQL_NAME = /^[a-z_][a-z0-9_]*$/

/** `select to_json(public.fn(a => $1, …))::text as body` for a function name and named arguments. */
export function namedArgs(fn: string, args: Record<string, unknown>): { sql: string; params: unknown[] } {
  if (!SQL_NAME.test(fn)) throw new Error(`not a SQL function name: ${fn}`)
  const names = Object.keys(args)
  for (const name of names) if (!SQL_NAME.test(name)) throw new Error(`not an argument name: ${name}`)
  const params = names.map((n) => {
    const v = args[n]
    return v !== null && typeof v === 'object' ? JSON.stringify(v) : v
  })
  const list = names.map((n, i) => `"${n}" => $${i + 1}`).join(', ')
  return { sql: `select to_json("public"."${fn}"(${list}))::text as body`, params }
}
