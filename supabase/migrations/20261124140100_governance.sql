-- Governance: proposals, votes and delegation, decided by the server.
--
-- Rules (public.governance_rules(), the one source the client reads by rpc):
--   * creating a proposal needs a balance of at least 100 CUBE and burns 100 CUBE (ledger 'proposal');
--     its end date lies 1 hour to 14 days (+1 hour of slack) ahead; the form offers 1-14 days;
--   * voting power = floor(0.8 x balance) of the voter, plus floor(0.8 x balance) of every user who
--     delegated to them (one level: power delegated to someone who has delegated in turn is not
--     passed on), all computed by the server at vote time; the client never sends a power;
--   * one vote per user per proposal, never changed, only while the proposal is active; a user who
--     has delegated cannot vote; a delegator whose power a delegate already used on a proposal
--     cannot vote on it after undelegating, and a delegator who voted before delegating is not
--     counted again;
--   * delegating to the community pool means abstaining: the pool does not vote;
--   * closing: when ends_at has passed the proposal is closed by public.close_due_proposals(),
--     which every governance read and write runs first (close-on-read: no client action or job
--     needed); result 'passed' when For > Against and For + Against reaches the quorum of 100
--     voting power, otherwise 'rejected'.

create function public.governance_rules() returns json
language sql
immutable
set search_path = ''
as $$
  select json_build_object(
    'proposal_cost', 100,
    'min_balance', 100,
    'power_fraction', 0.8,
    'quorum', 100,
    'min_duration_days', 1,
    'max_duration_days', 14,
    'categories', json_build_array('platform', 'tokenomics', 'features', 'community', 'other'),
    'max_title', 120,
    'max_description', 4000
  )
$$;
revoke execute on function public.governance_rules() from public;
grant execute on function public.governance_rules() to anon, authenticated, service_role;

create table public.proposals (
  id uuid primary key default gen_random_uuid(),
  author_id uuid not null references auth.users (id) on delete cascade,
  author_name text not null,
  title text not null check (char_length(btrim(title)) between 1 and 120),
  description text not null check (char_length(btrim(description)) between 1 and 4000),
  category text not null check (category in ('platform', 'tokenomics', 'features', 'community', 'other')),
  status text not null default 'active' check (status in ('active', 'passed', 'rejected')),
  votes_for bigint not null default 0 check (votes_for >= 0),
  votes_against bigint not null default 0 check (votes_against >= 0),
  voter_count int not null default 0 check (voter_count >= 0),
  created_at timestamptz not null default now(),
  ends_at timestamptz not null,
  closed_at timestamptz,
  constraint proposals_ends_after_start check (ends_at > created_at)
);
create index proposals_status_idx on public.proposals (status, ends_at);

