import { rpcJson } from './rpc.ts'

/** SQL public.trust_rules() (supabase/schemas/trust.sql): the one source of the trust rule. */
export interface TrustRules {
  needed_days: number
  needed_songs: number
  min_age_hours: number
  /** An account is part of a ring when this many other accounts of its generation share one of its addresses. */
  max_accounts_per_address: number
  link_days: number
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
  age_hours: number
  needed_age_hours: number
  /** Accounts of this one's generation seen at its busiest recent address, itself included. */
  ring_accounts: number
  /** From this many such accounts on one address on, none of them is trusted. */
  ring_size: number
  /** CUBE granted as welcome bonuses (sign-up and first wallet). */
  welcome: number
  /** The part of the balance without voting power, neither delegable nor claimable: all of it until trusted, 0 once trusted. */
  locked: number
  balance: number
}

export const fetchTrustRules = () => rpcJson<TrustRules>('trust_rules')
export const fetchTrustStatus = () => rpcJson<TrustStatus>('my_trust_status')
