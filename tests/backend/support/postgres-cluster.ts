import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './free-port.ts'

export interface PostgresCluster {
  url: string
  version: string
  stop(): void
}

/** Debian's PostgreSQL binaries (apt-get install postgresql), preferring major version 15. */
export function findPostgresBin(): { bin: string; version: string } | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b))
  const version = versions.includes('15') ? '15' : versions.at(-1)
  return version ? { bin: join(root, version, 'bin'), version } : undefined
}

/**
 * A throwaway cluster in a temp folder on a random port (trust auth, 127.0.0.1 only). initdb
 * refuses to run as root, so as root it runs as the `postgres` system user. `settings` are passed to
 * the server as `-c name=value` (the listen-sql bench loads pg_stat_statements with them).
 */
export async function startPostgresCluster(settings: Record<string, string> = {}): Promise<PostgresCluster | string> {
  const found = findPostgresBin()
  if (!found) return 'PostgreSQL is not installed (apt-get install -y postgresql; .ci/run does this)'
  const asRoot = process.getuid?.() === 0
  let runAs: string[] = []
  if (asRoot) {
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' })
    } catch {
      return 'running as root without a postgres system user to run initdb as'
    }
    runAs = ['runuser', '-u', 'postgres', '--']
  }
  const dir = mkdtempSync(join(tmpdir(), 'cube-pg-'))
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim())
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim())
    chownSync(dir, uid, gid)
  }
  const data = join(dir, 'data')
  const run = (cmd: string, args: string[]) => {
    const [exe, ...rest] = runAs.length ? [...runAs, join(found.bin, cmd), ...args] : [join(found.bin, cmd), ...args]
    execFileSync(exe!, rest, { stdio: 'pipe' })
  }
  const port = await freePort()
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale'])
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-o',
    [`-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(
      ' ',
    ),
    'start',
  ])
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    version: found.version,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}