create table public.votes (
  proposal_id uuid not null references public.proposals (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  choice text not null check (choice in ('for', 'against')),
  power bigint not null check (power > 0),
  -- Whose delegated power this vote carried (they cannot vote on this proposal themselves).
  delegators uuid[] not null default '{}',
  created_at timestamptz not null default now(),
  primary key (proposal_id, user_id)
);
create index votes_user_idx on public.votes (user_id, created_at desc);

create table public.delegations (
  delegator_id uuid primary key references auth.users (id) on delete cascade,
  -- null: the community pool.
  delegate_id uuid references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  constraint delegations_not_self check (delegate_id is null or delegate_id <> delegator_id)
);
create index delegations_delegate_idx on public.delegations (delegate_id);

alter table public.proposals enable row level security;
alter table public.votes enable row level security;
alter table public.delegations enable row level security;
-- Proposals and their tallies are public; a vote is seen by its voter; a delegation by both ends.
create policy proposals_read on public.proposals for select to anon, authenticated using (true);
create policy votes_read_own on public.votes for select to authenticated using (user_id = (select auth.uid()));
create policy delegations_read_own on public.delegations for select to authenticated
  using (delegator_id = (select auth.uid()) or delegate_id = (select auth.uid()));

revoke all on table public.proposals, public.votes, public.delegations from anon, authenticated;
grant select on public.proposals to anon, authenticated;
grant select on public.votes, public.delegations to authenticated;
grant all on table public.proposals, public.votes, public.delegations to service_role;

create trigger proposals_realtime after insert or update or delete on public.proposals
for each row execute function cube_realtime.notify_change('status');
-- No DELETE events for votes: a DELETE reaches subscribers without an RLS check (the row is gone)
-- and its key names the voter, which only the voter may see.
create trigger votes_realtime after insert or update on public.votes
for each row execute function cube_realtime.notify_change('proposal_id', 'user_id');

do $$
begin
  if exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    alter publication supabase_realtime add table public.proposals, public.votes;
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- Closes every active proposal whose end has passed. Run first by every governance function.
create function public.close_due_proposals() returns int
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_quorum constant bigint := (public.governance_rules() ->> 'quorum')::bigint;
  v_n int;
begin
  update public.proposals
     set status = case when votes_for > votes_against and votes_for + votes_against >= v_quorum then 'passed' else 'rejected' end,
         closed_at = now()
   where status = 'active' and ends_at <= now();
  get diagnostics v_n = row_count;
  return v_n;
end
$$;

-- The caller's own power: floor(fraction x balance).
create function public.governance_own_power(p_user uuid) returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(floor((public.governance_rules() ->> 'power_fraction')::numeric * balance)::bigint, 0)
    from (select (select balance from public.user_tokens where user_id = p_user) as balance) b
$$;

-- Proposals (all, newest first) after closing due ones: the list every page reads.
create function public.governance_proposals() returns setof public.proposals
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.close_due_proposals();
  return query select * from public.proposals order by created_at desc;
end
$$;

-- {balance, own_power, delegated_power, voting_power, delegation, active_count, voted_active}
create function public.governance_overview() returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_delegation public.delegations;
  v_delegated bigint;
  v_own bigint;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  perform public.close_due_proposals();
  select * into v_delegation from public.delegations where delegator_id = v_uid;
  v_own := public.governance_own_power(v_uid);
  select coalesce(sum(public.governance_own_power(d.delegator_id)), 0) into v_delegated
    from public.delegations d
   where d.delegate_id = v_uid;
  return json_build_object(
    'balance', coalesce((select balance from public.user_tokens where user_id = v_uid), 0),
    'own_power', v_own,
    'delegated_power', v_delegated,
    'voting_power', case when v_delegation.delegator_id is null then v_own + v_delegated else 0 end,
    'delegation', case when v_delegation.delegator_id is null then null else json_build_object(
      'delegate_id', v_delegation.delegate_id,
      'delegate_name', (select username from public.profiles where user_id = v_delegation.delegate_id),
      'since', v_delegation.created_at) end,
    'active_count', (select count(*) from public.proposals where status = 'active'),
    'voted_active', (select count(*) from public.votes v join public.proposals p on p.id = v.proposal_id
                      where v.user_id = v_uid and p.status = 'active')
  );
end
$$;

-- Creates a proposal and burns its cost. Returns {proposal, balance}.
create function public.create_proposal(p_title text, p_description text, p_category text, p_ends_at timestamptz) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_rules constant json := public.governance_rules();
  c_cost constant int := (c_rules ->> 'proposal_cost')::int;
  v_uid uuid := auth.uid();
  v_balance int;
  v_proposal public.proposals;
  v_title text := btrim(coalesce(p_title, ''));
  v_description text := btrim(coalesce(p_description, ''));
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if v_title = '' or v_description = '' or coalesce(p_category, '') = '' or p_ends_at is null then
    raise exception 'incomplete_proposal' using errcode = '22023', detail = 'Please fill out all fields';
  end if;
  if char_length(v_title) > (c_rules ->> 'max_title')::int or char_length(v_description) > (c_rules ->> 'max_description')::int then
    raise exception 'proposal_too_long' using errcode = '22001',
      detail = format('A title has at most %s characters and a description at most %s.', c_rules ->> 'max_title', c_rules ->> 'max_description');
  end if;
  if not exists (select 1 from json_array_elements_text(c_rules -> 'categories') c where c = p_category) then
    raise exception 'unknown_category' using errcode = '22023', detail = 'Choose one of the categories.';
  end if;
  if p_ends_at <= now() then
    raise exception 'end_date_in_past' using errcode = '22023', detail = 'The end date must be in the future.';
  end if;
  if p_ends_at < now() + interval '1 hour' or p_ends_at > now() + make_interval(days => (c_rules ->> 'max_duration_days')::int, hours => 1) then
    raise exception 'invalid_duration' using errcode = '22023',
      detail = format('A proposal runs %s to %s days.', c_rules ->> 'min_duration_days', c_rules ->> 'max_duration_days');
  end if;

  perform public.init_user_tokens();
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  if v_balance < (c_rules ->> 'min_balance')::int or v_balance < c_cost then
    raise exception 'insufficient_balance' using errcode = 'P0001',
      detail = format('You need at least %s CUBE to create a proposal', c_rules ->> 'min_balance');
  end if;

  insert into public.proposals (author_id, author_name, title, description, category, ends_at)
  values (v_uid, coalesce((select username from public.profiles where user_id = v_uid), 'listener'), v_title, v_description, p_category, p_ends_at)
  returning * into v_proposal;
  insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
  values (v_uid, -c_cost, 'proposal', v_proposal.id::text, 'proposal:' || v_uid || ':' || v_proposal.id);
  update public.user_tokens set balance = balance - c_cost, updated_at = clock_timestamp()
   where user_id = v_uid returning balance into v_balance;
  return json_build_object('proposal', to_json(v_proposal), 'balance', v_balance);
end
$$;

-- Casts the caller's vote with the power the server computes now. Returns {vote, proposal}.
create function public.cast_vote(p_proposal_id uuid, p_choice text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_proposal public.proposals;
  v_own bigint;
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
  -- The voter's wallet lock serialises this user's votes; the proposal's lock its tallies.
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
  if exists (select 1 from public.delegations where delegator_id = v_uid) then
    raise exception 'delegated' using errcode = '22023', detail = 'You have delegated your voting power: undelegate to vote yourself.';
  end if;
  if exists (select 1 from public.votes where proposal_id = p_proposal_id and v_uid = any (delegators)) then
    raise exception 'power_already_used' using errcode = '22023', detail = 'Your delegate already voted on this proposal with your power.';
  end if;

  -- Lock the delegators' wallets (delegating and voting lock the same row): a delegator's own vote
  -- or change of delegation in flight finishes first, and the checks below then see it.
  perform 1 from public.user_tokens
   where user_id in (select delegator_id from public.delegations where delegate_id = v_uid)
   order by user_id for update;
  v_own := public.governance_own_power(v_uid);
  select coalesce(array_agg(d.delegator_id), '{}'), coalesce(sum(public.governance_own_power(d.delegator_id)), 0)
    into v_delegators, v_delegated
    from public.delegations d
   where d.delegate_id = v_uid
     and not exists (select 1 from public.votes v where v.proposal_id = p_proposal_id and v.user_id = d.delegator_id);
  v_power := v_own + v_delegated;
  if v_power <= 0 then
    raise exception 'insufficient_voting_power' using errcode = '22023', detail = 'You need CUBE tokens to participate in governance';
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

-- Delegates the caller's power to a user (by username) or, with null, to the community pool.
create function public.delegate_voting_power(p_username text default null) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_delegate uuid;
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
  end if;
  insert into public.delegations (delegator_id, delegate_id) values (v_uid, v_delegate)
  on conflict (delegator_id) do update set delegate_id = excluded.delegate_id, created_at = now();
  return public.governance_overview();
end
$$;

create function public.undelegate_voting_power() returns json
language plpgsql
security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  perform 1 from public.user_tokens where user_id = auth.uid() for update;
  delete from public.delegations where delegator_id = auth.uid();
  return public.governance_overview();
end
$$;

-- The caller's votes with their proposals (Your Voting History).
create function public.my_votes() returns table (proposal_id uuid, title text, choice text, power bigint, voted_at timestamptz, status text, ends_at timestamptz)
language plpgsql
security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  perform public.close_due_proposals();
  return query
    select v.proposal_id, p.title, v.choice, v.power, v.created_at, p.status, p.ends_at
      from public.votes v join public.proposals p on p.id = v.proposal_id
     where v.user_id = auth.uid()
     order by v.created_at desc;
end
$$;

revoke execute on function public.close_due_proposals(), public.governance_own_power(uuid) from public, anon, authenticated;
revoke execute on function
  public.governance_proposals(), public.governance_overview(), public.create_proposal(text, text, text, timestamptz),
  public.cast_vote(uuid, text), public.delegate_voting_power(text), public.undelegate_voting_power(), public.my_votes()
from public, anon;
grant execute on function public.governance_proposals() to anon;
grant execute on function
  public.governance_proposals(), public.governance_overview(), public.create_proposal(text, text, text, timestamptz),
  public.cast_vote(uuid, text), public.delegate_voting_power(text), public.undelegate_voting_power(), public.my_votes()
to authenticated, service_role;
