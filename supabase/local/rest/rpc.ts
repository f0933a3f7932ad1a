import { runAsApiCaller } from '../core/pre-request.ts'
import { restError, sendJson } from '../core/errors.ts'
import { readJson } from '../core/http-body.ts'
import type { RpcFunction } from './catalog.ts'
import type { RpcHandler } from './context.ts'
import { jsonToText, Params, quoteIdent } from './sql.ts'

/** POST (arguments in the body) or GET (in the query) /rest/v1/rpc/<name>: calls a public SQL function. */
export const rpc: RpcHandler = async ({ db, catalog }, { req, res, url }, name, caller) => {
  let args: Record<string, unknown>
  if (req.method === 'POST') {
    const body = await readJson(req, 'rest')
    if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body)))
      throw restError(400, 'PGRST102', 'Empty or invalid json', 'rpc arguments must be a JSON object')
    args = (body ?? {}) as Record<string, unknown>
  } else args = Object.fromEntries(url.searchParams)
  const keys = Object.keys(args)
  const fn = (catalog().functions.get(name) ?? []).find((f: RpcFunction) => {
    const required = f.argNames.slice(0, f.argNames.length - f.defaults)
    return keys.every((k) => f.argNames.includes(k)) && required.every((k) => k in args)
  })
  if (!fn) {
    throw restError(
      404,
      'PGRST202',
      `Could not find the function public.${name}(${keys.sort().join(', ')}) in the schema cache`,
      `Searched for the function public.${name} with parameters ${keys.join(', ') || 'none'}`,
    )
  }
  const params = new Params()
  const call = `"public".${quoteIdent(fn.name)}(${keys
    .map((k) => `${quoteIdent(k)} => ` + `${params.typed(jsonToText(args[k]), fn.argTypes[fn.argNames.indexOf(k)]!)}`)
    .join(', ')})`
  const sql = fn.returnsSet
    ? `select coalesce(json_agg(_r), '[]')::text as body from ${call} _r`
    : fn.returnType === 'void'
      ? `select ${call}, null::text as body`
      : `select to_json(${call})::text as body`
  const { rows } = await runAsApiCaller(db, caller, catalog().preRequest, (tx) => tx.query<{ body: string | null }>(sql, params.values))
  if (fn.returnType === 'void') {
    res.writeHead(204).end()
    return
  }
  sendJson(res, 200, rows[0]?.body ?? 'null')
}
