-- Starting a play ends the account's previous session and settles it (one active session per
-- account). That settle can credit the previous song: its last heartbeat came before the threshold,
-- the skip after it. The answer to the start used to describe only the new session, so the balance
-- it carried rose by the previous song's reward with no word of why, and a listener saw the song
-- that had just begun "earn" after a second. The answer now also names what the settle decided
-- for the previous session ('previous': its song, the credit, the reason), so the client can say
-- "+3 CUBE · <that song>". Nothing else about the start changes.

create or replace function public.listen_begin(p_song_id text, p_duration numeric, p_reward int, p_creator uuid,
                                               p_play_id text, p_interacted boolean)
returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_now timestamptz := clock_timestamp();
  v_session public.listening_sessions;
  v_previous public.listening_sessions;
  v_settled public.listening_sessions;
  v_prior_outcome text;
  v_answer jsonb;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_play_id is null or char_length(p_play_id) not between 1 and 200 then
    raise exception 'invalid_play_id' using errcode = '22023', detail = 'A play id of 1 to 200 characters is required';
  end if;
  perform public.init_user_tokens();
  -- Every listen call of this user waits here, with the wallets the previous session may pay.
  select * into v_previous from public.listening_sessions where user_id = v_uid and ended_at is null;
  perform public.listen_lock(array[v_uid, v_previous.creator_id]);

  select * into v_session from public.listening_sessions where user_id = v_uid and play_key = p_play_id;
  if found then
    return public.listen_answer(v_session);
  end if;
  if p_duration is null then
    return json_build_object('session_id', null, 'credited', 0, 'reason', 'unknown_song');
  end if;
  if p_interacted then
    update public.user_tokens set last_interaction_at = v_now where user_id = v_uid;
  end if;
  select * into v_previous from public.listening_sessions where user_id = v_uid and ended_at is null for update;
  if found then
    v_prior_outcome := v_previous.outcome;
    v_settled := public.listen_settle(v_previous.id, false, true);
  end if;
  insert into public.listening_sessions
    (user_id, play_key, song_id, duration_seconds, reward, creator_id, client_address, started_at, last_report_at)
  values (v_uid, p_play_id, p_song_id, p_duration, p_reward, p_creator, public.note_account_client(v_uid), v_now, v_now)
  returning * into v_session;
  v_answer := public.listen_answer(v_session)::jsonb;
  -- Only a decision the settle made just now is news; one already answered was already shown.
  if v_settled.id is not null and v_settled.outcome is distinct from v_prior_outcome then
    v_answer := v_answer || jsonb_build_object('previous', jsonb_build_object(
      'session_id', v_settled.id,
      'song_id', v_settled.song_id,
      'heard_seconds', floor(v_settled.heard_seconds),
      'credited', v_settled.credited,
      'reason', v_settled.outcome));
  end if;
  return v_answer::json;
end
$$;
revoke execute on function public.listen_begin(text, numeric, int, uuid, text, boolean) from public, anon, authenticated;
