-- Minting songs as NFTs on the configured chains.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

CREATE TABLE public.blockchain_configs (
    name text NOT NULL,
    display_name text NOT NULL,
    native_token text NOT NULL,
    chain_id integer,
    testnet_rpc_url text,
    explorer_url text,
    contract_address text,
    testnet boolean DEFAULT true NOT NULL,
    enabled boolean DEFAULT true NOT NULL,
    sort integer DEFAULT 0 NOT NULL,
    mainnet_rpc_url text,
    icon text,
    embedded boolean DEFAULT false NOT NULL,
    CONSTRAINT blockchain_configs_contract_address_check CHECK (((contract_address IS NULL) OR (contract_address ~
        '^0x[0-9a-fA-F]{40}$'::text))),
    CONSTRAINT blockchain_configs_name_check CHECK ((name ~ '^[a-z][a-z0-9_-]{1,30}$'::text)),
    CONSTRAINT blockchain_configs_pkey PRIMARY KEY (name)
);
ALTER TABLE public.blockchain_configs ENABLE ROW LEVEL SECURITY;
CREATE POLICY "chains are public" ON public.blockchain_configs FOR SELECT TO anon, authenticated USING (true);
COMMENT ON COLUMN public.blockchain_configs.name IS
    'The chain''s key (ethereum, polygon, …): mint_requests.blockchain and nfts.blockchain name it.';
COMMENT ON COLUMN public.blockchain_configs.chain_id IS
    'EIP-155 chain id of the network in use (testnet or mainnet); null for non-EVM chains.';
COMMENT ON COLUMN public.blockchain_configs.testnet_rpc_url IS
    'JSON-RPC URL of the test network: an https URL on a hosted project; for an embedded row, the local server''s '
    '<origin>/chain/rpc; null when the server has no provider for it.';
COMMENT ON COLUMN public.blockchain_configs.contract_address IS 'The CubeMusicNFT deployment on the network in use.';
COMMENT ON COLUMN public.blockchain_configs.testnet IS
    'Mint on the test network (testnet_rpc_url) rather than the main one (mainnet_rpc_url).';
COMMENT ON COLUMN public.blockchain_configs.mainnet_rpc_url IS 'JSON-RPC URL of the main network (https), used when testnet is false.';
COMMENT ON COLUMN public.blockchain_configs.embedded IS
    'Backed by the local backend''s in-process chain: its RPC URL is the local server''s /chain/rpc, written when the server starts '
    'the chain (''embedded'' until then). Always false on a hosted project.';

CREATE TABLE public.mint_requests (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    client_key text NOT NULL,
    blockchain text NOT NULL,
    metadata jsonb NOT NULL,
    recipient text NOT NULL,
    royalties numeric(4,2) NOT NULL,
    collection text,
    status text DEFAULT 'pending'::text NOT NULL,
    transaction_id text,
    token_id text,
    contract_address text,
    error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT mint_requests_client_key_check CHECK (((char_length(client_key) >= 8) AND (char_length(client_key) <= 100))),
    CONSTRAINT mint_requests_collection_check CHECK (((collection IS NULL) OR (char_length(collection) <= 100))),
    CONSTRAINT mint_requests_recipient_check CHECK ((recipient ~ '^0x[0-9a-fA-F]{40}$'::text)),
    CONSTRAINT mint_requests_royalties_check CHECK (((royalties >= (0)::numeric) AND (royalties <= (50)::numeric))),
    CONSTRAINT mint_requests_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'completed'::text, 'failed'::text]))),
    CONSTRAINT mint_requests_transaction_id_check CHECK (((transaction_id IS NULL) OR (transaction_id ~ '^0x[0-9a-f]{64}$'::text))),
    CONSTRAINT mint_requests_pkey PRIMARY KEY (id),
    CONSTRAINT mint_requests_user_id_client_key_key UNIQUE (user_id, client_key),
    CONSTRAINT mint_requests_blockchain_fkey FOREIGN KEY (blockchain) REFERENCES public.blockchain_configs(name),
    CONSTRAINT mint_requests_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX mint_requests_user_idx ON public.mint_requests USING btree (user_id, created_at DESC);
ALTER TABLE public.mint_requests ENABLE ROW LEVEL SECURITY;
CREATE POLICY "owners read their mint requests" ON public.mint_requests FOR SELECT TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));
CREATE TRIGGER mint_requests_notice AFTER UPDATE OF status ON public.mint_requests FOR EACH ROW EXECUTE FUNCTION public.notice_on_mint();
COMMENT ON COLUMN public.mint_requests.royalties IS
    'Royalty share in percent, 0 to 50 (the token''s ERC-2981 royalty is round(royalties * 100) basis points).';
COMMENT ON COLUMN public.mint_requests.transaction_id IS 'The mint transaction''s hash (0x and 64 hex digits) once completed.';

