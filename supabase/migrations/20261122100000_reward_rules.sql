-- One source for the listening-reward rules (house issue "one source per fact").
--
-- public.reward_rules() is the only place the rules are written. Everything that applies or shows
-- them reads them from there:
--   * record_listen (redefined below, same behaviour): the qualifying listening time
--     min(qualify_seconds, qualify_fraction x the track's length) and the daily cap;
--   * the wallet's constraint that no code path can exceed the daily cap;
--   * the default reward of a song inserted without one;
--   * the client, through rpc('reward_rules') (src/backend/rewards.ts), instead of its own copies.
-- Each song's reward is public.songs.reward (seeded by the generated *_catalogue_seed.sql).
-- To change a rule, add a later migration that replaces this function.

create function public.reward_rules() returns json
language sql
stable
set search_path = ''
as $$
  select json_build_object(
    'listen', json_build_object(
      -- A listen qualifies once it has really played min(qualify_seconds, qualify_fraction x length).
      'qualify_seconds', 30,
      'qualify_fraction', 0.5,
      -- Credited listens per user and UTC day.
      'daily_cap', 20,
      -- CUBE per qualifying listen of a song that has no reward of its own.
      'default_reward', 2
    )
  )
$$;

revoke execute on function public.reward_rules() from public;
grant execute on function public.reward_rules() to anon, authenticated, service_role;

-- The daily cap is also a constraint (was: listens_today between 0 and 20).
alter table public.user_tokens drop constraint user_tokens_listens_today_check;
alter table public.user_tokens add constraint user_tokens_listens_today_check
  check (listens_today >= 0 and listens_today <= (public.reward_rules() -> 'listen' ->> 'daily_cap')::int);

-- A song's default reward (was: default 2).
alter table public.songs alter column reward
  set default ((public.reward_rules() -> 'listen' ->> 'default_reward')::int);

-- record_listen as in 20261121000000_cube_core.sql, its constants now read from reward_rules().
-- create or replace keeps its owner and grants (authenticated and service_role only).
create or replace function public.record_listen(p_song_id text, p_seconds int, p_play_id text default null) returns json
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
  v_song public.songs;
  v_threshold numeric;
  v_key text;
  v_reason text;
  v_credited int := 0;
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
  select * into v_song from public.songs where id = p_song_id;

  if not found then
    v_reason := 'unknown_song';
  else
    v_threshold := least(c_qualify_seconds, v_song.duration_seconds * c_qualify_fraction);
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
      v_credited := v_song.reward;
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
      values (v_uid, p_song_id, v_now, p_seconds);
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
