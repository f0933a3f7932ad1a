-- The token side made real (issue 11): wallet links proven by Sign-In with Ethereum, the 50 CUBE
-- wallet welcome, the claimable listening pot, NFT mint requests and minted NFTs, and the chains
-- they are minted on.
--
-- Who may do what:
--   * wallet_links, mint_requests: the owner reads their own rows; nobody writes them directly.
--   * nfts, blockchain_configs: readable by everyone (a public collection, the chain list).
--   * siwe_nonces, wallet_welcomes: no API role reads or writes them.
--   * wallet_link / mint_begin / mint_complete / mint_fail run only for service_role: the edge
--     functions call them after verifying the SIWE signature, or around the chain transaction.
--   * wallet_issue_nonce / wallet_claim_status / wallet_claim / wallet_rules: any signed-in user.
-- The minter key is not in the database at all (server environment / process memory only).

insert into public.ledger_reasons (reason, kind, description) values
  ('wallet_welcome', 'earn', 'Welcome tokens for the first verified wallet'),
  ('mint_refund', 'refund', 'An NFT mint that failed on chain, given back');

-- The one source of this feature's constants (the client reads them through rpc('wallet_rules')).
create function public.wallet_rules() returns json
language sql
stable
set search_path = ''
as $$
  select json_build_object(
    'welcome_tokens', 50,
    'claim_per_hour', 5,
    'claim_hour_seconds', 3600,
    'mint_cost', 100,
    'nonce_ttl_seconds', 300,
    'max_royalty_percent', 50
  )
$$;

create table public.wallet_links (
  user_id uuid primary key references auth.users (id) on delete cascade,
  -- EIP-55 checksummed; one address belongs to at most one account.
  address text not null unique check (address ~ '^0x[0-9a-fA-F]{40}$'),
  chain_id int,
  linked_at timestamptz not null default now()
);

create table public.siwe_nonces (
  nonce text primary key check (nonce ~ '^[A-Za-z0-9]{16,64}$'),
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index siwe_nonces_user_idx on public.siwe_nonces (user_id, created_at desc);

-- One welcome per account and per address, across accounts (both unique).
create table public.wallet_welcomes (
  user_id uuid not null unique references auth.users (id) on delete cascade,
  address text not null unique,
  granted_at timestamptz not null default now()
);

create table public.blockchain_configs (
  id text primary key check (id ~ '^[a-z][a-z0-9_-]{1,30}$'),
  name text not null,
  native_token text not null,
  -- EVM chains only; null for chains the server cannot mint on.
  chain_id int,
  -- 'embedded' = the local backend's in-process chain; an https URL on a hosted deployment;
  -- null = no provider (minting answers 'Provider for {chain} not initialized').
  rpc_url text,
  explorer_url text,
  contract_address text check (contract_address is null or contract_address ~ '^0x[0-9a-fA-F]{40}$'),
  is_testnet boolean not null default true,
  enabled boolean not null default true,
  sort int not null default 0
);

insert into public.blockchain_configs (id, name, native_token, chain_id, rpc_url, explorer_url, is_testnet, enabled, sort) values
  ('ethereum', 'Ethereum', 'ETH', 31337, 'embedded', null, true, true, 1),
  ('solana', 'Solana', 'SOL', null, null, null, true, true, 2),
  ('bitcoin', 'Bitcoin', 'BTC', null, null, null, true, true, 3),
  ('polygon', 'Polygon', 'MATIC', 31337, 'embedded', null, true, true, 4),
  ('binance', 'BNB Chain', 'BNB', null, null, null, true, true, 5),
  ('avalanche', 'Avalanche', 'AVAX', null, null, null, true, true, 6);

create table public.mint_requests (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  -- Chosen by the client per Mint click: ten concurrent clicks with one key are one mint.
  client_key text not null check (char_length(client_key) between 8 and 100),
  blockchain text not null references public.blockchain_configs (id),
  metadata jsonb not null,
  recipient text not null check (recipient ~ '^0x[0-9a-fA-F]{40}$'),
  royalties_bps int not null check (royalties_bps between 0 and 5000),
  collection text check (collection is null or char_length(collection) <= 100),
  status text not null default 'pending' check (status in ('pending', 'completed', 'failed')),
  transaction_hash text check (transaction_hash is null or transaction_hash ~ '^0x[0-9a-f]{64}$'),
  token_id text,
  contract_address text,
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, client_key)
);
create index mint_requests_user_idx on public.mint_requests (user_id, created_at desc);

