// `npm run check:functions`: every edge function as hosted Supabase runs it, on Deno (the `deno`
// npm package's binary, no download at run time): `deno check` of each supabase/functions/*/index.ts
// with supabase/functions/deno.json (the import map config.toml gives each function), then a smoke
// run: each function started with `deno run` and the environment hosted Supabase sets (dummy
// values), answering a CORS preflight and a request without a user token with its own JSON error.
// Deno fetches npm: packages from the npm registry this machine's npm uses, into .deno-cache/.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { EDGE_FUNCTIONS_ON_DENO, HOSTED_ENV, type EdgeFunctionSpec } from './functions.ts'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const functionsDir = join(root, 'supabase', 'functions')
const deno = join(root, 'node_modules', '.bin', 'deno')
const config = join(functionsDir, 'deno.json')

/** One of npm's settings as npm itself resolves it here (its environment variable, or .npmrc and defaults). */
function npmSetting(name: string): string | undefined {
  const fromEnv = process.env[`NPM_CONFIG_${name.toUpperCase()}`] ?? process.env[`npm_config_${name}`]
  if (fromEnv) return fromEnv
  const value = execFileSync('npm', ['config', 'get', name], { encoding: 'utf8' }).trim()
  return value && value !== 'null' && value !== 'undefined' ? value : undefined
}

// The machine's npm settings reach Deno: the registry (NPM_CONFIG_REGISTRY) and the CA file npm
// trusts (DENO_CERT), for a registry behind a proxy with its own certificate authority.
const registry = npmSetting('registry')
const cafile = process.env.DENO_CERT ?? npmSetting('cafile')
const secrets = new Set([...HOSTED_ENV, ...Object.values(EDGE_FUNCTIONS_ON_DENO).flatMap((f) => f.secrets)])
const denoEnv: NodeJS.ProcessEnv = {
  // The rest of the environment (proxy, certificate and locale settings) as it is, minus any
  // function secret of this shell, so each function sees only the values given below.
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !secrets.has(key))),
  DENO_DIR: join(root, '.deno-cache'),
  // The repository's package.json is the Node app's: hosted functions resolve only deno.json's imports.
  DENO_NO_PACKAGE_JSON: '1',
  DENO_NO_UPDATE_CHECK: '1',
  NO_COLOR: '1',
  ...(registry ? { NPM_CONFIG_REGISTRY: registry } : {}),
  ...(cafile ? { DENO_CERT: cafile } : {}),
}

function run(args: string[]): void {
  execFileSync(deno, args, { cwd: root, env: denoEnv, stdio: 'inherit' })
}

/** A stand-in for a secret of the right shape: functions check the form of what they are given at start. */
function dummySecret(key: string): string {
  if (key.endsWith('_URL')) return 'https://cube.example'
  // An AES-256 key (`openssl rand -base64 32`).
  if (key === 'CUSTODIAL_WALLET_KEY') return randomBytes(32).toString('base64')
  return `dummy-${key.toLowerCase()}`
}

/** Starts one function as the edge runtime would and returns its address once it listens. */
function start(name: string, spec: EdgeFunctionSpec): Promise<{ child: ChildProcess; base: string; output: () => string }> {
  const env: NodeJS.ProcessEnv = { ...denoEnv, DENO_SERVE_ADDRESS: 'tcp:127.0.0.1:0' }
  // Port 9 (discard): nothing answers, so a call the function should not make fails loudly.
  for (const key of HOSTED_ENV) env[key] = key === 'SUPABASE_URL' ? 'http://127.0.0.1:9' : `dummy-${key.toLowerCase()}`
  for (const key of spec.secrets) env[key] = dummySecret(key)
  const entry = join(functionsDir, name, 'index.ts')
  const child = spawn(deno, ['run', '--frozen', '--cached-only', '--config', config, '--allow-net', '--allow-env', entry], {
    cwd: root,
    env,
  })
  let text = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill()
      reject(new Error(`${name} did not start within 60 s:\n${text}`))
    }, 60_000)
    const onData = (chunk: Buffer) => {
      text += chunk.toString()
      const listening = /Listening on (http:\/\/[^\s/]+)/.exec(text)
      if (listening) {
        clearTimeout(timer)
        resolve({ child, base: listening[1]!, output: () => text })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${name} exited (${code}) before listening:\n${text}`))
    })
  })
}

async function smoke(name: string, spec: EdgeFunctionSpec): Promise<string[]> {
  const problems: string[] = []
  const { child, base, output } = await start(name, spec)
  try {
    const url = `${base}/${name}`
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { Origin: 'https://cube.example', 'Access-Control-Request-Method': 'POST' },
    })
    await preflight.body?.cancel()
    if (preflight.status !== 204 || preflight.headers.get('access-control-allow-origin') !== '*')
      problems.push(
        `OPTIONS answered ${preflight.status} (allow-origin ${preflight.headers.get('access-control-allow-origin')}), not 204 *`,
      )
    const answer = await fetch(url, {
      method: spec.smoke.method,
      headers: { 'Content-Type': 'application/json' },
      ...(spec.smoke.method === 'POST' ? { body: '{}' } : {}),
    })
    const text = await answer.text()
    let body: Record<string, unknown> | undefined
    try {
      body = JSON.parse(text) as Record<string, unknown>
    } catch {
      body = undefined
    }
    const error = body?.error
    // A public answer: no error, and the field it is for.
    const smoke = spec.smoke
    const answered = smoke.error === null ? error === undefined && body?.[smoke.field] !== undefined : error === smoke.error
    const expected = smoke.error === null ? `with "${smoke.field}"` : `"${smoke.error}"`
    if (answer.status !== spec.smoke.status || !answered)
      problems.push(`${spec.smoke.method} without a token answered ${answer.status} ${text}, not ${spec.smoke.status} ${expected}`)
    const caching = answer.headers.get('cache-control')
    if (smoke.error === null && smoke.cacheControl !== undefined && caching !== smoke.cacheControl)
      problems.push(`answered with Cache-Control ${caching}, not ${smoke.cacheControl}`)
    if (/error: Uncaught|panicked/.test(output())) problems.push(`crashed:\n${output()}`)
  } finally {
    child.kill()
  }
  return problems
}

async function main(): Promise<void> {
  if (!existsSync(deno)) throw new Error(`No Deno binary at ${deno}: run npm ci (the deno devDependency ships it)`)
  const folders = readdirSync(functionsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
    .map((d) => d.name)
    .sort()
  const listed = Object.keys(EDGE_FUNCTIONS_ON_DENO).sort()
  if (folders.join() !== listed.join())
    throw new Error(`supabase/functions has ${folders.join(', ')} but scripts/edge-functions/functions.ts lists ${listed.join(', ')}`)

  const entries = folders.map((name) => join('supabase', 'functions', name, 'index.ts'))
  console.log(`deno check: ${folders.length} edge functions`)
  run(['check', '--frozen', '--quiet', '--config', config, ...entries])

  let failed = 0
  for (const name of folders) {
    const problems = await smoke(name, EDGE_FUNCTIONS_ON_DENO[name]!).catch((error: Error) => [error.message])
    if (problems.length) failed++
    console.log(
      problems.length
        ? `✗ ${name}\n  ${problems.join('\n  ')}`
        : `✓ ${name}: starts on Deno, preflight and unauthenticated answer as documented`,
    )
  }
  if (failed) {
    console.error(`${failed} edge function(s) failed on Deno`)
    process.exit(1)
  }
}

await main()
