-- Snapshot-grade governance (issue 23, "Governance"). Until now voting power was the voter's
-- balance at vote time, so tokens moved or earned during a vote counted, fresh accounts voted with
-- their welcome bonus, and a fixed quorum of 100 let three fresh accounts pass a proposal.
--
-- Rules (public.governance_rules(), the one source the client reads by rpc):
--   * the moment a proposal is created (any insert into public.proposals: a BEFORE INSERT trigger),
--     every account with a wallet gets a row in public.proposal_power:
--       own_power       = floor(0.8 x (balance - locked)), locked as in 20261126100000_trust_rule.sql
--                         (vested tokens only: a fresh account's welcome tokens carry no power);
--       delegated_power = the own_power of every account whose delegation pointed to it at that
--                         moment (one level, as before);
--       voting_power    = own_power + delegated_power, or 0 when the account itself had delegated
--                         (to a user or to the community pool, which abstains).
--     Power is counted once by construction: a delegator's power goes to its delegate, not both.
--     The rows are immutable: balance changes, new accounts and changes of delegation after that
--     moment change nothing on the proposal. A delegation changed mid-proposal counts from the
--     next proposal on ("changed only between proposals for power already snapshotted");
--   * cast_vote reads the snapshot: an account without a row (created after the proposal) is
--     refused with 'no_power'; an account whose power was delegated at the snapshot cannot vote on
--     it ('delegated', or 'power_already_used' once its delegate voted);
--   * quorum = 10 % (quorum_share) of the proposal's total snapshot voting power, rounded up, at
--     least 1; stored on the proposal (snapshot_power, quorum_power) when it is created;
--   * a proposal runs at least 24 hours (min_duration_hours; the form offers 1 to 14 days; 5 minutes
--     of network slack are accepted and the end is then moved to 24 hours after creation) and at
--     most 14 days;
--   * at close (close_due_proposals, run first by every governance read and write) the server
--     recomputes For and Against from the votes; 'passed' when For > Against and For + Against
--     reaches quorum_power, otherwise 'rejected'.

create or replace function public.governance_rules() returns json
language sql
immutable
set search_path = ''
as $$
  select json_build_object(
    'proposal_cost', 100,
    'min_balance', 100,
    'power_fraction', 0.8,
    'quorum_share', 0.1,
    'min_duration_hours', 24,
    'min_duration_days', 1,
    'max_duration_days', 14,
    'categories', json_build_array('platform', 'tokenomics', 'features', 'community', 'other'),
    'max_title', 120,
    'max_description', 4000
  )
$$;

alter table public.proposals
  add column snapshot_power bigint not null default 0 check (snapshot_power >= 0),
  add column quorum_power bigint not null default 0 check (quorum_power >= 0);

create table public.proposal_power (
  -- Deferred: the rows are written by the proposal's BEFORE INSERT trigger, before the proposal row exists.
  proposal_id uuid not null references public.proposals (id) on delete cascade deferrable initially deferred,
  user_id uuid not null references auth.users (id) on delete cascade,
  balance int not null,
  locked int not null check (locked >= 0),
  own_power bigint not null check (own_power >= 0),
  delegated_power bigint not null check (delegated_power >= 0),
  -- The account had delegated at the snapshot (delegate_id null then means the community pool).
  delegated boolean not null,
  delegate_id uuid references auth.users (id) on delete set null,
  voting_power bigint not null check (voting_power >= 0),
  primary key (proposal_id, user_id)
);
create index proposal_power_delegate_idx on public.proposal_power (proposal_id, delegate_id);
create index proposal_power_user_idx on public.proposal_power (user_id);

alter table public.proposal_power enable row level security;
-- An account reads its own power on each proposal; the public sees only the proposal's totals.
create policy proposal_power_read_own on public.proposal_power for select to authenticated using (user_id = (select auth.uid()));
revoke all on table public.proposal_power from anon, authenticated;
grant select on public.proposal_power to authenticated;
grant all on table public.proposal_power to service_role;

-- The live own power (what the next proposal's snapshot would take): floor(fraction x (balance - locked)).
create or replace function public.governance_own_power(p_user uuid) returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select floor((public.governance_rules() ->> 'power_fraction')::numeric * (a.balance - a.locked))::bigint
                     from public.account_trust(p_user) a), 0)
$$;