create table public.nfts (
  id uuid primary key default gen_random_uuid(),
  mint_request_id uuid not null unique references public.mint_requests (id) on delete cascade,
  blockchain text not null references public.blockchain_configs (id),
  contract_address text not null,
  token_id text not null,
  transaction_id text not null,
  metadata jsonb not null,
  owner_id uuid not null references auth.users (id) on delete cascade,
  minted_at timestamptz not null default now(),
  unique (blockchain, contract_address, token_id)
);
create index nfts_owner_idx on public.nfts (owner_id, minted_at desc);

-- ---------------------------------------------------------------------------------------------
-- Wallet connect: nonce, then (after the edge function verified the signature) the link
-- ---------------------------------------------------------------------------------------------

create function public.wallet_issue_nonce() returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_nonce text := replace(gen_random_uuid()::text, '-', '') || substr(replace(gen_random_uuid()::text, '-', ''), 1, 8);
  v_expires timestamptz := clock_timestamp() + make_interval(secs => (public.wallet_rules() ->> 'nonce_ttl_seconds')::int);
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  -- Old nonces of this user are of no use any more.
  delete from public.siwe_nonces where user_id = v_uid and (used_at is not null or expires_at < clock_timestamp());
  insert into public.siwe_nonces (nonce, user_id, expires_at) values (v_nonce, v_uid, v_expires);
  return json_build_object('nonce', v_nonce, 'expires_at', v_expires);
end
$$;

-- Called by the wallet-verify edge function only, once it has checked the SIWE signature against
-- p_address. Consumes the nonce (single use, unexpired, issued to this user), links the address
-- and grants the welcome once per account and per address.
create function public.wallet_link(p_user uuid, p_address text, p_nonce text, p_chain_id int) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_welcome constant int := (public.wallet_rules() ->> 'welcome_tokens')::int;
  v_nonce public.siwe_nonces;
  v_owner uuid;
  v_granted int := 0;
  v_balance int;
begin
  if p_user is null or p_address is null or p_address !~ '^0x[0-9a-fA-F]{40}$' then
    raise exception 'invalid_address' using errcode = '22023';
  end if;
  select * into v_nonce from public.siwe_nonces where nonce = p_nonce for update;
  if not found or v_nonce.user_id <> p_user then
    raise exception 'invalid_nonce' using errcode = '22023';
  end if;
  if v_nonce.used_at is not null then
    raise exception 'nonce_used' using errcode = '22023';
  end if;
  if v_nonce.expires_at < clock_timestamp() then
    raise exception 'nonce_expired' using errcode = '22023';
  end if;
  update public.siwe_nonces set used_at = clock_timestamp() where nonce = p_nonce;

  -- The wallet row (created by init_user_tokens) is every CUBE movement's lock.
  select balance into v_balance from public.user_tokens where user_id = p_user for update;
  if not found then
    raise exception 'no_wallet' using errcode = '22023';
  end if;

  select user_id into v_owner from public.wallet_links where lower(address) = lower(p_address);
  if found and v_owner <> p_user then
    raise exception 'address_taken' using errcode = '23505';
  end if;
  insert into public.wallet_links (user_id, address, chain_id) values (p_user, p_address, p_chain_id)
  on conflict (user_id) do update set address = excluded.address, chain_id = excluded.chain_id, linked_at = now();

  insert into public.wallet_welcomes (user_id, address) values (p_user, lower(p_address))
  on conflict do nothing;
  if found then
    v_granted := c_welcome;
    insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
    values (p_user, c_welcome, 'wallet_welcome', p_address, 'wallet_welcome:' || p_user::text);
    update public.user_tokens set balance = balance + c_welcome, updated_at = clock_timestamp()
     where user_id = p_user returning balance into v_balance;
  end if;
  return json_build_object('address', p_address, 'welcome', v_granted, 'balance', v_balance);
