-- Proposals, votes, delegation and the voting power snapshot.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

CREATE TABLE public.delegations (
    delegator_id uuid NOT NULL,
    delegate_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT delegations_not_self CHECK (((delegate_id IS NULL) OR (delegate_id <> delegator_id))),
    CONSTRAINT delegations_pkey PRIMARY KEY (delegator_id),
    CONSTRAINT delegations_delegate_id_fkey FOREIGN KEY (delegate_id) REFERENCES auth.users(id) ON DELETE CASCADE,
    CONSTRAINT delegations_delegator_id_fkey FOREIGN KEY (delegator_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX delegations_delegate_idx ON public.delegations USING btree (delegate_id);
ALTER TABLE public.delegations ENABLE ROW LEVEL SECURITY;
CREATE POLICY delegations_read_own ON public.delegations FOR SELECT TO authenticated USING (((delegator_id = ( SELECT auth.uid() AS
    uid)) OR (delegate_id = ( SELECT auth.uid() AS uid))));

CREATE TABLE public.proposal_power (
    proposal_id uuid NOT NULL,
    user_id uuid NOT NULL,
    balance integer NOT NULL,
    locked integer NOT NULL,
    own_power bigint NOT NULL,
    delegated_power bigint NOT NULL,
    delegated boolean NOT NULL,
    delegate_id uuid,
    voting_power bigint NOT NULL,
    delegation_counted boolean DEFAULT true NOT NULL,
    power_days integer,
    CONSTRAINT proposal_power_delegated_power_check CHECK ((delegated_power >= 0)),
    CONSTRAINT proposal_power_locked_check CHECK ((locked >= 0)),
    CONSTRAINT proposal_power_own_power_check CHECK ((own_power >= 0)),
    CONSTRAINT proposal_power_power_days_check CHECK ((power_days >= 0)),
    CONSTRAINT proposal_power_voting_power_check CHECK ((voting_power >= 0)),
    CONSTRAINT proposal_power_pkey PRIMARY KEY (proposal_id, user_id),
    CONSTRAINT proposal_power_delegate_id_fkey FOREIGN KEY (delegate_id) REFERENCES auth.users(id) ON DELETE SET NULL,
    CONSTRAINT proposal_power_proposal_id_fkey FOREIGN KEY (proposal_id) REFERENCES public.proposals(id) ON DELETE CASCADE
        DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT proposal_power_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
-- power_days: the listening days the account's own power was weighted with (governance_power);
-- null in snapshots taken before voting power matured with listening.
CREATE INDEX proposal_power_delegate_idx ON public.proposal_power USING btree (proposal_id, delegate_id);
CREATE INDEX proposal_power_user_idx ON public.proposal_power USING btree (user_id);
ALTER TABLE public.proposal_power ENABLE ROW LEVEL SECURITY;

-- An account reads its own power on each proposal; the public sees only the proposal's totals.
CREATE POLICY proposal_power_read_own ON public.proposal_power FOR SELECT TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)));

CREATE TABLE public.proposals (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    author_id uuid,
    author_name text NOT NULL,
    title text NOT NULL,
    description text NOT NULL,
    category text NOT NULL,
    status text DEFAULT 'active'::text NOT NULL,
    votes_for bigint DEFAULT 0 NOT NULL,
    votes_against bigint DEFAULT 0 NOT NULL,
    voter_count integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    ends_at timestamp with time zone NOT NULL,
    closed_at timestamp with time zone,
    snapshot_power bigint DEFAULT 0 NOT NULL,
    quorum_power bigint DEFAULT 0 NOT NULL,
    CONSTRAINT proposals_category_check CHECK ((category = ANY (ARRAY['platform'::text, 'tokenomics'::text, 'features'::text,
        'community'::text, 'other'::text]))),
    CONSTRAINT proposals_deleted_author_anonymous CHECK (((author_id IS NOT NULL) OR (author_name = 'Deleted account'::text))),
    CONSTRAINT proposals_description_check CHECK (((char_length(btrim(description)) >= 1) AND (char_length(btrim(description)) <= 4000))),
    CONSTRAINT proposals_ends_after_start CHECK ((ends_at > created_at)),
    CONSTRAINT proposals_quorum_power_check CHECK ((quorum_power >= 0)),
    CONSTRAINT proposals_snapshot_power_check CHECK ((snapshot_power >= 0)),
    CONSTRAINT proposals_status_check CHECK ((status = ANY (ARRAY['active'::text, 'passed'::text, 'rejected'::text]))),
    CONSTRAINT proposals_title_check CHECK (((char_length(btrim(title)) >= 1) AND (char_length(btrim(title)) <= 120))),
    CONSTRAINT proposals_voter_count_check CHECK ((voter_count >= 0)),
    CONSTRAINT proposals_votes_against_check CHECK ((votes_against >= 0)),
    CONSTRAINT proposals_votes_for_check CHECK ((votes_for >= 0)),
    CONSTRAINT proposals_pkey PRIMARY KEY (id),
    CONSTRAINT proposals_author_id_fkey FOREIGN KEY (author_id) REFERENCES auth.users(id) ON DELETE SET NULL
);
CREATE INDEX proposals_status_idx ON public.proposals USING btree (status, ends_at);
ALTER TABLE public.proposals ENABLE ROW LEVEL SECURITY;

