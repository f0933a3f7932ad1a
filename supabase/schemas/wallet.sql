-- Wallet links (Sign-In with Ethereum), custodial wallets and claims.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

-- Social login in the wallet: a user without a browser wallet uses their CUBE
-- account as the wallet. The server makes the account an Ethereum key of its own once (the edge
-- function wallet-verify, { custodial: true }), keeps the private key where no API role can read
-- it, and links the address like a proven one: Rewards, Claim and the NFT tab open, and a mint
-- without a recipient goes to it. Connecting a browser wallet later replaces the link; the
-- custodial key stays, so Social login links the same address again.
CREATE TABLE public.custodial_wallets (
    user_id uuid NOT NULL,
    address text NOT NULL,
    private_key text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT custodial_wallets_address_check CHECK ((address ~ '^0x[0-9a-fA-F]{40}$'::text)),
    CONSTRAINT custodial_wallets_private_key_sealed CHECK (((private_key ~
        '^aes256gcm\.v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{40,}$'::text) OR (private_key ~ '^0x[0-9a-fA-F]{64}$'::text))),
    CONSTRAINT custodial_wallets_address_key UNIQUE (address),
    CONSTRAINT custodial_wallets_pkey PRIMARY KEY (user_id),
    CONSTRAINT custodial_wallets_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
ALTER TABLE public.custodial_wallets ENABLE ROW LEVEL SECURITY;
COMMENT ON COLUMN public.custodial_wallets.private_key IS
    'AES-256-GCM sealed (aes256gcm.v1.<iv>.<ciphertext>), bound to user_id; the key is outside the database';

CREATE TABLE public.siwe_nonces (
    nonce text NOT NULL,
    user_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    CONSTRAINT siwe_nonces_nonce_check CHECK ((nonce ~ '^[A-Za-z0-9]{16,64}$'::text)),
    CONSTRAINT siwe_nonces_pkey PRIMARY KEY (nonce),
    CONSTRAINT siwe_nonces_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX siwe_nonces_user_idx ON public.siwe_nonces USING btree (user_id, created_at DESC);
ALTER TABLE public.siwe_nonces ENABLE ROW LEVEL SECURITY;

CREATE TABLE public.wallet_links (
    user_id uuid NOT NULL,
    address text NOT NULL,
    chain_id integer,
    linked_at timestamp with time zone DEFAULT now() NOT NULL,
    custodial boolean DEFAULT false NOT NULL,
    CONSTRAINT wallet_links_address_check CHECK ((address ~ '^0x[0-9a-fA-F]{40}$'::text)),
    CONSTRAINT wallet_links_address_key UNIQUE (address),
    CONSTRAINT wallet_links_pkey PRIMARY KEY (user_id),
    CONSTRAINT wallet_links_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
ALTER TABLE public.wallet_links ENABLE ROW LEVEL SECURITY;
CREATE POLICY "owners read their wallet link" ON public.wallet_links FOR SELECT TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));
CREATE TRIGGER wallet_links_proven BEFORE UPDATE ON public.wallet_links FOR EACH ROW EXECUTE FUNCTION public.wallet_links_proven();

-- One welcome per account and per address, across accounts (both unique).
CREATE TABLE public.wallet_welcomes (
    user_id uuid,
    address text NOT NULL,
    granted_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT wallet_welcomes_address_key UNIQUE (address),
    CONSTRAINT wallet_welcomes_user_id_key UNIQUE (user_id),
    CONSTRAINT wallet_welcomes_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE SET NULL
);
ALTER TABLE public.wallet_welcomes ENABLE ROW LEVEL SECURITY;

-- wallet_claim: refused until the account is trusted (public.trust_status); its words name every
-- missing part of the rule.
create or replace function public.wallet_claim() returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_status json;
  v_trust json;
  v_amount int;
  v_balance int;
begin
  perform public.init_user_tokens();
  -- Concurrent claims of one user wait here; the second sees the pot already emptied.
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  v_trust := public.trust_status(v_uid);
  if not (v_trust ->> 'trusted')::boolean then
    raise exception 'not_trusted' using errcode = '22023',
      detail = 'Claiming unlocks once your account is trusted. ' || public.trust_missing(v_trust);
  end if;
  v_status := public.wallet_claim_status();
  v_amount := (v_status ->> 'claimable')::int;
  if v_amount > 0 then
    v_balance := public.post_ledger(v_uid, v_amount, 'claim', 'listening',
      'claim:' || v_uid::text || ':' || ((v_status ->> 'claimed')::bigint + v_amount)::text);
  end if;
  return json_build_object('claimed', v_amount, 'balance', v_balance);
end
$$;

-- The hourly pot from the server-measured sessions: earning seconds of credited listens only.
create or replace function public.wallet_claim_status() returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  c_rules constant json := public.wallet_rules();
  c_hour constant int := (c_rules ->> 'claim_hour_seconds')::int;
  c_per_hour constant int := (c_rules ->> 'claim_per_hour')::int;
  c_day constant bigint := (c_rules ->> 'claim_day_seconds')::bigint;
  v_uid uuid := public.require_uid();
  v_seconds bigint;
  v_claimed bigint;
begin
  select coalesce(sum(least(d.seconds, c_day)), 0) into v_seconds
    from (select floor(sum(s.earning_seconds))::bigint as seconds from public.listening_sessions s
           where s.user_id = v_uid and s.credited > 0 group by (s.started_at at time zone 'utc')::date) d;
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

create or replace function public.wallet_issue_nonce() returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_nonce text := replace(gen_random_uuid()::text, '-', '') || substr(replace(gen_random_uuid()::text, '-', ''), 1, 8);
  v_expires timestamptz := clock_timestamp() + make_interval(secs => (public.wallet_rules() ->> 'nonce_ttl_seconds')::int);
begin
  -- Old nonces of this user are of no use any more.
  delete from public.siwe_nonces where user_id = v_uid and (used_at is not null or expires_at < clock_timestamp());
  insert into public.siwe_nonces (nonce, user_id, expires_at) values (v_nonce, v_uid, v_expires);
  return json_build_object('nonce', v_nonce, 'expires_at', v_expires);
end
$$;

-- wallet_link
CREATE OR REPLACE FUNCTION public.wallet_link(p_user uuid, p_address text, p_nonce text, p_chain_id integer)
 RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path TO '' AS $function$
declare
  v_nonce public.siwe_nonces;
  v_owner uuid;
  v_granted int := 0;
  v_balance int;
begin
  perform public.require_wallet_address(p_user, p_address);
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

  v_balance := public.lock_wallet(p_user);

  select user_id into v_owner from public.wallet_links where lower(address) = lower(p_address);
  if found and v_owner <> p_user then
    raise exception 'address_taken' using errcode = '23505';
  end if;
  insert into public.wallet_links (user_id, address, chain_id) values (p_user, p_address, p_chain_id)
  on conflict (user_id) do update set address = excluded.address, chain_id = excluded.chain_id, linked_at = now();

  select w.granted, w.balance into v_granted, v_balance from public.wallet_welcome_once(p_user, p_address, v_balance) w;
  return json_build_object('address', p_address, 'welcome', v_granted, 'balance', v_balance);
end
$function$;

create or replace function public.wallet_link_custodial(p_user uuid, p_address text, p_private_key text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_address text;
  v_granted int := 0;
  v_balance int;
begin
  perform public.require_wallet_address(p_user, p_address);
  -- Only a sealed key is stored: the edge function seals it before it leaves its memory.
  if p_private_key is null or p_private_key !~ '^aes256gcm\.v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{40,}$' then
    raise exception 'invalid_private_key' using errcode = '22023', detail = 'The key must be sealed (aes256gcm.v1)';
  end if;
  v_balance := public.lock_wallet(p_user);
  insert into public.custodial_wallets (user_id, address, private_key) values (p_user, p_address, p_private_key)
  on conflict (user_id) do nothing;
  select address into v_address from public.custodial_wallets where user_id = p_user;

  insert into public.wallet_links (user_id, address, chain_id, custodial) values (p_user, v_address, null, true)
  on conflict (user_id) do update set address = excluded.address, chain_id = null, custodial = true, linked_at = now();

  select w.granted, w.balance into v_granted, v_balance from public.wallet_welcome_once(p_user, v_address, v_balance) w;
  return json_build_object('address', v_address, 'welcome', v_granted, 'balance', v_balance, 'custodial', true);
end
$$;

-- A proven browser wallet replaces a custodial link (wallet_link's upsert keeps the column): mark it.
create or replace function public.wallet_links_proven() returns trigger
language plpgsql set search_path = '' as $$
begin
  if tg_op = 'UPDATE' and new.address is distinct from old.address and new.custodial = old.custodial and old.custodial then
    new.custodial := false;
  end if;
  return new;
end
$$;

-- The rules gain the per-day ceiling, derived from the rules it follows from.
create or replace function public.wallet_rules() returns json
language sql stable set search_path = '' as $$
  select json_build_object(
    'welcome_tokens', 50,
    'claim_per_hour', 5,
    'claim_hour_seconds', 3600,
    -- At most this many listening seconds per UTC day count towards the pot.
    'claim_day_seconds', (public.reward_rules() -> 'listen' ->> 'daily_cap')::int * (public.publishing_rules() ->> 'max_seconds')::int,
    'mint_cost', 100,
    'nonce_ttl_seconds', 300,
    'max_royalty_percent', 50
  )
$$;

-- 'Remove this address from my account'.
create or replace function public.wallet_unlink() returns json
language plpgsql security definer set search_path = '' as $$
begin
  perform public.require_uid();
  delete from public.wallet_links where user_id = auth.uid();
  return json_build_object('unlinked', found);
end
$$;

-- What a wallet link names: an account and an Ethereum address (0x and 40 hex digits), or
-- invalid_address.
create or replace function public.require_wallet_address(p_user uuid, p_address text) returns void
language plpgsql immutable set search_path = '' as $$
begin
  if p_user is null or p_address is null or p_address !~ '^0x[0-9a-fA-F]{40}$' then
    raise exception 'invalid_address' using errcode = '22023';
  end if;
end
$$;

-- The account's wallet row, locked for the rest of the transaction (every CUBE movement's lock: a
-- wallet link waits here for the user's other movements), and its balance; no_wallet before
-- init_user_tokens made it.
create or replace function public.lock_wallet(p_user uuid) returns int
language plpgsql set search_path = '' as $$
declare
  v_balance int;
begin
  select balance into v_balance from public.user_tokens where user_id = p_user for update;
  if not found then
    raise exception 'no_wallet' using errcode = '22023';
  end if;
  return v_balance;
end
$$;

-- The wallet welcome, once per account and once per address (wallet_welcomes holds both unique):
-- wallet_rules().welcome_tokens posted as wallet_welcome. Answers what it granted (0 when given
-- before) and the balance after it (p_balance when nothing was posted).
create or replace function public.wallet_welcome_once(p_user uuid, p_address text, p_balance int, out granted int,
  out balance int)
language plpgsql set search_path = '' as $$
declare
  c_welcome constant int := (public.wallet_rules() ->> 'welcome_tokens')::int;
begin
  granted := 0;
  balance := p_balance;
  insert into public.wallet_welcomes (user_id, address) values (p_user, lower(p_address))
  on conflict do nothing;
  if found then
    granted := c_welcome;
    balance := public.post_ledger(p_user, c_welcome, 'wallet_welcome', p_address, 'wallet_welcome:' || p_user::text);
  end if;
end
$$;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.custodial_wallets, public.siwe_nonces, public.wallet_links, public.wallet_welcomes FROM PUBLIC, anon,
    authenticated, service_role;
GRANT ALL ON TABLE public.custodial_wallets, public.siwe_nonces, public.wallet_links, public.wallet_welcomes TO service_role;
GRANT SELECT ON TABLE public.wallet_links TO authenticated;
REVOKE ALL ON FUNCTION public.wallet_claim_status(), public.wallet_claim(), public.wallet_issue_nonce(),
    public.wallet_link_custodial(p_user uuid, p_address text, p_private_key text), public.wallet_link(p_user uuid, p_address text,
    p_nonce text, p_chain_id integer), public.wallet_links_proven(), public.wallet_rules(), public.wallet_unlink(),
    public.require_wallet_address(p_user uuid, p_address text), public.lock_wallet(p_user uuid), public.wallet_welcome_once(p_user
    uuid, p_address text, p_balance integer) FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.wallet_links_proven() TO anon, authenticated, public, service_role;
GRANT ALL ON FUNCTION public.wallet_rules() TO anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.wallet_claim_status(), public.wallet_claim(), public.wallet_issue_nonce(), public.wallet_unlink() TO
    authenticated, service_role;
GRANT ALL ON FUNCTION public.wallet_link_custodial(p_user uuid, p_address text, p_private_key text), public.wallet_link(p_user
    uuid, p_address text, p_nonce text, p_chain_id integer), public.require_wallet_address(p_user uuid, p_address text) TO
    service_role;
GRANT ALL ON FUNCTION public.lock_wallet(p_user uuid), public.wallet_welcome_once(p_user uuid, p_address text, p_balance integer) TO
    service_role;
