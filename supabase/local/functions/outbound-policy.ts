import { lookup } from 'node:dns/promises'
import { allowedHostsFrom, type OutboundPolicy } from '../../functions/_shared/outbound-guard.ts'

/**
 * The local backend's outbound policy: names resolved as Node resolves them for fetch (every
 * address), and AI_PROVIDER_ALLOWED_HOSTS for a provider on this machine (tests' stand-in, a
 * local model server), e.g. `AI_PROVIDER_ALLOWED_HOSTS=127.0.0.1,localhost:11434`.
 */
export function localOutboundPolicy(env: NodeJS.ProcessEnv): OutboundPolicy {
  return {
    allowedHosts: allowedHostsFrom(env.AI_PROVIDER_ALLOWED_HOSTS),
    resolve: async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address),
  }
}
