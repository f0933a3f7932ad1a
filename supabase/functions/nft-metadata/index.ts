// Edge function for hosted Supabase (Deno): wiring only; the logic is in handler.ts.
import { createClient } from 'npm:@supabase/supabase-js@2.109.0'
import { nftMetadataFunction } from './handler.ts'

Deno.serve(
  nftMetadataFunction({
    service: createClient(Deno.env.get('SUPABASE_URL')!, Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!, { auth: { persistSession: false } }),
  }),
)
