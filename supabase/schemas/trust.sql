-- The trust rule (when an account’s CUBE votes and can leave), linked accounts and the per-address daily bound.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

-- Per account (all, or p_user): the most other accounts of its generation (created within
-- link_days of it) seen within link_days at one of its recent addresses. Two branches, so that
-- one account's question uses the indexes and every account's is one set-based join.
create or replace function public.account_ring(p_user uuid default null) returns table (user_id uuid, others int)
language plpgsql stable security definer set search_path = '' as $$
declare
  c_window constant interval := make_interval(days => (public.trust_rules() ->> 'link_days')::int);
begin
  if p_user is null then
    return query
      select per_address.user_id, max(per_address.n)::int
        from (
          select mc.user_id, count(distinct oc.user_id) as n
            from public.account_clients mc
            join auth.users mu on mu.id = mc.user_id
            join public.account_clients oc on oc.client_address = mc.client_address and oc.user_id <> mc.user_id
            join auth.users ou on ou.id = oc.user_id
           where mc.last_seen > now() - c_window and oc.last_seen > now() - c_window
             and ou.created_at between mu.created_at - c_window and mu.created_at + c_window
           group by mc.user_id, mc.client_address
        ) per_address
       group by per_address.user_id;
  else
    return query
      select p_user, coalesce(max(per_address.n), 0)::int
        from (
          select count(distinct oc.user_id) as n
            from public.account_clients mc
            join auth.users mu on mu.id = mc.user_id
            join public.account_clients oc on oc.client_address = mc.client_address and oc.user_id <> mc.user_id
            join auth.users ou on ou.id = oc.user_id
           where mc.user_id = p_user
             and mc.last_seen > now() - c_window and oc.last_seen > now() - c_window
             and ou.created_at between mu.created_at - c_window and mu.created_at + c_window
           group by mc.client_address
        ) per_address;
  end if;
end
$$;

-- The return type grows (age and ring facts): dropped and created again. Its callers are SQL and
-- PL/pgSQL functions that name its columns, which keep their meaning.
create or replace function public.account_trust(p_user uuid default null)
returns table (user_id uuid, balance int, listening_days int, distinct_songs int, welcome int, trusted boolean, locked int,
               age_hours int, ring_accounts int)
