// The EIP-4361 (Sign-In with Ethereum) message the wallet signs. Formatted here rather than with the
// siwe package, whose parser does not survive the browser bundle (the page hung in it); the server
// parses and verifies it with siwe (supabase/functions/wallet-verify), and a unit test checks that
// siwe accepts exactly this format.

export interface SiweFields {
  domain: string
  address: string
  statement: string
  uri: string
  chainId: number
  nonce: string
  issuedAt: string
  expirationTime: string
}

export const siweMessage = (f: SiweFields): string =>
  [
    `${f.domain} wants you to sign in with your Ethereum account:`,
    f.address,
    '',
    f.statement,
    '',
    `URI: ${f.uri}`,
    'Version: 1',
    `Chain ID: ${f.chainId}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${f.issuedAt}`,
    `Expiration Time: ${f.expirationTime}`,
  ].join('\n')
