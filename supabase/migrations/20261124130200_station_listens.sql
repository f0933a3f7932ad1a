-- CUBE Radio's pieces earn under the same server rules as any track.
--
-- A station piece is not a catalogue row: the client reports it by its recipe id (the generator's
-- share id, 'v1.<base64url of [description, mood, genre]>', the piece's /track/{id}). The server
-- recognises a station piece by the description the programme gives it ('CUBE Radio <UTC day> #<slot>: …')
-- and credits it only while that slot is (or just was) on air. The listening rules stay in one place:
-- record_listen's body moves into credit_listen(key, duration, reward, …), which both record_listen
-- (catalogue songs, same behaviour) and record_station_listen (station pieces) call.

create function public.station_rules() returns json
language sql
stable
set search_path = ''
as $$
  select json_build_object(
    -- Each piece's slot; a piece sounds slot + crossfade seconds (src/engine/station/programme.ts).
    'slot_seconds', 60,
    'crossfade_seconds', 6,
    -- CUBE per qualifying listen of a station piece.
    'reward', 2,
    -- A listen is accepted up to this many slots after the piece's own (reports arrive late).
    'late_slots', 2
  )
$$;
revoke execute on function public.station_rules() from public;
grant execute on function public.station_rules() to anon, authenticated, service_role;

create function public.credit_listen(p_song_id text, p_duration numeric, p_reward int, p_seconds int, p_play_id text) returns json
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


-- record_listen: unchanged behaviour, its body now credit_listen's.
create or replace function public.record_listen(p_song_id text, p_seconds int, p_play_id text default null) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_song public.songs;
begin
  select * into v_song from public.songs where id = p_song_id;
  return public.credit_listen(p_song_id, v_song.duration_seconds, v_song.reward, p_seconds, p_play_id);
end
$$;

-- A station piece by its recipe id; 'unknown_song' unless it is a piece of the programme on air now
-- or in the last late_slots slots.
create function public.record_station_listen(p_recipe_id text, p_seconds int, p_play_id text default null) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_rules constant json := public.station_rules();
  c_slot constant int := (c_rules ->> 'slot_seconds')::int;
  v_b64 text;
  v_recipe json;
  v_match text[];
  v_started timestamptz;
  v_now timestamptz := clock_timestamp();
begin
  if p_recipe_id is null or char_length(p_recipe_id) > 800 or p_recipe_id !~ '^v1\.[A-Za-z0-9_-]{4,}$' then
    raise exception 'invalid_recipe' using errcode = '22023';
  end if;
  v_b64 := translate(substr(p_recipe_id, 4), '-_', '+/');
  v_b64 := v_b64 || repeat('=', (4 - char_length(v_b64) % 4) % 4);
  begin
    v_recipe := convert_from(decode(v_b64, 'base64'), 'UTF8')::json;
  exception when others then
    raise exception 'invalid_recipe' using errcode = '22023';
  end;
  v_match := regexp_match(v_recipe ->> 0, '^CUBE Radio (\d{4}-\d{2}-\d{2}) #(\d{1,4}): ');
  if v_match is not null then
    v_started := (v_match[1]::date)::timestamp at time zone 'utc' + make_interval(secs => v_match[2]::int * c_slot);
  end if;
  if v_match is null or v_started > v_now
     or v_now >= v_started + make_interval(secs => c_slot * (1 + (c_rules ->> 'late_slots')::int)) then
    return public.credit_listen(p_recipe_id, null, null, p_seconds, p_play_id);
  end if;
  return public.credit_listen('radio:' || v_match[1] || ':' || v_match[2], c_slot + (c_rules ->> 'crossfade_seconds')::int,
                              (c_rules ->> 'reward')::int, p_seconds, p_play_id);
end
$$;

revoke execute on function public.credit_listen(text, numeric, int, int, text) from public, anon, authenticated;
grant execute on function public.credit_listen(text, numeric, int, int, text) to service_role;
revoke execute on function public.record_station_listen(text, int, text) from public, anon;
grant execute on function public.record_station_listen(text, int, text) to authenticated, service_role;