end
$$;

-- 'Remove this address from my account'.
create function public.wallet_unlink() returns json
language plpgsql
security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  delete from public.wallet_links where user_id = auth.uid();
  return json_build_object('unlinked', found);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Claimable listening pot: 5 CUBE per full hour of accepted listening seconds
-- ---------------------------------------------------------------------------------------------

create function public.wallet_claim_status() returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  c_rules constant json := public.wallet_rules();
  c_hour constant int := (c_rules ->> 'claim_hour_seconds')::int;
  c_per_hour constant int := (c_rules ->> 'claim_per_hour')::int;
  v_uid uuid := auth.uid();
  v_seconds bigint;
  v_claimed bigint;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select coalesce(sum(seconds), 0) into v_seconds from public.user_listening_history where user_id = v_uid;
  select coalesce(sum(amount), 0) into v_claimed from public.token_ledger where user_id = v_uid and reason = 'claim' and amount > 0;
  return json_build_object(
    'listened_seconds', v_seconds,
    'hours', v_seconds / c_hour,
    'claimable', greatest((v_seconds / c_hour) * c_per_hour - v_claimed, 0),
    'claimed', v_claimed,
    'hour_progress', round((v_seconds % c_hour)::numeric / c_hour, 4)
  );
end
$$;

create function public.wallet_claim() returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_status json;
  v_amount int;
  v_balance int;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  perform public.init_user_tokens();
  -- Concurrent claims of one user wait here; the second sees the pot already emptied.
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  v_status := public.wallet_claim_status();
  v_amount := (v_status ->> 'claimable')::int;
  if v_amount > 0 then
    insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
    values (v_uid, v_amount, 'claim', 'listening',
            'claim:' || v_uid::text || ':' || ((v_status ->> 'claimed')::bigint + v_amount)::text);
    update public.user_tokens set balance = balance + v_amount, updated_at = clock_timestamp()
     where user_id = v_uid returning balance into v_balance;
  end if;
  return json_build_object('claimed', v_amount, 'balance', v_balance);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Minting: burn + request in one transaction; completion or failure (with refund) afterwards
-- ---------------------------------------------------------------------------------------------

create function public.mint_begin(p_user uuid, p_client_key text, p_blockchain text, p_metadata jsonb,
                                  p_recipient text, p_royalties_bps int, p_collection text) returns json
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
  insert into public.mint_requests (user_id, client_key, blockchain, metadata, recipient, royalties_bps, collection)
  values (p_user, p_client_key, p_blockchain, p_metadata, p_recipient, p_royalties_bps, nullif(btrim(p_collection), ''))
  returning * into v_request;
  insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
  values (p_user, -c_cost, 'mint', v_request.id::text, 'mint:' || v_request.id::text);
  update public.user_tokens set balance = balance - c_cost, updated_at = clock_timestamp()
   where user_id = p_user returning balance into v_balance;
  return json_build_object('request', row_to_json(v_request), 'created', true, 'balance', v_balance);
end
$$;

