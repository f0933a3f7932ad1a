import { spawn, type ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { jwtSecretFileFor } from '../../../supabase/local/core/local-keys.ts'
import { storageDirFor } from '../../../supabase/local/core/options.ts'
import { E2E_SERVER_ENV } from './anon-key.ts'

/** A server process of our own (own port, own data folder), so the spec can stop and restart it. */
export class OwnServer {
  private child: ChildProcess | undefined
  readonly origin: string
  constructor(
    readonly port: number,
    readonly dataDir: string,
    private readonly env: Record<string, string> = {},
  ) {
    this.origin = `http://127.0.0.1:${port}`
  }

  async start(extraEnv: Record<string, string> = {}) {
    const child = spawn(join('node_modules', '.bin', 'tsx'), ['supabase/local/serve.ts'], {
      env: {
        ...process.env,
        ...E2E_SERVER_ENV,
        PORT: String(this.port),
        DIST_DIR: process.env.DIST_DIR ?? 'dist',
        LOCAL_DATA_DIR: this.dataDir,
        LOCAL_DATA_RESET: '',
        ...this.env,
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.child = child
    let log = ''
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        log += chunk.toString()
        if (log.includes('CUBE Music on')) resolve()
      }
      child.stdout!.on('data', onData)
      child.stderr!.on('data', (c: Buffer) => (log += c.toString()))
      child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${log}`)))
      // A fresh data folder migrates from nothing: 80 s measured on a loaded 2-core machine.
      setTimeout(() => reject(new Error(`server did not start within 180 s:\n${log}`)), 180_000)
    })
  }

  /** Stops the server and removes its data folder with what lives beside it (Storage files, the folder's JWT secret). */
  async dispose() {
    await this.stop()
    for (const path of [this.dataDir, storageDirFor(this.dataDir), jwtSecretFileFor(this.dataDir)])
      rmSync(path, { recursive: true, force: true })
  }

  async stop() {
    const child = this.child
    this.child = undefined
    if (!child || child.exitCode !== null) return
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
      setTimeout(() => child.kill('SIGKILL'), 10_000)
    })
  }
}
