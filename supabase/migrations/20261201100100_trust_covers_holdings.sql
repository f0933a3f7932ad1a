-- Trust covers everything an account holds, not only what it was given.
--
-- 20261126100000_trust_rule.sql locked only the welcome tokens: what an untrusted account earned
-- voted at once, so thirty accounts made in an hour listened, commented and delegated their way
-- to most of a proposal's votes. Now, until an account is trusted, its whole balance is locked:
-- none of it votes, none of it can be delegated, none of it can be claimed out. It stays
-- spendable inside the app (remix, mint, proposals, spend_tokens) as before.
--
-- The trust rule as a whole (public.trust_rules(), the one source the client reads by rpc). An
-- account is trusted when all of these hold:
--   * it is at least min_age_hours (48 h) old: sybils are made in bulk and used at once;
--   * its ledger holds qualifying listens ('listen' rows) on at least needed_days (3) distinct UTC
--     days and of at least needed_songs (10) distinct songs: real use, spread over time;
--   * it is not part of a ring: no client address it was seen at within link_days (30) was seen,
--     in that window, for max_accounts_per_address (5) or more other accounts created within
--     link_days of its own creation (so ring_size = 6 or more accounts of one generation on one
--     address). A household of four or five is never a ring; thirty sign-ups from one address are,
--     for each of them, until they are older than the window. Old accounts are not made untrusted
--     by a crowd of new ones arriving at their café or carrier address: only accounts of the same
--     generation count. An address shared by many new users at once (a carrier's NAT) delays their
--     trust; their listening, comments and spending in the app are unaffected.
-- While untrusted, locked = the whole (non-negative) balance; once trusted, locked = 0. Trust is
-- recomputed at every read (the ring clause can end, and start, with the addresses seen).
--
-- Governance (20261126100100_governance_snapshot.sql) reads account_trust, so in a proposal's
-- snapshot own power = floor(0.8 x (balance - locked)) is 0 for every account untrusted when the
-- proposal was created. Delegated power counts only from trusted delegators to a delegate trusted
-- at that moment and not linked to them (public.accounts_linked, 20261201100000_linked_accounts.sql);
-- other delegated power abstains on that proposal. delegate_voting_power refuses an untrusted
-- caller ('not_trusted') and a delegate linked to the caller ('linked_account').

create or replace function public.trust_rules() returns json
language sql
immutable
set search_path = ''
as $$
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

-- Per account (all, or p_user): the most other accounts of its generation (created within
-- link_days of it) seen within link_days at one of its recent addresses. Two branches, so that
-- one account's question uses the indexes and every account's is one set-based join.
create function public.account_ring(p_user uuid default null) returns table (user_id uuid, others int)
language plpgsql
stable
security definer
set search_path = ''
as $$
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
revoke execute on function public.account_ring(uuid) from public, anon, authenticated, service_role;

-- The return type grows (age and ring facts): dropped and created again. Its callers are SQL and
-- PL/pgSQL functions that name its columns, which keep their meaning.
drop function public.account_trust(uuid);
create function public.account_trust(p_user uuid default null)
returns table (user_id uuid, balance int, listening_days int, distinct_songs int, welcome int, trusted boolean, locked int,
               age_hours int, ring_accounts int)
language sql
stable
security definer
set search_path = ''
as $$
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
revoke execute on function public.account_trust(uuid) from public, anon, authenticated, service_role;

-- {trusted, listening_days, distinct_songs, needed_days, needed_songs, age_hours, needed_age_hours,
--  ring_accounts, ring_size, welcome, locked, balance} of one account.
create or replace function public.trust_status(p_user uuid) returns json
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

-- Why an account is not trusted yet, in words (wallet_claim and delegate_voting_power say it).
create function public.trust_missing(p_status json) returns text
language sql
immutable
set search_path = ''
as $$
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
revoke execute on function public.trust_missing(json) from public, anon, authenticated;

-- wallet_claim (20261126100000_trust_rule.sql): the same gate; its words now name every missing part.
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

-- Whether a delegator's own power went to its delegate in this snapshot (cast_vote counts only
-- those). Rows written before this migration counted, as they did.
alter table public.proposal_power add column delegation_counted boolean not null default true;

-- The snapshot (20261126100100_governance_snapshot.sql): delegated power counts only from a
-- trusted delegator to a delegate trusted now and not linked to it.
create or replace function public.snapshot_proposal_power(p_proposal_id uuid) returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_fraction constant numeric := (public.governance_rules() ->> 'power_fraction')::numeric;
  v_total bigint;
begin
  insert into public.proposal_power
    (proposal_id, user_id, balance, locked, own_power, delegated_power, delegated, delegate_id, voting_power, delegation_counted)
  with a as (
    select t.user_id, t.balance, t.locked, t.trusted, greatest(floor(c_fraction * (t.balance - t.locked)), 0)::bigint as own
      from public.account_trust() t
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
         case when s.delegated then 0 else s.own + s.received end, s.counted
    from s
  on conflict (proposal_id, user_id) do nothing;
  select coalesce(sum(voting_power), 0) into v_total from public.proposal_power where proposal_id = p_proposal_id;
  return v_total;
end
$$;

-- delegate_voting_power (20261124140100_governance.sql): an untrusted account has nothing to
-- delegate, and linked accounts cannot delegate to each other.
create or replace function public.delegate_voting_power(p_username text default null) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_delegate uuid;
  v_trust json;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  -- The same lock cast_vote takes: a vote by this user (or with their power) is not in flight.
  perform public.init_user_tokens();
  perform 1 from public.user_tokens where user_id = v_uid for update;
  if p_username is not null and btrim(p_username) <> '' then
    select user_id into v_delegate from public.profiles where username = btrim(p_username);
    if not found then
      raise exception 'unknown_user' using errcode = '22023', detail = format('There is no user named %s.', btrim(p_username));
    end if;
    if v_delegate = v_uid then
      raise exception 'self_delegation' using errcode = '22023', detail = 'You cannot delegate to yourself.';
    end if;
    v_trust := public.trust_status(v_uid);
    if not (v_trust ->> 'trusted')::boolean then
      raise exception 'not_trusted' using errcode = '22023',
        detail = 'Your CUBE carry no voting power until your account is trusted, so there is nothing to delegate yet. '
          || public.trust_missing(v_trust);
    end if;
    if public.accounts_linked(v_uid, v_delegate) then
      raise exception 'linked_account' using errcode = '22023',
        detail = format('%s was used from the same address as your account lately, so you cannot delegate to them.', btrim(p_username));
    end if;
  end if;
  insert into public.delegations (delegator_id, delegate_id) values (v_uid, v_delegate)
  on conflict (delegator_id) do update set delegate_id = excluded.delegate_id, created_at = now();
  return public.governance_overview();
end
$$;

-- cast_vote (20261126100100_governance_snapshot.sql): a delegate votes with the delegations its
-- snapshot counted (delegation_counted), and the words of a vote without power say that the whole
-- balance, not only the welcome, was locked.
create or replace function public.cast_vote(p_proposal_id uuid, p_choice text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_proposal public.proposals;
  v_mine public.proposal_power;
  v_delegators uuid[];
  v_delegated bigint;
  v_power bigint;
  v_vote public.votes;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
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
