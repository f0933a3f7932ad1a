// Where the server may send a request on an administrator's say-so (AI provider base URLs): only
// https, only to hosts whose every address is public. Otherwise a base URL of 127.0.0.1, 10.x,
// 169.254.169.254 (cloud metadata) or a name resolving to them turns the server into a proxy into
// its own network (SSRF). Redirects are not followed, since they could lead there too. Fetch API
// only, no npm: runs on Deno and Node; the resolver is injected by each runtime.

export interface OutboundPolicy {
  /**
   * Hosts exempt from both rules (name or name:port, IPv6 in brackets): for local development
   * and tests against a provider on this machine. From AI_PROVIDER_ALLOWED_HOSTS, comma-separated.
   */
  allowedHosts: readonly string[]
  /** Every address the host name resolves to (A and AAAA). */
  resolve(host: string): Promise<string[]>
}

/** A refusal of ours, said as such (not "the provider could not be reached"). */
export class OutboundRefused extends Error {}

export const allowedHostsFrom = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean)

/** Refuses a URL the policy does not allow; resolves the host name to check every address. */
export async function checkOutboundUrl(target: string, policy: OutboundPolicy): Promise<void> {
  let url: URL
  try {
    url = new URL(target)
  } catch {
    throw new OutboundRefused(`Refused to call ${target}: not a URL.`)
  }
  if (policy.allowedHosts.includes(url.hostname) || policy.allowedHosts.includes(url.host)) return
  if (url.protocol !== 'https:') throw new OutboundRefused(`Refused to call ${url.origin}: provider calls go over https only.`)
  const literal = url.hostname.replace(/^\[|\]$/g, '')
  const addresses = isIpLiteral(literal) ? [literal] : await policy.resolve(literal).catch(() => [])
  if (addresses.length === 0) throw new OutboundRefused(`Refused to call ${url.origin}: the host name does not resolve.`)
  const internal = addresses.find((a) => !isPublicAddress(a))
  if (internal !== undefined)
    throw new OutboundRefused(`Refused to call ${url.origin}: ${internal} is a loopback, private, link-local or reserved address.`)
}

/** A fetch that went through guardedFetch: what the provider calls require, so none can bypass the policy. */
export type GuardedFetch = typeof fetch & { readonly outboundPolicy: OutboundPolicy }

/** `fetchImpl` behind the policy: each call's URL is checked first, and a redirect is an error. */
export function guardedFetch(fetchImpl: typeof fetch, policy: OutboundPolicy): GuardedFetch {
  const guarded: typeof fetch = async (input, init) => {
    const target = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    await checkOutboundUrl(target, policy)
    const response = await fetchImpl(input, { ...init, redirect: 'manual' })
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel()
      throw new OutboundRefused(
        `Refused to follow the provider's redirect (${response.status}) from ${new URL(target).origin}: give the final ` +
          `URL as the base URL.`,
      )
    }
    return response
  }
  return Object.assign(guarded, { outboundPolicy: policy })
}

const isIpLiteral = (host: string) => parseIpv4(host) !== undefined || parseIpv6(host) !== undefined

/** Whether an address may be called: not loopback, private, link-local, unspecified, multicast or reserved. */
export function isPublicAddress(address: string): boolean {
  const v4 = parseIpv4(address)
  if (v4 !== undefined) return isPublicIpv4(v4)
  const v6 = parseIpv6(address.replace(/%.*$/, ''))
  if (v6 === undefined) return false
  return isPublicIpv6(v6)
}

const IPV4_BLOCKED: readonly [number, number][] = [
  [0x00000000, 8], // 0.0.0.0/8 "this network"
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // 100.64/10 carrier-grade NAT
  [0x7f000000, 8], // 127/8 loopback
  [0xa9fe0000, 16], // 169.254/16 link-local (cloud metadata)
  [0xac100000, 12], // 172.16/12
  [0xc0000000, 24], // 192.0.0/24 protocol assignments
  [0xc0a80000, 16], // 192.168/16
  [0xc6120000, 15], // 198.18/15 benchmarking
  [0xe0000000, 4], // 224/4 multicast
  [0xf0000000, 4], // 240/4 reserved, broadcast
]

const inBlock = (value: number, [base, bits]: [number, number]) => bits === 0 || value >>> (32 - bits) === base >>> (32 - bits)
const isPublicIpv4 = (value: number) => !IPV4_BLOCKED.some((block) => inBlock(value, block))

function parseIpv4(text: string): number | undefined {
  const parts = text.split('.')
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined
  return parts.reduce((n, p) => n * 256 + Number(p), 0) >>> 0
}

/** Eight 16-bit groups, or undefined. Accepts `::` and a trailing dotted IPv4 part. */
function parseIpv6(text: string): number[] | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || !text.includes(':')) return undefined
  let groups = text
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted) {
    const v4 = parseIpv4(dotted[1]!)
    if (v4 === undefined) return undefined
    groups = `${text.slice(0, -dotted[1]!.length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`
  }
  const halves = groups.split('::')
  if (halves.length > 2) return undefined
  const side = (s: string) => (s === '' ? [] : s.split(':'))
  const head = side(halves[0]!)
  const tail = halves.length === 2 ? side(halves[1]!) : []
  const missing = 8 - head.length - tail.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail]
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return undefined
  return all.map((g) => parseInt(g, 16))
}

function isPublicIpv6(g: number[]): boolean {
  const v4At = (i: number) => ((g[i]! << 16) | g[i + 1]!) >>> 0
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
  if (zeros(0, 8)) return false // :: unspecified
  if (zeros(0, 7) && g[7] === 1) return false // ::1 loopback
  if (zeros(0, 5) && g[5] === 0xffff) return isPublicIpv4(v4At(6)) // ::ffff:a.b.c.d mapped
  if (zeros(0, 6)) return isPublicIpv4(v4At(6)) // ::a.b.c.d compatible (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return isPublicIpv4(v4At(6)) // 64:ff9b::/96 NAT64
  if (g[0] === 0x2002) return isPublicIpv4(v4At(1)) // 2002::/16 6to4
  if ((g[0]! & 0xfe00) === 0xfc00) return false // fc00::/7 unique local
  if ((g[0]! & 0xffc0) === 0xfe80) return false // fe80::/10 link-local
  if ((g[0]! & 0xffc0) === 0xfec0) return false // fec0::/10 site-local (deprecated)
  if ((g[0]! & 0xff00) === 0xff00) return false // ff00::/8 multicast
  if (g[0] === 0x2001 && g[1] === 0xdb8) return false // 2001:db8::/32 documentation
  return true
}
