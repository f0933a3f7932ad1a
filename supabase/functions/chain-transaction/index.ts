// Edge function for hosted Supabase (Deno): wiring only; the logic is in handler.ts. Reads a mint
// transaction back through the same RPC URLs the mint function uses (no key is needed to read,
// but a chain without a minter is not one this server minted on).
import { createClient } from 'npm:@supabase/supabase-js@2.109.0'
import { hostedMinters } from '../_shared/hosted-minters.deno.ts'
import { chainTransaction } from './handler.ts'

Deno.serve(
  chainTransaction({
    service: createClient(Deno.env.get('SUPABASE_URL')!, Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!, { auth: { persistSession: false } }),
    minterFor: hostedMinters(),
  }),
)
