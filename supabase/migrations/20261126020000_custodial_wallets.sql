-- Social login in the wallet (issue 26 item 1): a user without a browser wallet uses their CUBE
-- account as the wallet. The server makes the account an Ethereum key of its own once (the edge
-- function wallet-verify, { custodial: true }), keeps the private key where no API role can read
-- it, and links the address like a proven one: Rewards, Claim and the NFT tab open, and a mint
-- without a recipient goes to it. Connecting a browser wallet later replaces the link; the
-- custodial key stays, so Social login links the same address again.

create table public.custodial_wallets (
  user_id uuid primary key references auth.users (id) on delete cascade,
  address text not null unique check (address ~ '^0x[0-9a-fA-F]{40}$'),
  -- The key the server signs with for this account; never returned by any function.
  private_key text not null check (private_key ~ '^0x[0-9a-f]{64}$'),
  created_at timestamptz not null default now()
);
revoke all on table public.custodial_wallets from public, anon, authenticated;
grant all on table public.custodial_wallets to service_role;
alter table public.custodial_wallets enable row level security;

-- Whether a link is a proven browser wallet or the account's custodial one (owners read it).
alter table public.wallet_links add column custodial boolean not null default false;

-- Links the caller's custodial address, creating it from the key the edge function drew when the
-- account has none yet (a concurrent call's key wins, the other is dropped: one address per
-- account). The wallet welcome is granted once per account, as for a proven wallet.
create function public.wallet_link_custodial(p_user uuid, p_address text, p_private_key text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_welcome constant int := (public.wallet_rules() ->> 'welcome_tokens')::int;
  v_address text;
  v_granted int := 0;
  v_balance int;
begin
  if p_user is null or p_address is null or p_address !~ '^0x[0-9a-fA-F]{40}$' then
    raise exception 'invalid_address' using errcode = '22023';
  end if;
  -- The wallet row (created by init_user_tokens) is every CUBE movement's lock.
  select balance into v_balance from public.user_tokens where user_id = p_user for update;
  if not found then
    raise exception 'no_wallet' using errcode = '22023';
  end if;
  insert into public.custodial_wallets (user_id, address, private_key) values (p_user, p_address, lower(p_private_key))
  on conflict (user_id) do nothing;
  select address into v_address from public.custodial_wallets where user_id = p_user;

  insert into public.wallet_links (user_id, address, chain_id, custodial) values (p_user, v_address, null, true)
  on conflict (user_id) do update set address = excluded.address, chain_id = null, custodial = true, linked_at = now();

  insert into public.wallet_welcomes (user_id, address) values (p_user, lower(v_address))
  on conflict do nothing;
  if found then
    v_granted := c_welcome;
    v_balance := public.post_ledger(p_user, c_welcome, 'wallet_welcome', v_address, 'wallet_welcome:' || p_user::text);
  end if;
  return json_build_object('address', v_address, 'welcome', v_granted, 'balance', v_balance, 'custodial', true);
end
$$;
revoke execute on function public.wallet_link_custodial(uuid, text, text) from public, anon, authenticated;
grant execute on function public.wallet_link_custodial(uuid, text, text) to service_role;

-- A proven browser wallet replaces a custodial link (wallet_link's upsert keeps the column): mark it.
create function public.wallet_links_proven() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.address is distinct from old.address and new.custodial = old.custodial and old.custodial then
    new.custodial := false;
  end if;
  return new;
end
$$;
create trigger wallet_links_proven before update on public.wallet_links
  for each row execute function public.wallet_links_proven();
