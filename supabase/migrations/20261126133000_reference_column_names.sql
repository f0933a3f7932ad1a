-- The reference's column names (issue 28, "Deployable"): a hosted project's tables read as the
-- reference describes them.
--   * mint_requests: transaction_hash → transaction_id (nfts already had it), royalties_bps →
--     royalties, in percent as the reference's royalties field (0 to 50, two decimals); the
--     contract's ERC-2981 share stays in basis points, computed by the mint function.
--   * nfts: royalties too, copied from the request when the token is minted.
--   * blockchain_configs: the chain's key is name (was id), its label display_name (was name),
--     testnet (was is_testnet), testnet_rpc_url (was rpc_url) and mainnet_rpc_url, icon.
-- The SQL functions that name these columns are redefined here with the same behaviour.

-- ---------------------------------------------------------------------------------------------
-- mint_requests and nfts
-- ---------------------------------------------------------------------------------------------

alter table public.mint_requests rename column transaction_hash to transaction_id;
alter table public.mint_requests rename constraint mint_requests_transaction_hash_check to mint_requests_transaction_id_check;

alter table public.mint_requests rename column royalties_bps to royalties;
alter table public.mint_requests drop constraint mint_requests_royalties_bps_check;
alter table public.mint_requests alter column royalties type numeric(4, 2) using royalties / 100.0;
alter table public.mint_requests add constraint mint_requests_royalties_check check (royalties between 0 and 50);
comment on column public.mint_requests.royalties is
  'Royalty share in percent, 0 to 50 (the token''s ERC-2981 royalty is round(royalties * 100) basis points).';
comment on column public.mint_requests.transaction_id is 'The mint transaction''s hash (0x and 64 hex digits) once completed.';

alter table public.nfts add column royalties numeric(4, 2) check (royalties between 0 and 50);
update public.nfts n set royalties = r.royalties from public.mint_requests r where r.id = n.mint_request_id;
alter table public.nfts alter column royalties set not null;
comment on column public.nfts.royalties is 'Royalty share in percent, 0 to 50, as minted (ERC-2981: round(royalties * 100) basis points).';

-- ---------------------------------------------------------------------------------------------
-- blockchain_configs
-- ---------------------------------------------------------------------------------------------

alter table public.blockchain_configs rename column name to display_name;
alter table public.blockchain_configs rename column id to name;
alter table public.blockchain_configs rename constraint blockchain_configs_id_check to blockchain_configs_name_check;
alter table public.blockchain_configs rename column is_testnet to testnet;
alter table public.blockchain_configs rename column rpc_url to testnet_rpc_url;
alter table public.blockchain_configs add column mainnet_rpc_url text;
alter table public.blockchain_configs add column icon text;

update public.blockchain_configs c set icon = v.icon
  from (values ('ethereum', 'Ξ'), ('solana', '◎'), ('bitcoin', '₿'), ('polygon', '⬡'), ('binance', '◆'), ('avalanche', '▲'))
       as v (name, icon)
 where c.name = v.name;

comment on column public.blockchain_configs.name is
  'The chain''s key (ethereum, polygon, …): mint_requests.blockchain and nfts.blockchain name it.';
comment on column public.blockchain_configs.testnet is
  'Mint on the test network (testnet_rpc_url) rather than the main one (mainnet_rpc_url).';
comment on column public.blockchain_configs.testnet_rpc_url is
  'JSON-RPC URL of the test network: an https URL on a hosted project, ''embedded'' for the local backend''s '
  'in-process chain, null when the server has no provider for it.';
comment on column public.blockchain_configs.mainnet_rpc_url is 'JSON-RPC URL of the main network (https), used when testnet is false.';
comment on column public.blockchain_configs.chain_id is
  'EIP-155 chain id of the network in use (testnet or mainnet); null for non-EVM chains.';
comment on column public.blockchain_configs.contract_address is 'The CubeMusicNFT deployment on the network in use.';

-- ---------------------------------------------------------------------------------------------
-- The functions naming the renamed columns
-- ---------------------------------------------------------------------------------------------

-- The royalty argument changes name and unit (percent), so the old signature goes.
drop function public.mint_begin(uuid, text, text, jsonb, text, int, text);

create function public.mint_begin(p_user uuid, p_client_key text, p_blockchain text, p_metadata jsonb,
                                  p_recipient text, p_royalties numeric, p_collection text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_cost constant int := (public.wallet_rules() ->> 'mint_cost')::int;
  v_balance int;
  v_request public.mint_requests;
begin
  select balance into v_balance from public.user_tokens where user_id = p_user for update;
  if not found then
    raise exception 'insufficient_balance' using errcode = 'P0001';
  end if;
  select * into v_request from public.mint_requests where user_id = p_user and client_key = p_client_key;
  if found then
    return json_build_object('request', row_to_json(v_request), 'created', false, 'balance', v_balance);
  end if;
  if v_balance < c_cost then
    raise exception 'insufficient_balance' using errcode = 'P0001';
  end if;
  insert into public.mint_requests (user_id, client_key, blockchain, metadata, recipient, royalties, collection)
  values (p_user, p_client_key, p_blockchain, p_metadata, p_recipient, p_royalties, nullif(btrim(p_collection), ''))
  returning * into v_request;
  v_balance := public.post_ledger(p_user, -c_cost, 'mint', v_request.id::text, 'mint:' || v_request.id::text);
  return json_build_object('request', row_to_json(v_request), 'created', true, 'balance', v_balance);
end
$$;

create or replace function public.mint_complete(p_request uuid, p_tx_hash text, p_token_id text, p_contract text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_request public.mint_requests;
begin
  update public.mint_requests
     set status = 'completed', transaction_id = p_tx_hash, token_id = p_token_id,
         contract_address = p_contract, updated_at = clock_timestamp()
   where id = p_request and status = 'pending'
  returning * into v_request;
  if not found then
    raise exception 'not_pending' using errcode = '22023';
  end if;
  insert into public.nfts (mint_request_id, blockchain, contract_address, token_id, transaction_id, metadata, owner_id, royalties)
  values (v_request.id, v_request.blockchain, p_contract, p_token_id, p_tx_hash, v_request.metadata, v_request.user_id,
          v_request.royalties);
  return row_to_json(v_request);
end
$$;

create or replace function public.mint_context(p_user uuid, p_blockchain text) returns json
language sql
stable
security definer
set search_path = ''
as $$
  select json_build_object(
    'config', (select row_to_json(c) from public.blockchain_configs c where c.name = p_blockchain and c.enabled),
    'linked_address', (select address from public.wallet_links where user_id = p_user)
  )
$$;

create or replace function public.enabled_blockchains() returns json
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(json_agg(row_to_json(c) order by c.sort), '[]'::json)
  from public.blockchain_configs c
  where c.enabled
$$;

revoke execute on function public.mint_begin(uuid, text, text, jsonb, text, numeric, text) from public, anon, authenticated;
grant execute on function public.mint_begin(uuid, text, text, jsonb, text, numeric, text) to service_role;