-- Writes the snapshot of one proposal and returns its total voting power.
create function public.snapshot_proposal_power(p_proposal_id uuid) returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_fraction constant numeric := (public.governance_rules() ->> 'power_fraction')::numeric;
  v_total bigint;
begin
  insert into public.proposal_power
    (proposal_id, user_id, balance, locked, own_power, delegated_power, delegated, delegate_id, voting_power)
  with a as (
    select t.user_id, t.balance, t.locked, greatest(floor(c_fraction * (t.balance - t.locked)), 0)::bigint as own
      from public.account_trust() t
  ), r as (
    -- What each delegate receives: the own power of its delegators (one level).
    select d.delegate_id, sum(a.own)::bigint as received
      from public.delegations d join a on a.user_id = d.delegator_id
     where d.delegate_id is not null
     group by d.delegate_id
  ), s as (
    select a.*, d.delegator_id is not null as delegated, d.delegate_id, coalesce(r.received, 0) as received
      from a
      left join public.delegations d on d.delegator_id = a.user_id
      left join r on r.delegate_id = a.user_id
  )
  select p_proposal_id, s.user_id, s.balance, s.locked, s.own, s.received, s.delegated, s.delegate_id,
         case when s.delegated then 0 else s.own + s.received end
    from s
  on conflict (proposal_id, user_id) do nothing;
  select coalesce(sum(voting_power), 0) into v_total from public.proposal_power where proposal_id = p_proposal_id;
  return v_total;
end
$$;

create function public.proposals_snapshot() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.snapshot_power := public.snapshot_proposal_power(new.id);
  new.quorum_power := greatest(ceil((public.governance_rules() ->> 'quorum_share')::numeric * new.snapshot_power), 1)::bigint;
  return new;
end
$$;
create trigger proposals_snapshot before insert on public.proposals
for each row execute function public.proposals_snapshot();

revoke execute on function public.snapshot_proposal_power(uuid), public.proposals_snapshot() from public, anon, authenticated, service_role;

-- Proposals created before this migration: the active ones are snapshotted now (their votes so far
-- keep the power they were cast with); the closed ones keep the fixed quorum of 100 they ran under.
do $$
declare
  v_id uuid;
  v_total bigint;
begin
  update public.proposals set quorum_power = 100 where status <> 'active';
  for v_id in select id from public.proposals where status = 'active' loop
    v_total := public.snapshot_proposal_power(v_id);
    update public.proposals
       set snapshot_power = v_total,
           quorum_power = greatest(ceil((public.governance_rules() ->> 'quorum_share')::numeric * v_total), 1)::bigint
     where id = v_id;
  end loop;
end
$$;

-- Closes every active proposal whose end has passed; the result is computed here from the votes.
create or replace function public.close_due_proposals() returns int
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_n int;
begin
  with due as (
    select p.id,
           coalesce(sum(v.power) filter (where v.choice = 'for'), 0)::bigint as yes,
           coalesce(sum(v.power) filter (where v.choice = 'against'), 0)::bigint as no,
           count(v.user_id)::int as voters
      from public.proposals p left join public.votes v on v.proposal_id = p.id
     where p.status = 'active' and p.ends_at <= now()
     group by p.id
  )
  update public.proposals p
     set votes_for = due.yes,
         votes_against = due.no,
         voter_count = due.voters,
         status = case when due.yes > due.no and due.yes + due.no >= p.quorum_power then 'passed' else 'rejected' end,
         closed_at = now()
    from due
   where p.id = due.id and p.status = 'active';
  get diagnostics v_n = row_count;
  return v_n;
end
$$;