-- Proposals and their tallies are public; a vote is seen by its voter; a delegation by both ends.
CREATE POLICY proposals_read ON public.proposals FOR SELECT TO anon, authenticated USING (true);
CREATE TRIGGER proposals_anonymise_author BEFORE INSERT OR UPDATE ON public.proposals FOR EACH ROW EXECUTE FUNCTION
    public.proposals_anonymise_author();
CREATE TRIGGER proposals_notice_close AFTER UPDATE OF status ON public.proposals FOR EACH ROW EXECUTE FUNCTION
    public.notice_on_proposal_close();
CREATE TRIGGER proposals_realtime AFTER INSERT OR DELETE OR UPDATE ON public.proposals FOR EACH ROW EXECUTE FUNCTION
    cube_realtime.notify_change('status');
CREATE TRIGGER proposals_snapshot BEFORE INSERT ON public.proposals FOR EACH ROW EXECUTE FUNCTION public.proposals_snapshot();

CREATE TABLE public.votes (
    proposal_id uuid NOT NULL,
    user_id uuid NOT NULL,
    choice text NOT NULL,
    power bigint NOT NULL,
    delegators uuid[] DEFAULT '{}'::uuid[] NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT votes_choice_check CHECK ((choice = ANY (ARRAY['for'::text, 'against'::text]))),
    CONSTRAINT votes_power_check CHECK ((power > 0)),
    CONSTRAINT votes_pkey PRIMARY KEY (proposal_id, user_id),
    CONSTRAINT votes_proposal_id_fkey FOREIGN KEY (proposal_id) REFERENCES public.proposals(id) ON DELETE CASCADE,
    CONSTRAINT votes_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX votes_user_idx ON public.votes USING btree (user_id, created_at DESC);
ALTER TABLE public.votes ENABLE ROW LEVEL SECURITY;
CREATE POLICY votes_read_own ON public.votes FOR SELECT TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)));

-- No DELETE events for votes: a DELETE reaches subscribers without an RLS check (the row is gone)
-- and its key names the voter, which only the voter may see.
CREATE TRIGGER votes_realtime AFTER INSERT OR UPDATE ON public.votes FOR EACH ROW EXECUTE FUNCTION
    cube_realtime.notify_change('proposal_id', 'user_id');

-- cast_vote: a delegate votes with the delegations its snapshot counted (delegation_counted), and
-- the words of a vote without power say that an untrusted account's whole balance is locked.
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

-- Closes every active proposal whose end has passed; the result is computed here from the votes.
create or replace function public.close_due_proposals() returns int
language plpgsql security definer set search_path = '' as $$
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

-- Creates a proposal and burns its cost, idempotent per attempt key.
-- The burn is posted before the proposal row is inserted, so the snapshot the insert takes sees the
-- author's balance after it. The proposal runs at least min_duration_hours.
create or replace function public.create_proposal(p_title text, p_description text, p_category text, p_ends_at timestamptz,
  p_attempt_key text default null) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.governance_rules();
  c_cost constant int := (c_rules ->> 'proposal_cost')::int;
  c_min constant interval := make_interval(hours => (c_rules ->> 'min_duration_hours')::int);
  v_uid uuid := public.require_uid();
  v_balance int;
  v_proposal public.proposals;
  v_id uuid := gen_random_uuid();
  v_key text;
  v_first text;
  v_title text := btrim(coalesce(p_title, ''));
  v_description text := btrim(coalesce(p_description, ''));
begin
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

-- delegate_voting_power: an untrusted account has nothing to delegate, and linked accounts cannot
-- delegate to each other.
create or replace function public.delegate_voting_power(p_username text default null) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_delegate uuid;
  v_trust json;
begin
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

-- {balance, locked, trusted, own_power, power_days, delegated_power, voting_power, delegation, delegators,
--  active_count, voted_active}: the live figures, i.e. what the next proposal's snapshot would take
-- (power_days: the listening days governance_power weighs own_power with).
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

