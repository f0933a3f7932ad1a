-- The embedded chain's JSON-RPC URL, recorded where wallets and tools look for it (issue 28, "A
-- chain a wallet can reach"). The rows the local backend's in-process chain backs said 'embedded'
-- in their RPC URL column, which no wallet or tool can call. They are now marked by `embedded`, and
-- the local server writes the URL it serves the chain at (<server URL>/chain/rpc) into the RPC URL
-- of the network in use each time it starts the chain (supabase/local/core/server.ts). A hosted
-- deployment points those columns at an https RPC of its own and leaves `embedded` false.

alter table public.blockchain_configs add column embedded boolean not null default false;
update public.blockchain_configs set embedded = true where 'embedded' in (testnet_rpc_url, mainnet_rpc_url);

comment on column public.blockchain_configs.embedded is
  'Backed by the local backend''s in-process chain: its RPC URL is the local server''s /chain/rpc, written '
  'when the server starts the chain (''embedded'' until then). Always false on a hosted project.';
comment on column public.blockchain_configs.testnet_rpc_url is
  'JSON-RPC URL of the test network: an https URL on a hosted project; for an embedded row, the local '
  'server''s <origin>/chain/rpc; null when the server has no provider for it.';
