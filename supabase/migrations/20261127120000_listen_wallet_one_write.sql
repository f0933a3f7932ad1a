-- A credited listen writes its wallet row once (issue 28, "Fast": `npm run bench -- listen-sql`).
--
-- Measured with pg_stat_statements (track = all) under the bench: the listen updated the wallet row
-- twice, its balance in post_ledger() and then its daily counters in listen_settle(), each write a
-- new row version (together 0.059 ms of the call's 0.26 ms); and listen_lock() planned its
-- `= any (array)` query again on every call (0.012 ms), because a plan for an array of unknown
-- length never looked as cheap as the one made for the two ids at hand.
--
-- * post_ledger() moves the daily listen counters (listens_today, daily_earned) in the same
--   update as the balance when it posts a 'listen' row. That also means no path can pay a listen
--   without counting it toward the daily cap. Every other reason leaves them as they are.
-- * listen_settle() no longer updates them itself; otherwise it is unchanged.
-- * The wallet's check constraint on listens_today read the daily cap through reward_rules(). A
--   constraint's expression is prepared again for every statement that writes the table, so every
--   update of any wallet (a listen's, a comment's, a claim's) parsed, inlined and built the whole
--   rules object: 0.025 of the 0.033 ms the update took (an immutable SQL function in its place
--   still cost 0.010 ms, parsed to be inlined). The constraint says 20 again, as it did first; the
--   rules stay the source, and tests/backend/backend-migrations.test.ts checks the two agree.
-- * listen_lock() locks the (at most two) wallets through a query whose plan is kept: each
--   caller passes the listener and the song's creator, possibly null.

create or replace function public.post_ledger(p_user uuid, p_amount int, p_reason text, p_reference text, p_key text) returns int
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_balance int;
  v_listen constant boolean := p_reason = 'listen';
begin
  insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
  values (p_user, p_amount, p_reason, p_reference, p_key);
  update public.user_tokens
     set balance = balance + p_amount,
         updated_at = clock_timestamp(),
         listens_today = listens_today + case when v_listen then 1 else 0 end,
         daily_earned = daily_earned + case when v_listen then p_amount else 0 end
   where user_id = p_user
  returning balance into v_balance;
  if not found then
    raise exception 'no_wallet' using errcode = 'P0002', detail = 'The account has no wallet yet';
  end if;
  -- Callers check the balance first and answer in words; this is the floor under all of them.
  if v_balance < 0 then
    raise exception 'insufficient_balance' using errcode = 'P0001';
  end if;
  return v_balance;
end
$$;

alter table public.user_tokens drop constraint user_tokens_listens_today_check;
alter table public.user_tokens add constraint user_tokens_listens_today_check
  check (listens_today between 0 and 20);

create or replace function public.listen_lock(p_users uuid[]) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if cardinality(p_users) > 2 then
    raise exception 'listen_lock takes the listener and the creator' using errcode = '22023';
  end if;
  perform 1 from public.user_tokens where user_id in (p_users[1], p_users[2]) order by user_id for update;
end
$$;

create or replace function public.listen_settle(p_session uuid, p_playing boolean, p_end boolean) returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_rules constant jsonb := public.reward_rules()::jsonb;
  c_listen constant jsonb := c_rules -> 'listen';
  c_creator constant jsonb := c_rules -> 'creator';
  c_daily_cap constant int := (c_listen ->> 'daily_cap')::int;
  c_cube_cap constant int := (c_listen ->> 'daily_cube_cap')::int;
  v_credit int;
  v_now timestamptz := clock_timestamp();
  v_day_start timestamptz := date_trunc('day', clock_timestamp() at time zone 'utc') at time zone 'utc';
  v_s public.listening_sessions;
  v_wallet public.user_tokens;
  v_active boolean;
  v_gap numeric;
  v_add numeric := 0;
  v_heard numeric;
  v_earning numeric;
  v_threshold numeric;
  v_outcome text;
  v_credited int;
  v_history bigint;
begin
  select * into v_s from public.listening_sessions where id = p_session for update;
  select * into v_wallet from public.user_tokens where user_id = v_s.user_id;
  if v_s.ended_at is not null then
    return v_s;
  end if;
  v_active := v_now - v_wallet.last_interaction_at <= make_interval(secs => (c_listen ->> 'inactive_after_seconds')::int);
  if v_s.playing then
    v_gap := least(extract(epoch from v_now - v_s.last_report_at), (c_listen ->> 'heartbeat_grace_seconds')::numeric);
    v_add := greatest(least(v_gap, v_s.duration_seconds - v_s.heard_seconds), 0);
  end if;
  -- What the row becomes; written once, below.
  v_heard := v_s.heard_seconds + v_add;
  v_earning := v_s.earning_seconds + case when v_active then v_add else 0 end;
  v_outcome := v_s.outcome;
  v_credited := v_s.credited;
  v_history := v_s.history_id;

  v_threshold := least((c_listen ->> 'qualify_seconds')::numeric, v_s.duration_seconds * (c_listen ->> 'qualify_fraction')::numeric);
  if v_s.credited > 0 or v_s.outcome in ('own_song', 'song_limit', 'daily_cap', 'cube_cap') or v_heard < v_threshold then
    if v_s.history_id is not null then
      update public.user_listening_history set seconds = floor(v_earning)::int where id = v_s.history_id;
    end if;
  elsif not v_active then
    -- Idle for too long: nothing earns until the listener interacts ('inactive' stays undecided).
    v_outcome := 'inactive';
  elsif v_earning < v_threshold then
    -- Only time heard while the listener counted as active qualifies a listen.
    v_outcome := null;
  else
    if v_wallet.day <> (v_now at time zone 'utc')::date then
      update public.user_tokens set day = (v_now at time zone 'utc')::date, daily_earned = 0, listens_today = 0
       where user_id = v_s.user_id returning * into v_wallet;
    end if;
    if v_s.creator_id = v_s.user_id then
      v_outcome := 'own_song';
    elsif (select count(*) from public.listening_sessions o
            where o.user_id = v_s.user_id and o.song_id = v_s.song_id and o.credited > 0 and o.started_at >= v_day_start)
          >= (c_listen ->> 'song_daily_limit')::int then
      v_outcome := 'song_limit';
    elsif v_wallet.listens_today >= c_daily_cap then
      v_outcome := 'daily_cap';
    else
      -- What listening may still pay today; the listen that reaches the cap pays the rest.
      v_credit := least(v_s.reward, c_cube_cap - coalesce((select sum(amount) from public.token_ledger
                                                            where user_id = v_s.user_id and reason = 'listen'
                                                              and created_at >= v_day_start), 0)::int);
      v_outcome := case when v_credit > 0 then 'credited' else 'cube_cap' end;
    end if;

    if v_outcome = 'credited' then
      -- post_ledger() also counts the listen in the wallet's daily counters (same row write).
      perform public.post_ledger(v_s.user_id, v_credit, 'listen', v_s.song_id, 'listen:' || v_s.id::text);
      insert into public.user_listening_history (user_id, song_id, listened_at, seconds)
      values (v_s.user_id, v_s.song_id, v_now, floor(v_earning)::int)
      returning id into v_history;
      v_credited := v_credit;
      if v_s.creator_id is not null
         and exists (select 1 from public.user_tokens where user_id = v_s.creator_id)
         and not public.listener_linked_to_creator(v_s.user_id, v_s.creator_id)
         and (select count(*) from public.token_ledger
               where user_id = v_s.creator_id and reason = 'creator' and created_at >= v_day_start)
             < (c_creator ->> 'daily_cap')::int then
        perform public.post_ledger(v_s.creator_id, (c_creator ->> 'reward')::int, 'creator', v_s.song_id, 'creator:' || v_s.id::text);
      end if;
    elsif v_outcome <> 'own_song' then
      -- A refused listen is still a play (discovery counts plays), with no earning seconds.
      insert into public.user_listening_history (user_id, song_id, listened_at, seconds) values (v_s.user_id, v_s.song_id, v_now, 0);
    end if;
  end if;

  update public.listening_sessions
     set heard_seconds = v_heard,
         earning_seconds = v_earning,
         last_report_at = v_now,
         playing = p_playing and not p_end,
         ended_at = case when p_end then v_now end,
         outcome = v_outcome,
         credited = v_credited,
         history_id = v_history
   where id = v_s.id
  returning * into v_s;
  return v_s;
end
$$;
