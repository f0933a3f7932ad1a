import { spawnSync } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SEALED_KEY_PATTERN } from '../../supabase/functions/_shared/custodial-keys.ts'
import { custodialKeyFileFor, folderCustodialKeys, jwtSecretFileFor } from '../../supabase/local/core/local-keys.ts'
import { storageDirFor } from '../../supabase/local/core/options.ts'
import { startLocalServer } from '../../supabase/local/core/server.ts'
import { api, rpc, signUp, sql, startTestServer, type TestServer } from './support/local-backend.ts'

// Keys at rest, attacked as another local user of the host would: the server creates its data
// folder itself (inside a folder everyone may enter), then an unprivileged account (`nobody`) tries
// to read the folder and its WAL, and the raw files are searched for a custodial private key.

const mode = async (path: string) => (await stat(path)).mode & 0o777

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await filesUnder(path)))
    else if (entry.isFile()) out.push(path)
  }
  return out
}

/** Runs `command` as the unprivileged `nobody`; undefined when this host cannot (not root, no runuser). */
function asNobody(...command: string[]): { status: number | null; stderr: string } | undefined {
  if (process.getuid?.() !== 0) return undefined
  const probe = spawnSync('runuser', ['-u', 'nobody', '--', 'true'])
  if (probe.error || probe.status !== 0) return undefined
  const run = spawnSync('runuser', ['-u', 'nobody', '--', ...command], { encoding: 'utf8' })
  return { status: run.status, stderr: run.stderr }
}
const canRunAsNobody = asNobody('true') !== undefined

let parent: string
let dataDir: string
let server: TestServer | undefined

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), 'cube-keys-'))
  // A folder every user of the host may enter, as a checkout in a home directory usually is.
  await chmod(parent, 0o755)
  dataDir = join(parent, 'db')
  server = await startTestServer({ dataDir })
}, 120_000)
afterAll(async () => {
  await server?.close()
  await rm(parent, { recursive: true, force: true })
})

describe('the data folder is the server owner’s alone', () => {
  it('the server creates the data and storage folders 0700, their files and its secrets 0600', async () => {
    expect((await mode(dataDir)).toString(8)).toBe('700')
    expect((await mode(storageDirFor(dataDir))).toString(8)).toBe('700')
    expect((await mode(jwtSecretFileFor(dataDir))).toString(8)).toBe('600')
    expect((await mode(custodialKeyFileFor(dataDir))).toString(8)).toBe('600')
    const open = []
    for (const file of await filesUnder(dataDir)) if ((await mode(file)) & 0o077) open.push(file)
    expect(open).toEqual([])
  })

  it.skipIf(!canRunAsNobody)('another user of the host (nobody) cannot list the folder, read the WAL or the keys', async () => {
    // The attack works in principle: nobody enters the parent folder.
    expect(asNobody('ls', parent)!.status).toBe(0)
    const wal = (await readdir(join(dataDir, 'pg_wal'))).find((name) => /^[0-9A-F]{24}$/.test(name))
    expect(wal).toBeDefined()
    for (const attempt of [
      ['ls', dataDir],
      ['cat', join(dataDir, 'PG_VERSION')],
      ['cat', join(dataDir, 'pg_wal', wal!)],
      ['cat', custodialKeyFileFor(dataDir)],
      ['cat', jwtSecretFileFor(dataDir)],
      ['ls', storageDirFor(dataDir)],
      ['touch', join(dataDir, 'planted')],
    ]) {
      const run = asNobody(...attempt)!
      expect(run.status, attempt.join(' ')).not.toBe(0)
      expect(run.stderr, attempt.join(' ')).toMatch(/Permission denied/)
    }
  })

  it('refuses to start on a data folder that others may read, saying how to fix it', async () => {
    const open = join(parent, 'open-db')
    await mkdir(open, { mode: 0o755 })
    await chmod(open, 0o755)
    await expect(startLocalServer({ dataDir: open, port: 0 })).rejects.toThrow(new RegExp(`mode 0755.*chmod -R go-rwx ${open}`))
    await chmod(open, 0o750)
    await expect(startLocalServer({ dataDir: open, port: 0 })).rejects.toThrow(/open to other users/)
  })
})

describe('custodial private keys are sealed with a key that is not in the database', () => {
  it('Social login stores a sealed key that opens, for its account only, to the linked wallet; raw files never hold it', async () => {
    const s = server!
    const u = await signUp(s, 'keys-at-rest@example.com')
    await rpc(s, u.accessToken, 'init_user_tokens')
    const linked = await api(s, '/functions/v1/wallet-verify', { token: u.accessToken, body: { custodial: true } })
    expect(linked.status, linked.text).toBe(200)
    const address = linked.json.address as string

    const [row] = await sql<{ private_key: string }>(s, 'select private_key from public.custodial_wallets where user_id = $1', [u.id])
    expect(row!.private_key).toMatch(SEALED_KEY_PATTERN)
    // The signing path's view: the folder's key opens it, and the key signs for the linked address.
    const keys = await folderCustodialKeys(dataDir)
    const privateKey = await keys.open(u.id, row!.private_key)
    const signer = new Wallet(privateKey)
    expect(signer.address).toBe(address)
    const signature = await signer.signMessage('CUBE custodial wallet')
    expect(Wallet.createRandom().address).not.toBe(address)
    expect((await import('ethers')).verifyMessage('CUBE custodial wallet', signature)).toBe(address)
    // Copied onto another account's row, the sealed key does not open.
    await expect(keys.open(crypto.randomUUID(), row!.private_key)).rejects.toThrow(/does not open/)
    // Only a sealed key is ever stored, whoever calls.
    const plain = Wallet.createRandom()
    const other = await signUp(s, 'keys-at-rest-2@example.com')
    await rpc(s, other.accessToken, 'init_user_tokens')
    await expect(sql(s, 'select public.wallet_link_custodial($1, $2, $3)', [other.id, plain.address, plain.privateKey])).rejects.toThrow(
      /invalid_private_key/,
    )

    // A key stored plain before keys were sealed: sealed at the next start.
    const legacy = Wallet.createRandom()
    await sql(s, 'insert into public.custodial_wallets (user_id, address, private_key) values ($1, $2, $3)', [
      other.id,
      legacy.address,
      legacy.privateKey,
    ])
    await s.close()
    server = await startTestServer({ dataDir })
    const [sealed] = await sql<{ private_key: string }>(server, 'select private_key from public.custodial_wallets where user_id = $1', [
      other.id,
    ])
    expect(sealed!.private_key).toMatch(SEALED_KEY_PATTERN)
    expect(await keys.open(other.id, sealed!.private_key)).toBe(legacy.privateKey.toLowerCase())
    await server.close()
    server = undefined

    // What a reader of the raw files (the cluster, its WAL, Storage) finds: ciphertext only.
    const needles = [privateKey.slice(2), privateKey.slice(2).toUpperCase()]
    const found: string[] = []
    for (const file of [...(await filesUnder(dataDir)), ...(await filesUnder(storageDirFor(dataDir)))]) {
      const bytes = await readFile(file)
      for (const needle of needles) if (bytes.includes(needle)) found.push(file)
    }
    expect(found).toEqual([])
  }, 180_000)
})