-- {balance, locked, trusted, own_power, delegated_power, voting_power, delegation, delegators,
--  active_count, voted_active}: the live figures, i.e. what the next proposal's snapshot would take.
create or replace function public.governance_overview() returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_delegation public.delegations;
  v_trust json;
  v_delegated bigint;
  v_own bigint;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  perform public.close_due_proposals();
  select * into v_delegation from public.delegations where delegator_id = v_uid;
  v_trust := public.trust_status(v_uid);
  v_own := public.governance_own_power(v_uid);
  select coalesce(sum(public.governance_own_power(d.delegator_id)), 0) into v_delegated
    from public.delegations d
   where d.delegate_id = v_uid;
  return json_build_object(
    'balance', coalesce((select balance from public.user_tokens where user_id = v_uid), 0),
    'locked', (v_trust ->> 'locked')::int,
    'trusted', (v_trust ->> 'trusted')::boolean,
    'own_power', v_own,
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

-- Creates a proposal and burns its cost (idempotent per attempt, 20261125100500_proposal_attempts.sql).
-- The burn is posted before the proposal row is inserted, so the snapshot the insert takes sees the
-- author's balance after it. The proposal runs at least min_duration_hours.
create or replace function public.create_proposal(p_title text, p_description text, p_category text, p_ends_at timestamptz,
  p_attempt_key text default null) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_rules constant json := public.governance_rules();
  c_cost constant int := (c_rules ->> 'proposal_cost')::int;
  c_min constant interval := make_interval(hours => (c_rules ->> 'min_duration_hours')::int);
  v_uid uuid := auth.uid();
  v_balance int;
  v_proposal public.proposals;
  v_id uuid := gen_random_uuid();
  v_key text;
  v_first text;
  v_title text := btrim(coalesce(p_title, ''));
  v_description text := btrim(coalesce(p_description, ''));
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_attempt_key is null or char_length(p_attempt_key) not between 8 and 100 then
    raise exception 'invalid_attempt_key' using errcode = '22023',
      detail = 'Each proposal needs an attempt key of 8 to 100 characters; reload the page and try again.';
  end if;
  v_key := 'proposal:' || v_uid || ':' || p_attempt_key;

  perform public.init_user_tokens();
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  select reference into v_first from public.token_ledger where idempotency_key = v_key;
  if found then
    select * into v_proposal from public.proposals where id = v_first::uuid;
    return json_build_object('proposal', to_json(v_proposal), 'balance', v_balance, 'repeated', true);
  end if;

  if v_title = '' or v_description = '' or coalesce(p_category, '') = '' or p_ends_at is null then
    raise exception 'incomplete_proposal' using errcode = '22023', detail = 'Please fill out all fields';
  end if;
  if char_length(v_title) > (c_rules ->> 'max_title')::int or char_length(v_description) > (c_rules ->> 'max_description')::int then
    raise exception 'proposal_too_long' using errcode = '22001',
      detail = format('A title has at most %s characters and a description at most %s.',
        c_rules ->> 'max_title', c_rules ->> 'max_description');
  end if;
  if not exists (select 1 from json_array_elements_text(c_rules -> 'categories') c where c = p_category) then
    raise exception 'unknown_category' using errcode = '22023', detail = 'Choose one of the categories.';
  end if;
  if p_ends_at <= now() then
    raise exception 'end_date_in_past' using errcode = '22023', detail = 'The end date must be in the future.';
  end if;
  if p_ends_at < now() + c_min - interval '5 minutes'
     or p_ends_at > now() + make_interval(days => (c_rules ->> 'max_duration_days')::int, hours => 1) then
    raise exception 'invalid_duration' using errcode = '22023',
      detail = format('A proposal runs %s to %s days.', c_rules ->> 'min_duration_days', c_rules ->> 'max_duration_days');
  end if;
  if v_balance < (c_rules ->> 'min_balance')::int or v_balance < c_cost then
    raise exception 'insufficient_balance' using errcode = 'P0001',
      detail = format('You need at least %s CUBE to create a proposal', c_rules ->> 'min_balance');
  end if;

  v_balance := public.post_ledger(v_uid, -c_cost, 'proposal', v_id::text, v_key);
  insert into public.proposals (id, author_id, author_name, title, description, category, ends_at)
  values (v_id, v_uid, coalesce((select username from public.profiles where user_id = v_uid), 'listener'), v_title, v_description,
          p_category, greatest(p_ends_at, now() + c_min))
  returning * into v_proposal;
  return json_build_object('proposal', to_json(v_proposal), 'balance', v_balance, 'repeated', false);
end
$$;

-- Casts the caller's vote with the power of the proposal's snapshot. Returns {vote, proposal}.
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
   where s.proposal_id = p_proposal_id and s.delegated and s.delegate_id = v_uid
     and not public.governance_power_used(p_proposal_id, s.user_id);
  v_power := v_mine.own_power + v_delegated;
  if v_power <= 0 then
    raise exception 'insufficient_voting_power' using errcode = '22023',
      detail = case when v_mine.locked > 0
        then 'Your welcome tokens were still locked when this proposal was created, so they carry no voting power on it.'
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
