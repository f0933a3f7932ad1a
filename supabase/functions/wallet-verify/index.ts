// Edge function for hosted Supabase (Deno): wiring only; the logic is in handler.ts.
import { createClient } from 'npm:@supabase/supabase-js@2.109.0'
import { custodialKeys } from '../_shared/custodial-keys.ts'
import { configuredOrigin } from '../_shared/site.ts'
import { DEFAULT_WALLET_LINKS_PER_HOUR, walletVerify } from './handler.ts'
import { verifySiwe } from './siwe-verifier.ts'
import { randomEthereumKey } from './random-key.ts'

const url = Deno.env.get('SUPABASE_URL')!
const noSession = { persistSession: false, autoRefreshToken: false }
Deno.serve(
  walletVerify({
    clientFor: (token) =>
      createClient(url, Deno.env.get('SUPABASE_ANON_KEY')!, { global: { headers: { Authorization: `Bearer ${token}` } }, auth: noSession }),
    service: createClient(url, Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!, { auth: noSession }),
    verify: verifySiwe,
    newKey: randomEthereumKey,
    // The app's public address (a secret of the project: `supabase secrets set SITE_URL=https://…`).
    site: { appOrigins: () => [configuredOrigin('SITE_URL', Deno.env.get('SITE_URL'))] },
    // Wallet links per client address per hour (`supabase secrets set WALLET_LINK_RATE_LIMIT=…`).
    linksPerHour: Math.max(1, Math.floor(Number(Deno.env.get('WALLET_LINK_RATE_LIMIT')) || DEFAULT_WALLET_LINKS_PER_HOUR)),
    // The key that seals custodial private keys, kept out of the database:
    // `supabase secrets set CUSTODIAL_WALLET_KEY=$(openssl rand -base64 32)`. Without it Social login answers 503.
    keys: Deno.env.get('CUSTODIAL_WALLET_KEY') ? await custodialKeys(Deno.env.get('CUSTODIAL_WALLET_KEY')) : undefined,
  }),
)
