-- Listening time that earns is what the server can vouch for (issue 22, item 1).
--
-- The claimable pot (wallet_claim_status, 5 CUBE per hour) summed user_listening_history.seconds,
-- which credit_listen copied from the client's p_seconds (up to a day), and it also wrote rows for
-- listens refused by the daily cap. One call on an 85 s song made 120 CUBE claimable.
--
-- Now, in credit_listen (the one place every listen, catalogue or station, is judged):
--   * a credited listen records min(reported seconds, the track's real length, the wall-clock time
--     since this user's previous credited listen as the server stamped it); the previous credit's
--     stamp is read under the wallet's row lock, so concurrent reports cannot share one interval;
--   * a listen refused by the daily cap stays in the history as a play (discovery counts plays)
--     with 0 seconds; every other refusal records nothing, as before.
-- So a day's earning seconds are at most daily_cap x the track lengths, and never more than the
-- time that really passed. wallet_claim_status also caps each UTC day's seconds at
-- daily_cap x the longest publishable track (20 x 600 s = 3 h 20 min, i.e. at most 15 CUBE a day),
-- so no row, including any written before this migration, can lift the pot above the rules.
-- (The economy issue replaces this with server-measured listening sessions.)

create or replace function public.credit_listen(p_song_id text, p_duration numeric, p_reward int, p_seconds int, p_play_id text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  -- The rules, from their one source.
  c_listen constant json := public.reward_rules() -> 'listen';
  c_daily_cap constant int := (c_listen ->> 'daily_cap')::int;
  c_qualify_seconds constant numeric := (c_listen ->> 'qualify_seconds')::numeric;
  c_qualify_fraction constant numeric := (c_listen ->> 'qualify_fraction')::numeric;
  v_uid uuid := auth.uid();
  v_now timestamptz := clock_timestamp();
  v_today date := (clock_timestamp() at time zone 'utc')::date;
  v_wallet public.user_tokens;
  v_threshold numeric;
  v_key text;
  v_reason text;
  v_credited int := 0;
  v_earned int := 0;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_seconds is null or p_seconds < 0 or p_seconds > 86400 then
    raise exception 'invalid_seconds' using errcode = '22023';
  end if;
  if p_play_id is not null and char_length(p_play_id) not between 1 and 200 then
    raise exception 'invalid_play_id' using errcode = '22023';
  end if;

  -- Make sure the wallet exists (the welcome bonus comes with it), then lock it: every listen of
  -- this user waits here for the previous one to commit.
  perform public.init_user_tokens();
  select * into v_wallet from public.user_tokens where user_id = v_uid for update;

  if v_wallet.day <> v_today then
    update public.user_tokens
       set day = v_today, daily_earned = 0, listens_today = 0, updated_at = v_now
     where user_id = v_uid
    returning * into v_wallet;
  end if;

  v_key := 'listen:' || v_uid::text || ':' || coalesce(p_play_id, gen_random_uuid()::text);
  if p_duration is null then
    v_reason := 'unknown_song';
  else
    v_threshold := least(c_qualify_seconds, p_duration * c_qualify_fraction);
    if p_seconds < v_threshold then
      v_reason := 'below_threshold';
    elsif exists (select 1 from public.token_ledger where idempotency_key = v_key) then
      v_reason := 'already_credited';
    elsif v_wallet.listens_today >= c_daily_cap then
      v_reason := 'daily_cap';
    -- One second of slack absorbs network jitter between two honest reports.
    elsif v_wallet.last_credited_at is not null
          and v_now - v_wallet.last_credited_at < make_interval(secs => greatest(v_threshold - 1, 0)) then
      v_reason := 'too_soon';
    else
      v_reason := 'credited';
      v_credited := p_reward;
      -- What the server vouches for: no longer than the track, no longer than the time it saw pass.
      v_earned := least(p_seconds, ceil(p_duration)::int);
      if v_wallet.last_credited_at is not null then
        v_earned := least(v_earned, floor(extract(epoch from v_now - v_wallet.last_credited_at))::int);
      end if;
      insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
      values (v_uid, v_credited, 'listen', p_song_id, v_key);
      update public.user_tokens
         set balance = balance + v_credited,
             daily_earned = daily_earned + v_credited,
             listens_today = listens_today + 1,
             last_credited_at = v_now,
             updated_at = v_now
       where user_id = v_uid
      returning * into v_wallet;
    end if;
    if v_reason in ('credited', 'daily_cap') then
      insert into public.user_listening_history (user_id, song_id, listened_at, seconds)
      values (v_uid, p_song_id, v_now, v_earned);
    end if;
  end if;

  return json_build_object(
    'credited', v_credited,
    'balance', v_wallet.balance,
    'daily_earned', v_wallet.daily_earned,
    'listens_today', v_wallet.listens_today,
    'daily_cap', c_daily_cap,
    'cap_reached', v_wallet.listens_today >= c_daily_cap,
    'reason', v_reason
  );
end
$$;

-- The rules gain the per-day ceiling, derived from the rules it follows from.
create or replace function public.wallet_rules() returns json
language sql
stable
set search_path = ''
as $$
  select json_build_object(
    'welcome_tokens', 50,
    'claim_per_hour', 5,
    'claim_hour_seconds', 3600,
    -- At most this many listening seconds per UTC day count towards the pot.
    'claim_day_seconds', (public.reward_rules() -> 'listen' ->> 'daily_cap')::int * (public.publishing_rules() ->> 'max_seconds')::int,
    'mint_cost', 100,
    'nonce_ttl_seconds', 300,
    'max_royalty_percent', 50
  )
$$;

create or replace function public.wallet_claim_status() returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  c_rules constant json := public.wallet_rules();
  c_hour constant int := (c_rules ->> 'claim_hour_seconds')::int;
  c_per_hour constant int := (c_rules ->> 'claim_per_hour')::int;
  c_day constant bigint := (c_rules ->> 'claim_day_seconds')::bigint;
  v_uid uuid := auth.uid();
  v_seconds bigint;
  v_claimed bigint;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select coalesce(sum(least(d.seconds, c_day)), 0) into v_seconds
    from (select sum(h.seconds) as seconds from public.user_listening_history h
           where h.user_id = v_uid group by (h.listened_at at time zone 'utc')::date) d;
  select coalesce(sum(amount), 0) into v_claimed from public.token_ledger where user_id = v_uid and reason = 'claim' and amount > 0;
  return json_build_object(
    'listened_seconds', v_seconds,
    'hours', v_seconds / c_hour,
    'claimable', greatest((v_seconds / c_hour) * c_per_hour - v_claimed, 0),
    'claimed', v_claimed,
    'hour_progress', round((v_seconds % c_hour)::numeric / c_hour, 4)
  );
end
$$;
