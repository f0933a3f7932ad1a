import { createServer } from 'node:net'

/** A TCP port on 127.0.0.1 that nothing listens on now (the OS picks it; free until someone binds it). */
export const freePort = (): Promise<number> =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
