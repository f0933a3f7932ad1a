-- voting power matures: an account's own voting power is weighted by the distinct UTC days it had
-- credited listens in the last power_window_days, full after full_power_days
-- (supabase/schemas/governance.sql, public.governance_power). Snapshots keep the days they used;
-- those taken before this rule have none (null).

alter table public.proposal_power add column power_days integer;
alter table public.proposal_power add constraint proposal_power_power_days_check check ((power_days >= 0));

-- The functions, as supabase/schemas/governance.sql has them (written by `npm run db:diff`).

set check_function_bodies = off;

create or replace function public.cast_vote(p_proposal_id uuid, p_choice text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_proposal public.proposals;
  v_mine public.proposal_power;
  v_delegators uuid[];
  v_delegated bigint;
  v_power bigint;
  v_vote public.votes;
begin
  if p_choice is null or p_choice not in ('for', 'against') then
    raise exception 'invalid_choice' using errcode = '22023', detail = 'Vote for or against.';
  end if;
  perform public.close_due_proposals();
  perform public.init_user_tokens();
  -- The voter's wallet lock serialises this user's calls; the proposal's lock every vote on it, so
  -- the checks below see every vote committed before.
  perform 1 from public.user_tokens where user_id = v_uid for update;
  select * into v_proposal from public.proposals where id = p_proposal_id for update;
  if not found then
    raise exception 'unknown_proposal' using errcode = '22023', detail = 'There is no such proposal.';
  end if;
  if v_proposal.status <> 'active' then
    raise exception 'proposal_closed' using errcode = '22023', detail = 'Voting on this proposal has ended.';
  end if;
  if exists (select 1 from public.votes where proposal_id = p_proposal_id and user_id = v_uid) then
    raise exception 'already_voted' using errcode = '22023', detail = 'You have already voted on this proposal.';
  end if;
  select * into v_mine from public.proposal_power where proposal_id = p_proposal_id and user_id = v_uid;
  if not found then
    raise exception 'no_power' using errcode = '22023',
      detail = 'Voting power comes from balances at the moment a proposal is created, and your account did not exist yet then.';
  end if;
  if public.governance_power_used(p_proposal_id, v_uid) then
    raise exception 'power_already_used' using errcode = '22023', detail = 'Your delegate already voted on this proposal with your power.';
  end if;
  if v_mine.delegated then
    raise exception 'delegated' using errcode = '22023',
      detail = 'Your voting power was delegated when this proposal was created, so your delegate votes with it; '
        || 'a new delegation counts from the next proposal.';
  end if;

  select coalesce(array_agg(s.user_id order by s.user_id), '{}'), coalesce(sum(s.own_power), 0)
    into v_delegators, v_delegated
    from public.proposal_power s
   where s.proposal_id = p_proposal_id and s.delegated and s.delegate_id = v_uid and s.delegation_counted
     and not public.governance_power_used(p_proposal_id, s.user_id);
  v_power := v_mine.own_power + v_delegated;
  if v_power <= 0 then
    raise exception 'insufficient_voting_power' using errcode = '22023',
      detail = case when v_mine.locked > 0
        then 'Your account was not trusted yet when this proposal was created, so its CUBE carry no voting power on it.'
        when v_mine.balance > 0 and v_mine.power_days < (public.governance_rules() ->> 'full_power_days')::int
        then format('Voting power grows with the days you listened in the last %s days (full after %s); when this proposal '
          || 'was created you had listened on %s, so your CUBE weighed less than one vote.',
          public.governance_rules() ->> 'power_window_days', public.governance_rules() ->> 'full_power_days', v_mine.power_days)
        else 'You need CUBE tokens to participate in governance' end;
  end if;

  insert into public.votes (proposal_id, user_id, choice, power, delegators)
  values (p_proposal_id, v_uid, p_choice, v_power, v_delegators)
  returning * into v_vote;
  update public.proposals
     set votes_for = votes_for + case when p_choice = 'for' then v_power else 0 end,
         votes_against = votes_against + case when p_choice = 'against' then v_power else 0 end,
         voter_count = voter_count + 1
   where id = p_proposal_id
  returning * into v_proposal;
  return json_build_object('vote', to_json(v_vote), 'proposal', to_json(v_proposal));
end
$$;

create or replace function public.governance_listening_days(p_user uuid default null) returns table (user_id uuid, power_days int)
language sql stable security definer set search_path = '' as $$
  select t.user_id,
         least(count(distinct (x.created_at at time zone 'utc')::date), (public.governance_rules() ->> 'full_power_days')::int)::int
    from public.user_tokens t
    left join public.token_ledger x
      on x.user_id = t.user_id and x.reason = public.trust_rules() ->> 'listen_reason' and x.amount > 0
     and x.created_at > now() - make_interval(days => (public.governance_rules() ->> 'power_window_days')::int)
   where p_user is null or t.user_id = p_user
   group by t.user_id
$$;

revoke all on function public.governance_listening_days(uuid) from public, anon, authenticated, service_role;

grant EXECUTE on function public.governance_listening_days(uuid) to service_role;

create or replace function public.governance_overview() returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_delegation public.delegations;
  v_trust json;
  v_delegated bigint;
  v_own bigint;
  v_days int;
begin
  perform public.close_due_proposals();
  select * into v_delegation from public.delegations where delegator_id = v_uid;
  v_trust := public.trust_status(v_uid);
  v_own := public.governance_own_power(v_uid);
  v_days := coalesce((select m.power_days from public.governance_listening_days(v_uid) m), 0);
  select coalesce(sum(public.governance_own_power(d.delegator_id)), 0) into v_delegated
    from public.delegations d
   where d.delegate_id = v_uid;
  return json_build_object(
    'balance', coalesce((select balance from public.user_tokens where user_id = v_uid), 0),
    'locked', (v_trust ->> 'locked')::int,
    'trusted', (v_trust ->> 'trusted')::boolean,
    'own_power', v_own,
    'power_days', v_days,
    'delegated_power', v_delegated,
    'voting_power', case when v_delegation.delegator_id is null then v_own + v_delegated else 0 end,
    'delegation', case when v_delegation.delegator_id is null then null else json_build_object(
      'delegate_id', v_delegation.delegate_id,
      'delegate_name', (select username from public.profiles where user_id = v_delegation.delegate_id),
      'since', v_delegation.created_at) end,
    'delegators', coalesce((
      select json_agg(json_build_object('username', coalesce(pr.username, 'listener'), 'power', public.governance_own_power(d.delegator_id),
                                        'since', d.created_at) order by d.created_at)
        from public.delegations d left join public.profiles pr on pr.user_id = d.delegator_id
       where d.delegate_id = v_uid), '[]'::json),
    'active_count', (select count(*) from public.proposals where status = 'active'),
    'voted_active', (select count(*) from public.votes v join public.proposals p on p.id = v.proposal_id
                      where v.user_id = v_uid and p.status = 'active')
  );
end
$$;

create or replace function public.governance_own_power(p_user uuid) returns bigint
language sql stable security definer set search_path = '' as $$
  select coalesce((select public.governance_power(a.balance - a.locked, coalesce(m.power_days, 0))
                     from public.account_trust(p_user) a
                     left join public.governance_listening_days(p_user) m on m.user_id = a.user_id), 0)
$$;

create or replace function public.governance_power(p_votable bigint, p_days int) returns bigint
language sql immutable set search_path = '' as $$
  select greatest(floor((public.governance_rules() ->> 'power_fraction')::numeric * greatest(p_votable, 0)
                        * least(greatest(p_days, 0), (public.governance_rules() ->> 'full_power_days')::int)
                        / (public.governance_rules() ->> 'full_power_days')::int), 0)::bigint
$$;

revoke all on function public.governance_power(bigint,integer) from public, anon, authenticated, service_role;

grant EXECUTE on function public.governance_power(bigint,integer) to service_role;

create or replace function public.governance_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object(
    'proposal_cost', 100,
    'min_balance', 100,
    'power_fraction', 0.8,
    'full_power_days', 30,
    'power_window_days', 180,
    'quorum_share', 0.1,
    'min_duration_hours', 24,
    'min_duration_days', 1,
    'max_duration_days', 14,
    'categories', json_build_array('platform', 'tokenomics', 'features', 'community', 'other'),
    'max_title', 120,
    'max_description', 4000
  )
$$;

create or replace function public.snapshot_proposal_power(p_proposal_id uuid) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  v_total bigint;
begin
  insert into public.proposal_power
    (proposal_id, user_id, balance, locked, own_power, delegated_power, delegated, delegate_id, voting_power, delegation_counted,
     power_days)
  with a as (
    select t.user_id, t.balance, t.locked, t.trusted, coalesce(m.power_days, 0) as power_days,
           public.governance_power(t.balance - t.locked, coalesce(m.power_days, 0)) as own
      from public.account_trust() t
      left join public.governance_listening_days() m on m.user_id = t.user_id
  ), c as (
    -- The delegations that carry power: from a trusted delegator (own > 0 only then) to a trusted
    -- delegate not linked to it.
    select d.delegator_id, d.delegate_id, a.own
      from public.delegations d
      join a on a.user_id = d.delegator_id
      join a delegate on delegate.user_id = d.delegate_id
     where d.delegate_id is not null and a.own > 0 and delegate.trusted
       and not public.accounts_linked(d.delegator_id, d.delegate_id)
  ), r as (
    -- What each delegate receives: the own power of its delegators (one level).
    select c.delegate_id, sum(c.own)::bigint as received from c group by c.delegate_id
  ), s as (
    select a.*, d.delegator_id is not null as delegated, d.delegate_id, coalesce(r.received, 0) as received,
           d.delegator_id is null or exists (select 1 from c where c.delegator_id = a.user_id) as counted
      from a
      left join public.delegations d on d.delegator_id = a.user_id
      left join r on r.delegate_id = a.user_id
  )
  select p_proposal_id, s.user_id, s.balance, s.locked, s.own, s.received, s.delegated, s.delegate_id,
         case when s.delegated then 0 else s.own + s.received end, s.counted, s.power_days
    from s
  on conflict (proposal_id, user_id) do nothing;
  select coalesce(sum(voting_power), 0) into v_total from public.proposal_power where proposal_id = p_proposal_id;
  return v_total;
end
$$;

reset check_function_bodies;
