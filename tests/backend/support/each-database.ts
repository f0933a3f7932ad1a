import { findPostgresBin, startPostgresCluster } from './postgres-cluster.ts'
import type { LocalServerOptions } from '../../../supabase/local/core/options.ts'
import { startTestServer, type TestServer } from './local-backend.ts'

/** PGlite always; PostgreSQL 15 too when Debian's binaries are installed (CI installs them). */
export const DATABASES: readonly ('PGlite' | 'PostgreSQL')[] = findPostgresBin() ? ['PGlite', 'PostgreSQL'] : ['PGlite']
if (DATABASES.length === 1) console.warn('PostgreSQL variants skipped: PostgreSQL is not installed (apt-get install -y postgresql)')

/** A test server on the named database (PostgreSQL: a throwaway cluster, truly concurrent transactions) and how to stop both. */
export async function serverOn(
  database: 'PGlite' | 'PostgreSQL',
  options: LocalServerOptions = {},
): Promise<{ server: TestServer; stop: () => Promise<void> }> {
  if (database === 'PGlite') {
    const server = await startTestServer(options)
    return { server, stop: () => server.close() }
  }
  const cluster = await startPostgresCluster()
  if (typeof cluster === 'string') throw new Error(cluster)
  const server = await startTestServer({ ...options, databaseUrl: cluster.url })
  return {
    server,
    stop: async () => {
      await server.close()
      cluster.stop()
    },
  }
}
