// Verifies a Sign-In with Ethereum (EIP-4361) message and its signature with the siwe library
// (parsing, domain, time window) and ethers (signature recovery). Shared by both runtimes.
import { getAddress } from 'ethers'
import { SiweMessage } from 'siwe'
import type { SiweVerifier } from './handler.ts'

export const verifySiwe: SiweVerifier = async ({ message, signature, origins }) => {
  let parsed: SiweMessage
  try {
    parsed = new SiweMessage(message)
  } catch {
    return { ok: false, error: 'The sign-in message is not a valid EIP-4361 message' }
  }
  const origin = origins.find((o) => new URL(o).host === parsed.domain && sameOrigin(parsed.uri, o))
  if (!origin) {
    return {
      ok: false,
      error:
        `This sign-in message was made for ${parsed.domain} (${parsed.uri}), not for this site ` +
        `(${origins[0] ?? 'unknown'}): sign in from this site only`,
    }
  }
  try {
    const result = await parsed.verify({ signature, domain: parsed.domain, nonce: parsed.nonce }, { suppressExceptions: true })
    if (!result.success) return { ok: false, error: `The signature does not prove this address (${result.error?.type ?? 'invalid'})` }
  } catch {
    return { ok: false, error: 'The signature does not prove this address' }
  }
  return { ok: true, address: getAddress(parsed.address), nonce: parsed.nonce, chainId: parsed.chainId }
}

const sameOrigin = (uri: string, origin: string): boolean => {
  try {
    return new URL(uri).origin === origin
  } catch {
    return false
  }
}