create function public.mint_complete(p_request uuid, p_tx_hash text, p_token_id text, p_contract text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_request public.mint_requests;
begin
  update public.mint_requests
     set status = 'completed', transaction_hash = p_tx_hash, token_id = p_token_id,
         contract_address = p_contract, updated_at = clock_timestamp()
   where id = p_request and status = 'pending'
  returning * into v_request;
  if not found then
    raise exception 'not_pending' using errcode = '22023';
  end if;
  insert into public.nfts (mint_request_id, blockchain, contract_address, token_id, transaction_id, metadata, owner_id)
  values (v_request.id, v_request.blockchain, p_contract, p_token_id, p_tx_hash, v_request.metadata, v_request.user_id);
  return row_to_json(v_request);
end
$$;

create function public.mint_fail(p_request uuid, p_error text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_cost constant int := (public.wallet_rules() ->> 'mint_cost')::int;
  v_request public.mint_requests;
begin
  select * into v_request from public.mint_requests where id = p_request;
  if not found then
    raise exception 'not_found' using errcode = '22023';
  end if;
  perform 1 from public.user_tokens where user_id = v_request.user_id for update;
  update public.mint_requests set status = 'failed', error = left(p_error, 500), updated_at = clock_timestamp()
   where id = p_request and status = 'pending'
  returning * into v_request;
  if found then
    insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
    values (v_request.user_id, c_cost, 'mint_refund', v_request.id::text, 'mint_refund:' || v_request.id::text);
    update public.user_tokens set balance = balance + c_cost, updated_at = clock_timestamp()
     where user_id = v_request.user_id;
  end if;
  return row_to_json(v_request);
end
$$;

-- What the mint edge function needs before burning: the chain's row and the caller's linked address.
create function public.mint_context(p_user uuid, p_blockchain text) returns json
language sql
stable
security definer
set search_path = ''
as $$
  select json_build_object(
    'config', (select row_to_json(c) from public.blockchain_configs c where c.id = p_blockchain and c.enabled),
    'linked_address', (select address from public.wallet_links where user_id = p_user)
  )
$$;

-- The metadata a token's tokenURI serves (pending or completed requests; a failed one has no token).
create function public.mint_metadata(p_request uuid) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select metadata from public.mint_requests where id = p_request and status <> 'failed'
$$;

-- ---------------------------------------------------------------------------------------------
-- Grants and RLS
-- ---------------------------------------------------------------------------------------------

revoke all on table public.wallet_links, public.siwe_nonces, public.wallet_welcomes, public.blockchain_configs,
  public.mint_requests, public.nfts from anon, authenticated;
grant select on public.wallet_links, public.mint_requests to authenticated;
grant select on public.nfts, public.blockchain_configs to anon, authenticated;
grant all on table public.wallet_links, public.siwe_nonces, public.wallet_welcomes, public.blockchain_configs,
  public.mint_requests, public.nfts to service_role;

alter table public.wallet_links enable row level security;
alter table public.siwe_nonces enable row level security;
alter table public.wallet_welcomes enable row level security;
alter table public.blockchain_configs enable row level security;
alter table public.mint_requests enable row level security;
alter table public.nfts enable row level security;

create policy "owners read their wallet link" on public.wallet_links
  for select to authenticated using (user_id = (select auth.uid()));
create policy "owners read their mint requests" on public.mint_requests
  for select to authenticated using (user_id = (select auth.uid()));
create policy "nfts are a public collection" on public.nfts
  for select to anon, authenticated using (true);
create policy "chains are public" on public.blockchain_configs
  for select to anon, authenticated using (true);

revoke execute on function
  public.wallet_rules(), public.wallet_issue_nonce(), public.wallet_link(uuid, text, text, int), public.wallet_unlink(),
  public.wallet_claim_status(), public.wallet_claim(),
  public.mint_begin(uuid, text, text, jsonb, text, int, text), public.mint_complete(uuid, text, text, text), public.mint_fail(uuid, text),
  public.mint_context(uuid, text), public.mint_metadata(uuid)
from public, anon, authenticated;
grant execute on function public.wallet_rules() to anon, authenticated, service_role;
grant execute on function public.wallet_issue_nonce(), public.wallet_unlink(), public.wallet_claim_status(), public.wallet_claim()
  to authenticated, service_role;
grant execute on function
  public.wallet_link(uuid, text, text, int),
  public.mint_begin(uuid, text, text, jsonb, text, int, text), public.mint_complete(uuid, text, text, text), public.mint_fail(uuid, text),
  public.mint_context(uuid, text), public.mint_metadata(uuid)
to service_role;
