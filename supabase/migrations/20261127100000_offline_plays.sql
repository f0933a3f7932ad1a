-- Plays made offline (issue 24, "Offline and install"): a listener plays songs saved on the device
-- with the network off, and the app reports those plays when it is back online.
--
-- The rules decide what they earn: a listen earns CUBE only for time the server measured itself
-- (listen_start, then listen_report), and nobody measured time that passed offline, so an offline
-- play is recorded as a play (listening history, discovery's play counts) and credits nothing. The
-- client says only which song it played and when; its word is not taken for how long.
-- * One record per play: the play key is the session key (unique per user), so a repeated or
--   raced report records the play once.
-- * When: no later than now and no earlier than seven days ago (a device offline longer than that
--   reports nothing for those days).
-- * How many: at most 50 offline plays per listener in any 24 hours (the plays a day of music
--   holds), so a client that makes plays up cannot flood discovery's counts.

create function public.listen_offline(p_song_id text, p_play_id text, p_played_at timestamptz) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_max_age constant interval := interval '7 days';
  c_daily_plays constant int := 50;
  v_uid uuid := auth.uid();
  v_now timestamptz := clock_timestamp();
  v_song public.songs;
  v_id uuid;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_play_id is null or char_length(p_play_id) not between 1 and 200 then
    raise exception 'invalid_play_id' using errcode = '22023', detail = 'A play id of 1 to 200 characters is required';
  end if;
  if p_played_at is null or p_played_at > v_now + interval '5 minutes' then
    raise exception 'invalid_played_at' using errcode = '22023', detail = 'An offline play needs the time it was played, not in the future';
  end if;
  select * into v_song from public.songs where id = p_song_id;
  if not found then
    return json_build_object('recorded', false, 'credited', 0, 'reason', 'unknown_song');
  end if;
  if p_played_at < v_now - c_max_age then
    return json_build_object('recorded', false, 'credited', 0, 'reason', 'too_old');
  end if;
  perform public.init_user_tokens();
  -- Every listen call of this user waits here, so concurrent reports count against the cap in turn.
  perform 1 from public.user_tokens where user_id = v_uid for update;
  if exists (select 1 from public.listening_sessions where user_id = v_uid and play_key = p_play_id) then
    return json_build_object('recorded', false, 'credited', 0, 'reason', 'duplicate');
  end if;
  if (select count(*) from public.listening_sessions
       where user_id = v_uid and outcome = 'offline' and last_report_at > v_now - interval '24 hours') >= c_daily_plays then
    return json_build_object('recorded', false, 'credited', 0, 'reason', 'offline_limit');
  end if;
  insert into public.listening_sessions
    (user_id, play_key, song_id, duration_seconds, reward, creator_id, client_address, started_at, last_report_at,
     playing, outcome, ended_at)
  values (v_uid, p_play_id, v_song.id, v_song.duration_seconds, v_song.reward, v_song.owner_id, public.note_account_client(v_uid),
          least(p_played_at, v_now), v_now, false, 'offline', v_now)
  returning id into v_id;
  insert into public.user_listening_history (user_id, song_id, listened_at, seconds)
  values (v_uid, v_song.id, least(p_played_at, v_now), 0);
  return json_build_object('recorded', true, 'credited', 0, 'reason', 'offline', 'session_id', v_id);
end
$$;
revoke execute on function public.listen_offline(text, text, timestamptz) from public, anon;
grant execute on function public.listen_offline(text, text, timestamptz) to authenticated;
