import { chmod, mkdir, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'

// The data folder holds every account's rows, and its WAL every value ever written; the storage
// folder every uploaded file. Both are the server's owner's alone: created 0700, files 0600, and a
// server refuses to start on one that other users of the machine can read or enter.

const POSIX = process.platform !== 'win32'

/**
 * Makes `dir` (and its parents) if missing, owner-only; throws, saying how to fix it, when it
 * exists and its group or others may read, write or enter it.
 */
export async function ownerOnlyFolder(dir: string, what: string): Promise<void> {
  if (!POSIX) return void (await mkdir(dir, { recursive: true }))
  const existing = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw error
  })
  if (existing) {
    if (!existing.isDirectory()) throw new Error(`${what} ${dir} is not a folder`)
    const mode = existing.mode & 0o777
    if (mode & 0o077)
      throw new Error(
        `Refusing to start: the ${what} ${dir} is open to other users of this machine (mode ${mode.toString(8).padStart(4, '0')}), ` +
          `who could read every key and row in it or change them. Make it yours alone and start again: chmod -R go-rwx ${dir}`,
      )
    return
  }
  await mkdir(dir, { recursive: true, mode: 0o700 })
  // mkdir's mode passes through the umask; say it outright.
  await chmod(dir, 0o700)
}

/** Every file under `dir` 0600 and every folder 0700 (what PGlite and older servers created wider). */
export async function ownerOnlyFiles(dir: string): Promise<void> {
  if (!POSIX) return
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      await chmod(path, 0o700)
      await ownerOnlyFiles(path)
    } else if (entry.isFile()) await chmod(path, 0o600)
  }
}
