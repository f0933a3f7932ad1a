-- The Admin Dashboard's Economy view (issue 23, "Visibility and proof"), read from the ledger, which
-- stays the only truth (balance = sum of the ledger): CUBE created and destroyed per reason per UTC
-- day, the top earners, the accounts the trust rule holds back, and how the listening rules bit. Administrators only (require_admin()), as
-- every admin call; aal2 where the account has two-factor on (the pre-request check).

create function public.admin_economy(p_days int default 14) returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_days int := least(greatest(coalesce(p_days, 14), 1), 90);
  v_since timestamptz := date_trunc('day', clock_timestamp() at time zone 'utc') at time zone 'utc' - make_interval(days => v_days - 1);
begin
  perform public.require_admin();
  return json_build_object(
    'days', v_days,
    'since', v_since,
    -- Positive movements create CUBE (listens, welcomes, refunds...), negative ones destroy it (burns, spends).
    'per_day', coalesce((
      select json_agg(json_build_object('day', d.day, 'reason', d.reason, 'minted', d.minted, 'burned', d.burned, 'entries', d.entries)
                      order by d.day desc, d.reason)
        from (select (created_at at time zone 'utc')::date as day, reason,
                     sum(amount) filter (where amount > 0) as minted,
                     -sum(amount) filter (where amount < 0) as burned,
                     count(*) as entries
                from public.token_ledger where created_at >= v_since group by 1, 2) d), '[]'::json),
    'totals', json_build_object(
      'minted', (select coalesce(sum(amount), 0) from public.token_ledger where amount > 0 and created_at >= v_since),
      'burned', (select coalesce(-sum(amount), 0) from public.token_ledger where amount < 0 and created_at >= v_since),
      'supply', (select coalesce(sum(balance), 0) from public.user_tokens),
      'ledger_sum', (select coalesce(sum(amount), 0) from public.token_ledger),
      'accounts', (select count(*) from public.user_tokens)
    ),
    'top_earners', coalesce((
      select json_agg(json_build_object('username', coalesce(p.username, 'deleted account'), 'earned', e.earned,
                                        'listens', e.listens, 'creator', e.creator) order by e.earned desc)
        from (select user_id, sum(amount) as earned,
                     count(*) filter (where reason = 'listen') as listens,
                     coalesce(sum(amount) filter (where reason = 'creator'), 0) as creator
                from public.token_ledger
               where amount > 0 and created_at >= v_since
                 and reason not in (select json_array_elements_text(public.trust_rules() -> 'welcome_reasons'))
               group by user_id order by sum(amount) desc limit 10) e
        left join public.profiles p on p.user_id = e.user_id), '[]'::json),
    -- The trust rule (20261126100000_trust_rule.sql): accounts whose welcome CUBE is still locked.
    'held_back', json_build_object(
      'accounts', (select count(*) from public.account_trust(null) a where not a.trusted),
      'locked', (select coalesce(sum(a.locked), 0) from public.account_trust(null) a where not a.trusted),
      'needed_days', (public.trust_rules() ->> 'needed_days')::int,
      'needed_songs', (public.trust_rules() ->> 'needed_songs')::int,
      'closest', coalesce((
        select json_agg(json_build_object('username', coalesce(p.username, 'deleted account'), 'listening_days', a.listening_days,
                                          'distinct_songs', a.distinct_songs, 'locked', a.locked)
                        order by a.listening_days desc, a.distinct_songs desc)
          from (select * from public.account_trust(null) where not trusted
                 order by listening_days desc, distinct_songs desc limit 10) a
          left join public.profiles p on p.user_id = a.user_id), '[]'::json)
    ),
    -- How often each listening rule refused a listen in the period (sessions that reached the qualifying time).
    'listen_outcomes', coalesce((
      select json_object_agg(o.outcome, o.n)
        from (select outcome, count(*) as n from public.listening_sessions
               where started_at >= v_since and outcome is not null group by outcome) o), '{}'::json)
  );
end
$$;
revoke execute on function public.admin_economy(int) from public, anon;
grant execute on function public.admin_economy(int) to authenticated, service_role;
