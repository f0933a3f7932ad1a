import type { CustodialKeys } from '../../functions/_shared/custodial-keys.ts'
import type { Database } from './db.ts'

/**
 * Seals every custodial private key still stored as plain hex (rows written before keys were
 * sealed), each with its own IV and bound to its account. Runs at every start; a sealed row is
 * left alone. Returns how many it sealed.
 */
export async function sealPlainCustodialKeys(db: Database, keys: CustodialKeys): Promise<number> {
  const { rows } = await db.query<{ user_id: string; private_key: string }>(
    "select user_id::text, private_key from public.custodial_wallets where private_key ~ '^0x[0-9a-fA-F]{64}$'",
  )
  for (const row of rows) {
    await db.query('update public.custodial_wallets set private_key = $2 where user_id = $1::uuid and private_key = $3', [
      row.user_id,
      await keys.seal(row.user_id, row.private_key),
      row.private_key,
    ])
  }
  return rows.length
}
