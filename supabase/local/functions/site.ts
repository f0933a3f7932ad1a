import type { IncomingMessage } from 'node:http'
import { configuredOrigin, type Site } from '../../functions/_shared/site.ts'

/**
 * The local backend's address as configuration gives it: SITE_URL when set (a proxy, a LAN name),
 * else this server's own loopback origin on the port it listens on, which it learns from its own
 * socket at the first request (the port is only known once it listens; the socket's local side is
 * the server's, not something a caller writes). Under the loopback default the app may be opened
 * as localhost, 127.0.0.1 or [::1]: those three origins on that port are the app's.
 */
export function localSite(env: NodeJS.ProcessEnv): Site & { observe(req: IncomingMessage): void } {
  const configured = env.SITE_URL ? configuredOrigin('SITE_URL', env.SITE_URL) : undefined
  const metadataBase = env.NFT_METADATA_BASE ? configuredOrigin('NFT_METADATA_BASE', env.NFT_METADATA_BASE) : undefined
  let port: number | undefined
  const own = () => {
    if (port === undefined) throw new Error('The local backend does not know its port yet')
    return port
  }
  return {
    observe(req) {
      port ??= req.socket.localPort
    },
    appOrigins: () => (configured ? [configured] : ['127.0.0.1', 'localhost', '[::1]'].map((host) => `http://${host}:${own()}`)),
    apiBase: () => metadataBase ?? configured ?? `http://127.0.0.1:${own()}`,
  }
}
