-- Custodial private keys at rest. They were plain hex in custodial_wallets, and any reader of the
-- database files (the PGlite folder, its WAL, a dump) had every Social Login wallet. Now the column
-- holds only AES-256-GCM sealed keys (supabase/functions/_shared/custodial-keys.ts: a random IV per
-- key, the account id as associated data) under a key that is never in the database: locally a 0600
-- file beside the data folder's JWT secret, on hosted Supabase the CUSTODIAL_WALLET_KEY function
-- secret. Plain rows written before this are sealed by the server at its next start
-- (supabase/local/core/custodial-at-rest.ts); until then the check still admits them, and
-- wallet_link_custodial stores nothing else than a sealed key.

alter table public.custodial_wallets drop constraint custodial_wallets_private_key_check;
alter table public.custodial_wallets add constraint custodial_wallets_private_key_sealed
  check (private_key ~ '^aes256gcm\.v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{40,}$' or private_key ~ '^0x[0-9a-fA-F]{64}$');
comment on column public.custodial_wallets.private_key is
  'AES-256-GCM sealed (aes256gcm.v1.<iv>.<ciphertext>), bound to user_id; the key is outside the database';

create or replace function public.wallet_link_custodial(p_user uuid, p_address text, p_private_key text) returns json
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
  -- Only a sealed key is stored: the edge function seals it before it leaves its memory.
  if p_private_key is null or p_private_key !~ '^aes256gcm\.v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{40,}$' then
    raise exception 'invalid_private_key' using errcode = '22023', detail = 'The key must be sealed (aes256gcm.v1)';
  end if;
  -- The wallet row (created by init_user_tokens) is every CUBE movement's lock.
  select balance into v_balance from public.user_tokens where user_id = p_user for update;
  if not found then
    raise exception 'no_wallet' using errcode = '22023';
  end if;
  insert into public.custodial_wallets (user_id, address, private_key) values (p_user, p_address, p_private_key)
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
