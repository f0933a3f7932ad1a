// Custodial private keys at rest: AES-256-GCM (WebCrypto, the same in Deno and Node), a random
// 96-bit IV per key, and the account id as associated data, so a sealed key copied onto another
// account's row does not open. The 32-byte key that seals them is never in the database: locally a
// 0600 file beside the data folder's JWT secret (supabase/local/core/local-keys.ts), on hosted
// Supabase the CUSTODIAL_WALLET_KEY function secret. Whoever reads the database, its WAL or a dump
// gets ciphertext only.

/** `aes256gcm.v1.<iv>.<ciphertext+tag>`, both base64url. */
export const SEALED_KEY_PATTERN = /^aes256gcm\.v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{40,}$/
const PREFIX = 'aes256gcm.v1.'

export interface CustodialKeys {
  /** Seals an account's private key (0x + 64 hex) for its custodial_wallets row. */
  seal(userId: string, privateKey: string): Promise<string>
  /** Opens a sealed key; only a path that signs with the account's key may call this. */
  open(userId: string, sealed: string): Promise<string>
}

const toBase64Url = (bytes: Uint8Array): string => {
  let text = ''
  for (const b of bytes) text += String.fromCharCode(b)
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}
const fromBase64Url = (text: string): Uint8Array => {
  const plain = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4))
  return Uint8Array.from(plain, (c) => c.charCodeAt(0))
}

/** The associated data: the row a sealed key belongs to. */
const boundTo = (userId: string) => new TextEncoder().encode(`custodial_wallets:${userId}`)

/** A fresh sealing key, base64url (what `openssl rand -base64 32` gives, in URL-safe letters). */
export const newCustodialSecret = (): string => toBase64Url(crypto.getRandomValues(new Uint8Array(32)))

/** The keyring for a 32-byte secret given as base64 or base64url; throws in words on anything else. */
export async function custodialKeys(secret: string | undefined): Promise<CustodialKeys> {
  let raw: Uint8Array
  try {
    raw = fromBase64Url((secret ?? '').trim().replace(/\+/g, '-').replace(/\//g, '_'))
  } catch {
    raw = new Uint8Array()
  }
  if (raw.length !== 32) throw new Error('The custodial wallet key must be 32 random bytes in base64 (openssl rand -base64 32)')
  const key = await crypto.subtle.importKey('raw', raw as BufferSource, 'AES-GCM', false, ['encrypt', 'decrypt'])
  return {
    async seal(userId, privateKey) {
      if (!/^0x[0-9a-fA-F]{64}$/.test(privateKey)) throw new Error('A private key is 0x and 64 hex digits')
      const iv = crypto.getRandomValues(new Uint8Array(12))
      const sealed = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: boundTo(userId) },
        key,
        new TextEncoder().encode(privateKey.toLowerCase()),
      )
      return `${PREFIX}${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`
    },
    async open(userId, sealed) {
      if (!SEALED_KEY_PATTERN.test(sealed)) throw new Error('This is not a sealed custodial key')
      const [iv, body] = sealed.slice(PREFIX.length).split('.') as [string, string]
      try {
        const plain = await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: fromBase64Url(iv) as BufferSource, additionalData: boundTo(userId) },
          key,
          fromBase64Url(body) as BufferSource,
        )
        return new TextDecoder().decode(plain)
      } catch {
        throw new Error('The custodial key does not open with this key for this account')
      }
    },
  }
}
