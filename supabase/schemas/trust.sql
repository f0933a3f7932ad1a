-- The trust rule: when welcome tokens become spendable.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

-- Every wallet (or, with p_user, one) with its trust facts. The only place the rule is computed:
-- trust_status, wallet_claim and the governance snapshot all read it.
create or replace function public.account_trust(p_user uuid default null)
returns table (user_id uuid, balance int, listening_days int, distinct_songs int, welcome int, trusted boolean, locked int)
language sql stable security definer set search_path = '' as $$
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

-- The caller's trust status (the wallet page shows the locked part and what unlocks it).
create or replace function public.my_trust_status() returns json
language plpgsql stable security definer set search_path = '' as $$
begin
  if auth.uid() is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  return public.trust_status(auth.uid());
end
$$;

create or replace function public.trust_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object(
    'needed_days', 3,
    'needed_songs', 10,
    'listen_reason', 'listen',
    'welcome_reasons', json_build_array('welcome', 'wallet_welcome')
  )
$$;

-- {trusted, listening_days, distinct_songs, needed_days, needed_songs, welcome, locked, balance} of one account.
create or replace function public.trust_status(p_user uuid) returns json
language sql stable security definer set search_path = '' as $$
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

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON FUNCTION public.account_trust(p_user uuid), public.my_trust_status(), public.trust_rules(),
    public.trust_status(p_user uuid) FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.trust_rules() TO anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.my_trust_status() TO authenticated, service_role;
