/**
 * Which schema file an object lives in, when it has no home yet: the first rule whose pattern matches
 * the object's name (a table's constraints, indexes, policies, triggers and grants follow their
 * table). An object already in a schema file stays where it is, so moving one by hand sticks.
 */
export const DOMAINS: Record<string, string> = {
  auth: 'What every request passes through: two-factor (AAL) checks, the caller’s address and request limits.',
  profiles: 'Profiles, usernames, follows, settings and what makes a profile visible.',
  privacy: 'Deleting an account and everything it owns.',
  catalogue: 'Songs: the built-in catalogue’s table, slugs, publishing, loudness and recommendations.',
  collection: 'Favourites and playlists.',
  ledger: 'The token ledger: the one posting function, balances, reasons, rewards and spending.',
  listening: 'Listening sessions: what a listen earns, measured by the server.',
  sharing: 'Share links and what opening one earns.',
  comments: 'Comments on songs, likes, and what a comment earns.',
  governance: 'Proposals, votes, delegation and the voting power snapshot.',
  trust: 'The trust rule (when an account’s CUBE votes and can leave), linked accounts and the per-address daily bound.',
  wallet: 'Wallet links (Sign-In with Ethereum), custodial wallets and claims.',
  mint: 'Minting songs as NFTs on the configured chains.',
  studio: 'Studio projects and remixes (burning, refunds, lineage).',
  notifications: 'Notices to users and who wants which.',
  admin: 'The Admin Dashboard: administrators, audit, secrets, site settings and the economy view.',
  ai: 'The AI assistant: provider settings, text quota and the knowledge base.',
  storage: 'Storage buckets and who may read and write their objects.',
  realtime: 'Realtime: the local change feed trigger, the hosted supabase_realtime publication and Realtime Authorization.',
}

const RULES: [RegExp, string][] = [
  [/^storage\.|storage_object_visible/, 'storage'],
  [/^(cube_)?realtime\./, 'realtime'],
  [/aal_satisfied|add_mfa_policy|client_address|check_request|client_rate|account_clients|note_account_client/, 'auth'],
  [/delete_my_account/, 'privacy'],
  [/trust|account_ring|accounts_linked|address_allowance|address_earnings|link_rules/, 'trust'],
  [/app_origins|request_from_app_page/, 'auth'],
  [/audio_duration|chart_/, 'catalogue'],
  [/notice|notification/, 'notifications'],
  [/^public\.(ai_|knowledge_base|search_knowledge)/, 'ai'],
  [/admin|site_settings|mask_secret|admin_secrets/, 'admin'],
  [/comment/, 'comments'],
  [/governance|proposal|vote|delegat/, 'governance'],
  [/mint|nfts|blockchain/, 'mint'],
  [/wallet|siwe/, 'wallet'],
  [/share|page_views|record_view/, 'sharing'],
  [/studio|remix/, 'studio'],
  [/listen|station/, 'listening'],
  [/ledger|token|reward|spend|earnings/, 'ledger'],
  [/favourite|playlist/, 'collection'],
  [/song|slugify|publish|recommend/, 'catalogue'],
  [/profile|follow|username|user_settings|handle_new_user|auth\.users/, 'profiles'],
]

/** The domain of an object named e.g. "public.listen_start" or "storage.objects". */
export function domainOf(name: string): string {
  for (const [pattern, domain] of RULES) if (pattern.test(name)) return domain
  return 'unsorted'
}
