-- Creating a proposal is idempotent per attempt (issue 22: every action that creates or spends is
-- idempotent per attempt, as remix, mint and publishing are).
--
-- create_proposal burns 100 CUBE; a double submit or a retry after a lost answer made a second
-- proposal and burnt 100 more. The app now sends one attempt key per proposal form; the burn's
-- ledger row carries it ('proposal:<user>:<key>', unique like every idempotency key), and a call
-- with a key already used answers that first proposal ({proposal, balance, repeated: true})
-- before the balance is looked at again. The user's wallet lock, taken first, serialises their
-- calls, so racing repeats wait for the first and then find it. A refused call stores nothing.
-- A call without a key is refused in words. The signature gains p_attempt_key: the old function
-- is replaced, not overloaded (PostgREST could not choose between the two).

drop function public.create_proposal(text, text, text, timestamptz);

create function public.create_proposal(p_title text, p_description text, p_category text, p_ends_at timestamptz, p_attempt_key text default null) returns json
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
  if v_balance < (c_rules ->> 'min_balance')::int or v_balance < c_cost then
    raise exception 'insufficient_balance' using errcode = 'P0001',
      detail = format('You need at least %s CUBE to create a proposal', c_rules ->> 'min_balance');
  end if;

  insert into public.proposals (author_id, author_name, title, description, category, ends_at)
  values (v_uid, coalesce((select username from public.profiles where user_id = v_uid), 'listener'), v_title, v_description, p_category, p_ends_at)
  returning * into v_proposal;
  insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
  values (v_uid, -c_cost, 'proposal', v_proposal.id::text, v_key);
  update public.user_tokens set balance = balance - c_cost, updated_at = clock_timestamp()
   where user_id = v_uid returning balance into v_balance;
  return json_build_object('proposal', to_json(v_proposal), 'balance', v_balance, 'repeated', false);
end
$$;
revoke execute on function public.create_proposal(text, text, text, timestamptz, text) from public, anon;
grant execute on function public.create_proposal(text, text, text, timestamptz, text) to authenticated, service_role;