-- The live own power (what the next proposal's snapshot would take), governance_power of the
-- account's votable CUBE and listening days.
create or replace function public.governance_own_power(p_user uuid) returns bigint
language sql stable security definer set search_path = '' as $$
  select coalesce((select public.governance_power(a.balance - a.locked, coalesce(m.power_days, 0))
                     from public.account_trust(p_user) a
                     left join public.governance_listening_days(p_user) m on m.user_id = a.user_id), 0)
$$;

-- Voting power matures with listening: floor(power_fraction x votable CUBE x days / full_power_days),
-- days being the distinct UTC days with credited listens in the last power_window_days, at most
-- full_power_days. The trust rule decides whether CUBE vote at all (locked is everything of an
-- untrusted account); this decides how much: an account that waited out the trust rule with
-- listening on 3 days votes with a tenth of its CUBE, one that listened on 30 days of the last
-- 180 with all of it. A voter costs what a listener spends, a month of listening days, so sybils
-- cannot outweigh established listeners with accounts that only waited out the trust rule.
-- Only the server writes credited listens (listen_report, dated now(); offline plays are
-- credited 0), so the days cannot be claimed by the client.
create or replace function public.governance_power(p_votable bigint, p_days int) returns bigint
language sql immutable set search_path = '' as $$
  select greatest(floor((public.governance_rules() ->> 'power_fraction')::numeric * greatest(p_votable, 0)
                        * least(greatest(p_days, 0), (public.governance_rules() ->> 'full_power_days')::int)
                        / (public.governance_rules() ->> 'full_power_days')::int), 0)::bigint
$$;

-- Per account (all, or p_user): the distinct UTC days with credited listens (the trust rule's
-- listen reason, amount > 0) within governance_rules().power_window_days, at most full_power_days.
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

create or replace function public.governance_power_used(p_proposal_id uuid, p_user uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.votes v
                  where v.proposal_id = p_proposal_id and (v.user_id = p_user or p_user = any (v.delegators)))
$$;

-- Proposals (all, newest first) after closing due ones: the list every page reads.
create or replace function public.governance_proposals() returns setof public.proposals
language plpgsql security definer set search_path = '' as $$
begin
  perform public.close_due_proposals();
  return query select * from public.proposals order by created_at desc;
end
$$;

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

-- The caller's votes with their proposals (Your Voting History).
create or replace function public.my_votes() returns table (proposal_id uuid, title text, choice text, power bigint, voted_at
    timestamptz, status text, ends_at timestamptz)
language plpgsql security definer set search_path = '' as $$
begin
  perform public.require_uid();
  perform public.close_due_proposals();
  return query
    select v.proposal_id, p.title, v.choice, v.power, v.created_at, p.status, p.ends_at
      from public.votes v join public.proposals p on p.id = v.proposal_id
     where v.user_id = auth.uid()
     order by v.created_at desc;
end
$$;

create or replace function public.proposals_anonymise_author() returns trigger
language plpgsql set search_path = '' as $$
begin
  if new.author_id is null then
    new.author_name := 'Deleted account';
  end if;
  return new;
end
$$;

create or replace function public.proposals_snapshot() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  new.snapshot_power := public.snapshot_proposal_power(new.id);
  new.quorum_power := greatest(ceil((public.governance_rules() ->> 'quorum_share')::numeric * new.snapshot_power), 1)::bigint;
  return new;
end
$$;

-- The snapshot taken when a proposal is made: own power as governance_power weighs it (votable CUBE
-- and listening days); delegated power counts only from a trusted delegator to a delegate trusted
-- now and not linked to it.
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

create or replace function public.undelegate_voting_power() returns json
language plpgsql security definer set search_path = '' as $$
begin
  perform public.require_uid();
  perform 1 from public.user_tokens where user_id = auth.uid() for update;
  delete from public.delegations where delegator_id = auth.uid();
  return public.governance_overview();
end
$$;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.delegations, public.proposal_power, public.proposals, public.votes FROM PUBLIC, anon, authenticated,
    service_role;
GRANT ALL ON TABLE public.delegations, public.proposal_power, public.proposals, public.votes TO service_role;
GRANT SELECT ON TABLE public.proposals TO anon, authenticated;
GRANT SELECT ON TABLE public.delegations, public.proposal_power, public.votes TO authenticated;
REVOKE ALL ON FUNCTION public.cast_vote(p_proposal_id uuid, p_choice text), public.close_due_proposals(),
    public.create_proposal(p_title text, p_description text, p_category text, p_ends_at timestamp with time zone, p_attempt_key
    text), public.delegate_voting_power(p_username text), public.governance_overview(), public.governance_own_power(p_user uuid),
    public.governance_listening_days(p_user uuid), public.governance_power(p_votable bigint, p_days integer),
    public.governance_power_used(p_proposal_id uuid, p_user uuid), public.governance_proposals(), public.governance_rules(),
    public.my_votes(), public.proposals_anonymise_author(), public.proposals_snapshot(),
    public.snapshot_proposal_power(p_proposal_id uuid), public.undelegate_voting_power() FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.governance_proposals(), public.governance_rules() TO anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.cast_vote(p_proposal_id uuid, p_choice text), public.create_proposal(p_title text, p_description text,
    p_category text, p_ends_at timestamp with time zone, p_attempt_key text), public.delegate_voting_power(p_username text),
    public.governance_overview(), public.my_votes(), public.undelegate_voting_power() TO authenticated, service_role;
GRANT ALL ON FUNCTION public.close_due_proposals(), public.governance_own_power(p_user uuid),
    public.governance_listening_days(p_user uuid), public.governance_power(p_votable bigint, p_days integer),
    public.governance_power_used(p_proposal_id uuid, p_user uuid), public.proposals_anonymise_author() TO service_role;
