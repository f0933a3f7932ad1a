-- Comments pinned to a moment of the song (issue 24, "Comments on the waveform"), as SoundCloud's.
--
-- A top-level comment may carry the moment it is about (at_seconds: the playhead when posting, or
-- where the listener clicked the waveform); markers on the waveform of Now Playing and the song's
-- page show them, live for everyone (comments are already published to Realtime), and seek there.
-- Threads, rewards and rules stay as they are: post_comment gains one optional argument and
-- refuses, in words, a moment outside the song or on a reply (replies belong to their comment's
-- moment). It is recreated whole (a new argument changes its signature; an overload would make
-- PostgREST's call by argument names ambiguous), with the same grants.

alter table public.comments add column at_seconds numeric(8,3)
  constraint comments_at_seconds_range check (at_seconds is null or at_seconds >= 0);

drop function public.post_comment(text, text, uuid);

-- Posts a comment (p_parent_id null) or a reply to a top-level comment of the same song; a
-- top-level comment may be pinned to p_at_seconds. Returns {comment, credited: [{reason, amount}], balance}.
create function public.post_comment(p_song_id text, p_body text, p_parent_id uuid default null, p_at_seconds numeric default null)
returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_rules constant json := public.comment_rules();
  v_uid uuid := auth.uid();
  v_day text := to_char(now() at time zone 'utc', 'YYYY-MM-DD');
  v_body text := regexp_replace(coalesce(p_body, ''), '^\s+|\s+$', '', 'g');
  v_parent public.comments;
  v_username text;
  v_id uuid;
  v_got int;
  v_credited jsonb := '[]'::jsonb;
  v_tracks_today int;
  v_length numeric;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if v_body = '' then
    raise exception 'empty_comment' using errcode = '22023', hint = 'Write something first.';
  end if;
  if char_length(v_body) > (c_rules ->> 'max_length')::int then
    raise exception 'comment_too_long' using errcode = '22001',
      detail = format('A comment has at most %s characters; this one has %s.', c_rules ->> 'max_length', char_length(v_body));
  end if;
  if p_song_id is null or not exists (select 1 from public.songs where id = p_song_id) then
    raise exception 'unknown_song' using errcode = '22023', detail = 'There is no such song.';
  end if;
  if p_parent_id is not null then
    select * into v_parent from public.comments where id = p_parent_id;
    if not found or v_parent.song_id <> p_song_id then
      raise exception 'unknown_comment' using errcode = '22023', detail = 'The comment you reply to does not exist.';
    end if;
    if v_parent.parent_id is not null then
      raise exception 'reply_to_reply' using errcode = '22023', detail = 'Replies cannot be replied to.';
    end if;
    if v_parent.deleted then
      raise exception 'comment_deleted' using errcode = '22023', detail = 'The comment you reply to was deleted.';
    end if;
  end if;

  if p_at_seconds is not null then
    if p_parent_id is not null then
      raise exception 'invalid_moment' using errcode = '22023', detail = 'A reply belongs to the moment of the comment it answers.';
    end if;
    select duration_seconds into v_length from public.songs where id = p_song_id;
    if p_at_seconds = 'NaN'::numeric or p_at_seconds < 0 or (v_length is not null and p_at_seconds > v_length) then
      raise exception 'invalid_moment' using errcode = '22023',
        detail = format('A comment can be pinned to a moment between 0:00 and the end of the song (%s s); %s s is not in it.',
                        coalesce(round(v_length)::text, '?'), p_at_seconds::text);
    end if;
  end if;

  perform public.comment_lock_wallets(array_remove(array[v_uid, v_parent.user_id], null));
  select username into v_username from public.profiles where user_id = v_uid;
  insert into public.comments (song_id, user_id, username, parent_id, body, at_seconds)
  values (p_song_id, v_uid, coalesce(v_username, 'listener'), p_parent_id, v_body, round(p_at_seconds, 3))
  returning id into v_id;

  if p_parent_id is null then
    v_got := public.comment_credit(v_uid, (c_rules -> 'rewards' ->> 'comment')::int, 'comment', p_song_id,
      'comment:' || v_uid || ':' || p_song_id || ':' || v_day, 'comment:', (c_rules -> 'daily_caps' ->> 'comment')::int);
    if v_got > 0 then
      v_credited := v_credited || jsonb_build_array(jsonb_build_object('reason', 'comment', 'amount', v_got));
      select count(*) into v_tracks_today from public.token_ledger
       where user_id = v_uid and reason = 'comment' and idempotency_key like 'comment:' || v_uid || ':%:' || v_day;
      if v_tracks_today >= (c_rules ->> 'daily_goal_tracks')::int then
        v_got := public.comment_credit(v_uid, (c_rules -> 'rewards' ->> 'daily_goal_bonus')::int, 'comment_goal', v_day,
          'comment_goal:' || v_uid || ':' || v_day, 'comment_goal:', null);
        if v_got > 0 then
          v_credited := v_credited || jsonb_build_array(jsonb_build_object('reason', 'comment_goal', 'amount', v_got));
        end if;
      end if;
    end if;
  else
    v_got := public.comment_credit(v_uid, (c_rules -> 'rewards' ->> 'reply')::int, 'reply', p_parent_id::text,
      'reply:' || v_uid || ':' || p_parent_id, 'reply:', (c_rules -> 'daily_caps' ->> 'reply')::int);
    if v_got > 0 then
      v_credited := v_credited || jsonb_build_array(jsonb_build_object('reason', 'reply', 'amount', v_got));
    end if;
    if v_parent.user_id <> v_uid then
      -- The author's credit; not returned to the replier as theirs.
      perform public.comment_credit(v_parent.user_id, (c_rules -> 'rewards' ->> 'reply_author')::int, 'reply', v_id::text,
        'reply_author:' || p_parent_id || ':' || v_uid, 'reply_author:', (c_rules -> 'daily_caps' ->> 'reply_author')::int);
    end if;
  end if;

  return json_build_object(
    'comment', public.comment_json(v_id),
    'credited', v_credited,
    'balance', (select balance from public.user_tokens where user_id = v_uid)
  );
end
$$;

revoke execute on function public.post_comment(text, text, uuid, numeric) from public, anon;
grant execute on function public.post_comment(text, text, uuid, numeric) to authenticated, service_role;