language sql stable security definer set search_path = '' as $$
  with r as (
    select (public.trust_rules() ->> 'needed_days')::int as days,
           (public.trust_rules() ->> 'needed_songs')::int as songs,
           (public.trust_rules() ->> 'min_age_hours')::int as age,
           (public.trust_rules() ->> 'max_accounts_per_address')::int as others,
           make_interval(days => (public.trust_rules() ->> 'link_days')::int) as window_,
           public.trust_rules() ->> 'listen_reason' as listen,
           array(select json_array_elements_text(public.trust_rules() -> 'welcome_reasons')) as welcome
  ), ring as (
    select * from public.account_ring(p_user)
  ), f as (
    select t.user_id, t.balance, l.days, l.songs, w.welcome,
           floor(extract(epoch from now() - u.created_at) / 3600)::int as age_hours,
           coalesce(g.others, 0) as others,
           l.days >= r.days and l.songs >= r.songs
             and u.created_at <= now() - make_interval(hours => r.age)
             and coalesce(g.others, 0) < r.others as trusted
      from public.user_tokens t
      join auth.users u on u.id = t.user_id
      left join ring g on g.user_id = t.user_id
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
         case when f.trusted then 0 else greatest(f.balance, 0) end,
         f.age_hours, f.others + 1
    from f
$$;

-- The rule. Reads only stored facts (ages, addresses seen), never the current request, so it means
-- the same inside a proposal's snapshot as in the action that pays: callers that act for a request
-- record its address first (public.note_account_client).
create or replace function public.accounts_linked(p_actor uuid, p_other uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
declare
  c_rules constant json := public.link_rules();
  c_since constant timestamptz := now() - make_interval(days => (c_rules ->> 'link_days')::int);
begin
  if p_actor is null or p_other is null then
    return false;
  end if;
  return p_actor = p_other
    or exists (select 1 from auth.users u
                where u.id = p_actor
                  and u.created_at > now() - make_interval(hours => (c_rules ->> 'min_account_age_hours')::int))
    or exists (select 1 from public.account_clients a join public.account_clients b using (client_address)
                where a.user_id = p_actor and b.user_id = p_other
                  and a.last_seen > c_since and b.last_seen > c_since);
end
$$;

-- Takes up to p_amount from today's bound of the current request's client address and returns
-- what may be paid (p_amount when the request has no address). Holds the address's row lock to
-- the end of the transaction: callers take it after the wallet locks they need.
create or replace function public.address_allowance(p_amount int) returns int
language plpgsql security definer set search_path = '' as $$
declare
  v_address text := public.client_address();
  v_key text;
  v_day date := (clock_timestamp() at time zone 'utc')::date;
  v_earned int;
  v_take int;
begin
  if v_address is null or p_amount is null or p_amount <= 0 then
    return greatest(coalesce(p_amount, 0), 0);
  end if;
  v_key := public.address_key(v_address);
  insert into public.address_earnings (address_key, day) values (v_key, v_day) on conflict do nothing;
  select earned into v_earned from public.address_earnings where address_key = v_key and day = v_day for update;
  v_take := greatest(least(p_amount, (public.link_rules() ->> 'address_daily_cap')::int - v_earned), 0);
  if v_take > 0 then
    update public.address_earnings set earned = earned + v_take where address_key = v_key and day = v_day;
  end if;
  return v_take;
end
$$;

-- The one source of the two rules (min_account_age_hours and link_days are the creator rule's,
-- reward_rules().creator, which they always were).
create or replace function public.link_rules() returns json
language sql stable set search_path = '' as $$
  select json_build_object(
    'min_account_age_hours', (public.reward_rules() -> 'creator' ->> 'min_listener_age_hours')::int,
    'link_days', (public.reward_rules() -> 'creator' ->> 'link_days')::int,
    'address_daily_cap', 1000
  )
$$;

-- What today's bound of the caller's address has left (the app can say why a reward was 0).
create or replace function public.my_address_allowance() returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  v_address text := public.client_address();
  v_cap int := (public.link_rules() ->> 'address_daily_cap')::int;
  v_earned int;
begin
  perform public.require_uid();
  select earned into v_earned from public.address_earnings
   where address_key = public.address_key(coalesce(v_address, ''))
     and day = (clock_timestamp() at time zone 'utc')::date;
  return json_build_object('daily_cap', v_cap, 'earned_today', coalesce(v_earned, 0),
                           'left_today', greatest(v_cap - coalesce(v_earned, 0), 0));
end
$$;

-- The caller's trust status (the wallet page shows the locked part and what unlocks it).
create or replace function public.my_trust_status() returns json
language plpgsql stable security definer set search_path = '' as $$
begin
  perform public.require_uid();
  return public.trust_status(auth.uid());
end
$$;

-- Why an account is not trusted yet, in words (wallet_claim and delegate_voting_power say it).
create or replace function public.trust_missing(p_status json) returns text
language sql immutable set search_path = '' as $$
  select concat_ws(' ',
    case when (p_status ->> 'age_hours')::int < (p_status ->> 'needed_age_hours')::int
         then format('Your account must be %s hours old (it is %s).', p_status ->> 'needed_age_hours', p_status ->> 'age_hours') end,
    case when (p_status ->> 'listening_days')::int < (p_status ->> 'needed_days')::int
           or (p_status ->> 'distinct_songs')::int < (p_status ->> 'needed_songs')::int
         then format('Listen on %s different days (%s so far) and to %s different songs (%s so far).',
                     p_status ->> 'needed_days', p_status ->> 'listening_days',
                     p_status ->> 'needed_songs', p_status ->> 'distinct_songs') end,
    case when (p_status ->> 'ring_accounts')::int >= (p_status ->> 'ring_size')::int
         then format('%s new accounts were used from one of your addresses; trust waits until at most %s are.',
                     p_status ->> 'ring_accounts', (p_status ->> 'ring_size')::int - 1) end)
$$;

create or replace function public.trust_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object(
    'needed_days', 3,
    'needed_songs', 10,
    'min_age_hours', 48,
    'max_accounts_per_address', 5,
    'link_days', 30,
    'listen_reason', 'listen',
    'welcome_reasons', json_build_array('welcome', 'wallet_welcome')
  )
$$;

-- {trusted, listening_days, distinct_songs, needed_days, needed_songs, age_hours, needed_age_hours,
--  ring_accounts, ring_size, welcome, locked, balance} of one account.
create or replace function public.trust_status(p_user uuid) returns json
language sql stable security definer set search_path = '' as $$
  select json_build_object(
    'trusted', coalesce(a.trusted, false),
    'listening_days', coalesce(a.listening_days, 0),
    'distinct_songs', coalesce(a.distinct_songs, 0),
    'needed_days', (public.trust_rules() ->> 'needed_days')::int,
    'needed_songs', (public.trust_rules() ->> 'needed_songs')::int,
    'age_hours', coalesce(a.age_hours, 0),
    'needed_age_hours', (public.trust_rules() ->> 'min_age_hours')::int,
    -- Accounts of this one's generation on its busiest recent address, itself included.
    'ring_accounts', coalesce(a.ring_accounts, 1),
    'ring_size', (public.trust_rules() ->> 'max_accounts_per_address')::int + 1,
    'welcome', coalesce(a.welcome, 0),
    'locked', coalesce(a.locked, 0),
    'balance', coalesce(a.balance, 0)
  )
    from (select 1) one
    left join public.account_trust(p_user) a on true
$$;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON FUNCTION public.account_ring(p_user uuid), public.account_trust(p_user uuid), public.accounts_linked(p_actor uuid,
    p_other uuid), public.address_allowance(p_amount integer), public.link_rules(), public.my_address_allowance(),
    public.my_trust_status(), public.trust_missing(p_status json), public.trust_rules(), public.trust_status(p_user uuid) FROM
    PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.link_rules(), public.trust_rules() TO anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.my_address_allowance(), public.my_trust_status() TO authenticated, service_role;
GRANT ALL ON FUNCTION public.accounts_linked(p_actor uuid, p_other uuid), public.address_allowance(p_amount integer),
    public.trust_missing(p_status json) TO service_role;
