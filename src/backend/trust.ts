import { rpcJson } from './rpc.ts'

/** SQL public.trust_rules() (supabase/schemas/trust.sql): the one source of the trust rule. */
export interface TrustRules {
  needed_days: number
  needed_songs: number
  listen_reason: string
  welcome_reasons: string[]
}

/** SQL public.my_trust_status(): the caller's progress towards trust and the locked part of the balance. */
export interface TrustStatus {
  trusted: boolean
  listening_days: number
  distinct_songs: number
  needed_days: number
  needed_songs: number
  /** CUBE granted as welcome bonuses (sign-up and first wallet). */
  welcome: number
  /** The part of the balance without voting power that cannot be claimed out: 0 once trusted. */
  locked: number
  balance: number
}

export const fetchTrustRules = () => rpcJson<TrustRules>('trust_rules')
export const fetchTrustStatus = () => rpcJson<TrustStatus>('my_trust_status')
