-- The trust rule (issue 23, "Accounts and the faucet"): welcome tokens are spendable in the app but
-- carry no voting power and cannot be claimed out until the account has shown real use.
--
-- Rule (public.trust_rules(), the one source the client reads by rpc):
--   * an account is trusted once its ledger holds qualifying listens ('listen' rows) on at least
--     3 distinct UTC days and of at least 10 distinct songs (the row's reference is the song).
--     The ledger is append-only, so trust, once reached, stays;
--   * welcome tokens are the ledger's 'welcome' (100 CUBE at sign-up) and 'wallet_welcome' (50 CUBE
--     for the first verified wallet) rows. While the account is untrusted,
--       locked = least(balance, sum of its welcome rows)
--     i.e. spending takes the unlocked tokens first; once trusted, locked = 0;
--   * spending inside the app (remix, mint, proposals, spend_tokens) is unchanged: it uses the balance;
--   * voting power counts balance - locked only (20261126100100_governance_snapshot.sql);
--   * wallet_claim (the hourly listening pot, the one way CUBE leaves the app's control) is refused
--     with 'not_trusted' until the account is trusted.
-- Based on the ledger alone: neither user_listening_history nor the listening functions are read.

create function public.trust_rules() returns json
language sql
immutable
set search_path = ''
as $$
  select json_build_object(
    'needed_days', 3,
    'needed_songs', 10,
    'listen_reason', 'listen',
    'welcome_reasons', json_build_array('welcome', 'wallet_welcome')
  )
$$;
revoke execute on function public.trust_rules() from public;
grant execute on function public.trust_rules() to anon, authenticated, service_role;

-- Every wallet (or, with p_user, one) with its trust facts. The only place the rule is computed:
-- trust_status, wallet_claim and the governance snapshot all read it.
create function public.account_trust(p_user uuid default null)
returns table (user_id uuid, balance int, listening_days int, distinct_songs int, welcome int, trusted boolean, locked int)
language sql
stable
security definer
set search_path = ''
as $$
  with r as (
    select (public.trust_rules() ->> 'needed_days')::int as days,
           (public.trust_rules() ->> 'needed_songs')::int as songs,
           public.trust_rules() ->> 'listen_reason' as listen,
           array(select json_array_elements_text(public.trust_rules() -> 'welcome_reasons')) as welcome
  ), f as (
    select t.user_id, t.balance, l.days, l.songs, w.welcome,
           l.days >= r.days and l.songs >= r.songs as trusted
      from public.user_tokens t
     cross join r
     cross join lateral (
       select count(distinct (x.created_at at time zone 'utc')::date)::int as days, count(distinct x.reference)::int as songs
         from public.token_ledger x
        where x.user_id = t.user_id and x.reason = r.listen and x.amount > 0
     ) l
     cross join lateral (
       select coalesce(sum(x.amount), 0)::int as welcome
         from public.token_ledger x
        where x.user_id = t.user_id and x.reason = any (r.welcome) and x.amount > 0
     ) w
     where p_user is null or t.user_id = p_user
  )
  select f.user_id, f.balance, f.days, f.songs, f.welcome, f.trusted,
         case when f.trusted then 0 else greatest(least(f.balance, f.welcome), 0) end
    from f
$$;
revoke execute on function public.account_trust(uuid) from public, anon, authenticated, service_role;

-- {trusted, listening_days, distinct_songs, needed_days, needed_songs, welcome, locked, balance} of one account.
create function public.trust_status(p_user uuid) returns json
language sql
stable
security definer
set search_path = ''
as $$
  select json_build_object(
    'trusted', coalesce(a.trusted, false),
    'listening_days', coalesce(a.listening_days, 0),
    'distinct_songs', coalesce(a.distinct_songs, 0),
    'needed_days', (public.trust_rules() ->> 'needed_days')::int,
    'needed_songs', (public.trust_rules() ->> 'needed_songs')::int,
    'welcome', coalesce(a.welcome, 0),
    'locked', coalesce(a.locked, 0),
    'balance', coalesce(a.balance, 0)
  )
    from (select 1) one
    left join public.account_trust(p_user) a on true
$$;
revoke execute on function public.trust_status(uuid) from public, anon, authenticated, service_role;

-- The caller's trust status (the wallet page shows the locked part and what unlocks it).
create function public.my_trust_status() returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  return public.trust_status(auth.uid());
end
$$;
revoke execute on function public.my_trust_status() from public, anon;
grant execute on function public.my_trust_status() to authenticated, service_role;

-- wallet_claim (last defined in 20261125140000_one_ledger_posting.sql): refused until trusted.
-- Its pot is still wallet_claim_status()'s answer; only the gate is new.
create or replace function public.wallet_claim() returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_status json;
  v_trust json;
  v_amount int;
  v_balance int;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  perform public.init_user_tokens();
  -- Concurrent claims of one user wait here; the second sees the pot already emptied.
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  v_trust := public.trust_status(v_uid);
  if not (v_trust ->> 'trusted')::boolean then
    raise exception 'not_trusted' using errcode = '22023',
      detail = format('Claiming unlocks once you have listened on %s different days (%s so far) and to %s different songs (%s so far).',
        v_trust ->> 'needed_days', v_trust ->> 'listening_days', v_trust ->> 'needed_songs', v_trust ->> 'distinct_songs');
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