CREATE TABLE public.nfts (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    mint_request_id uuid NOT NULL,
    blockchain text NOT NULL,
    contract_address text NOT NULL,
    token_id text NOT NULL,
    transaction_id text NOT NULL,
    metadata jsonb NOT NULL,
    owner_id uuid NOT NULL,
    minted_at timestamp with time zone DEFAULT now() NOT NULL,
    royalties numeric(4,2) NOT NULL,
    CONSTRAINT nfts_royalties_check CHECK (((royalties >= (0)::numeric) AND (royalties <= (50)::numeric))),
    CONSTRAINT nfts_blockchain_contract_address_token_id_key UNIQUE (blockchain, contract_address, token_id),
    CONSTRAINT nfts_mint_request_id_key UNIQUE (mint_request_id),
    CONSTRAINT nfts_pkey PRIMARY KEY (id),
    CONSTRAINT nfts_blockchain_fkey FOREIGN KEY (blockchain) REFERENCES public.blockchain_configs(name),
    CONSTRAINT nfts_mint_request_id_fkey FOREIGN KEY (mint_request_id) REFERENCES public.mint_requests(id) ON DELETE CASCADE,
    CONSTRAINT nfts_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX nfts_owner_idx ON public.nfts USING btree (owner_id, minted_at DESC);
ALTER TABLE public.nfts ENABLE ROW LEVEL SECURITY;
CREATE POLICY "nfts: visible unless the owner is private" ON public.nfts FOR SELECT TO anon, authenticated USING
    (public.profile_visible(owner_id));
COMMENT ON COLUMN public.nfts.royalties IS 'Royalty share in percent, 0 to 50, as minted (ERC-2981: round(royalties * 100) basis points).';

create or replace function public.enabled_blockchains() returns json
language sql stable security definer set search_path = '' as $$
  select coalesce(json_agg(row_to_json(c) order by c.sort), '[]'::json)
  from public.blockchain_configs c
  where c.enabled
$$;

-- The royalty argument changes name and unit (percent), so the old signature goes.
create or replace function public.mint_begin(p_user uuid, p_client_key text, p_blockchain text, p_metadata jsonb,
                                  p_recipient text, p_royalties numeric, p_collection text) returns json
language plpgsql security definer set search_path = '' as $$
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
language plpgsql security definer set search_path = '' as $$
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
language sql stable security definer set search_path = '' as $$
  select json_build_object(
    'config', (select row_to_json(c) from public.blockchain_configs c where c.name = p_blockchain and c.enabled),
    'linked_address', (select address from public.wallet_links where user_id = p_user)
  )
$$;

-- mint_fail
CREATE OR REPLACE FUNCTION public.mint_fail(p_request uuid, p_error text)
 RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path TO '' AS $function$
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
    perform public.post_ledger(v_request.user_id, c_cost, 'mint_refund', v_request.id::text, 'mint_refund:' || v_request.id::text);
  end if;
  return row_to_json(v_request);
end
$function$;

-- The metadata a token's tokenURI serves (pending or completed requests; a failed one has no token).
create or replace function public.mint_metadata(p_request uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select metadata from public.mint_requests where id = p_request and status <> 'failed'
$$;

insert into public.blockchain_configs (name, display_name, native_token, chain_id, testnet_rpc_url, testnet, enabled, sort, icon,
    embedded) values
  ('avalanche', 'Avalanche', 'AVAX', NULL, NULL, 'true', 'true', '6', '▲', 'false'),
  ('binance', 'BNB Chain', 'BNB', NULL, NULL, 'true', 'true', '5', '◆', 'false'),
  ('bitcoin', 'Bitcoin', 'BTC', NULL, NULL, 'true', 'true', '3', '₿', 'false'),
  ('ethereum', 'Ethereum', 'ETH', '31337', 'embedded', 'true', 'true', '1', 'Ξ', 'true'),
  ('polygon', 'Polygon', 'MATIC', '31337', 'embedded', 'true', 'true', '4', '⬡', 'true'),
  ('solana', 'Solana', 'SOL', NULL, NULL, 'true', 'true', '2', '◎', 'false');

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.blockchain_configs, public.mint_requests, public.nfts FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON TABLE public.blockchain_configs, public.mint_requests, public.nfts TO service_role;
GRANT SELECT ON TABLE public.blockchain_configs, public.nfts TO anon, authenticated;
GRANT SELECT ON TABLE public.mint_requests TO authenticated;
REVOKE ALL ON FUNCTION public.enabled_blockchains(), public.mint_begin(p_user uuid, p_client_key text, p_blockchain text,
    p_metadata jsonb, p_recipient text, p_royalties numeric, p_collection text), public.mint_complete(p_request uuid, p_tx_hash
    text, p_token_id text, p_contract text), public.mint_context(p_user uuid, p_blockchain text), public.mint_fail(p_request uuid,
    p_error text), public.mint_metadata(p_request uuid) FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.enabled_blockchains(), public.mint_begin(p_user uuid, p_client_key text, p_blockchain text, p_metadata
    jsonb, p_recipient text, p_royalties numeric, p_collection text), public.mint_complete(p_request uuid, p_tx_hash text,
    p_token_id text, p_contract text), public.mint_context(p_user uuid, p_blockchain text), public.mint_fail(p_request uuid,
    p_error text), public.mint_metadata(p_request uuid) TO service_role;
