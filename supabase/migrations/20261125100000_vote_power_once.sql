-- Each unit of voting power counts at most once per proposal, whoever carries it (issue 22, item 4).
--
-- cast_vote (20261124140100_governance.sql) skipped a delegator only when the delegator had voted
-- in person. A delegator whose power one delegate had already cast could move the delegation to a
-- second delegate, whose vote then carried the same power again (240 real power counted as 320).
--
-- The one rule now: a user's power is used on a proposal once any vote on it names the user, as
-- its voter or among its delegators (public.governance_power_used). cast_vote applies it to the
-- voter and to every delegator. The delegators it counts are exactly the delegation rows it has
-- locked (delegate_voting_power and undelegate_voting_power write those rows, so a delegation
-- cannot move while a vote that counts it is in flight), and the "already used" check runs in a
-- later statement, so it sees every vote committed before those locks were granted.

create function public.governance_power_used(p_proposal_id uuid, p_user uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.votes v
                  where v.proposal_id = p_proposal_id and (v.user_id = p_user or p_user = any (v.delegators)))
$$;
revoke execute on function public.governance_power_used(uuid, uuid) from public, anon, authenticated;

create or replace function public.cast_vote(p_proposal_id uuid, p_choice text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_proposal public.proposals;
  v_candidates uuid[];
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
  if public.governance_power_used(p_proposal_id, v_uid) then
    raise exception 'power_already_used' using errcode = '22023', detail = 'Your delegate already voted on this proposal with your power.';
  end if;

  -- Lock the delegators' wallets (delegating and voting lock the same row): a delegator's own vote
  -- in flight finishes first. Then lock their delegation rows to this voter: those rows, and only
  -- those, are the power this vote may carry.
  perform 1 from public.user_tokens
   where user_id in (select delegator_id from public.delegations where delegate_id = v_uid)
   order by user_id for update;
  select coalesce(array_agg(l.delegator_id), '{}') into v_candidates
    from (select d.delegator_id from public.delegations d where d.delegate_id = v_uid order by d.delegator_id for update) l;

  v_own := public.governance_own_power(v_uid);
  select coalesce(array_agg(c.id), '{}'), coalesce(sum(public.governance_own_power(c.id)), 0)
    into v_delegators, v_delegated
    from unnest(v_candidates) c(id)
   where not public.governance_power_used(p_proposal_id, c.id);
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
