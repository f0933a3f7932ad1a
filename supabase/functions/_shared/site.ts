// Where this deployment is served, from its configuration: never from a request's Origin, Host or
// X-Forwarded-* headers, which the caller writes. Hosted: the SITE_URL secret and the project's
// SUPABASE_URL (Deno.env); the local backend: SITE_URL or its own port (local/functions/site.ts).

export interface Site {
  /** The origins the app is served from: a Sign-In with Ethereum message must name one of them. */
  appOrigins(): readonly string[]
  /** The public base URL of this project's API (the tokenURI points at its nft-metadata function). */
  apiBase(): string
}

/** A configured URL's origin (scheme://host[:port]); anything else is a deployment error, said plainly. */
export function configuredOrigin(name: string, value: string | undefined): string {
  if (!value) throw new Error(`${name} is not set: the server needs it to know its own address`)
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error(`${name} must be an absolute http(s) URL, not ${JSON.stringify(value)}`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${name} must be an http(s) URL, not ${JSON.stringify(value)}`)
  return url.origin
}
