-- Comments on songs, likes, and what a comment earns.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

CREATE TABLE public.comment_likes (
    comment_id uuid NOT NULL,
    user_id uuid NOT NULL,
    song_id text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT comment_likes_pkey PRIMARY KEY (comment_id, user_id),
    CONSTRAINT comment_likes_comment_id_fkey FOREIGN KEY (comment_id) REFERENCES public.comments(id) ON DELETE CASCADE,
    CONSTRAINT comment_likes_song_id_fkey FOREIGN KEY (song_id) REFERENCES public.songs(id) ON DELETE CASCADE,
    CONSTRAINT comment_likes_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX comment_likes_song_idx ON public.comment_likes USING btree (song_id);
CREATE INDEX comment_likes_user_idx ON public.comment_likes USING btree (user_id);
ALTER TABLE public.comment_likes ENABLE ROW LEVEL SECURITY;
CREATE POLICY comment_likes_read ON public.comment_likes FOR SELECT TO anon, authenticated USING ((public.profile_visible(user_id)
    AND (EXISTS ( SELECT 1
   FROM public.songs s
  WHERE (s.id = comment_likes.song_id)))));
CREATE TRIGGER comment_likes_realtime AFTER INSERT OR DELETE OR UPDATE ON public.comment_likes FOR EACH ROW EXECUTE FUNCTION
    cube_realtime.notify_change('song_id', 'comment_id');

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
CREATE TABLE public.comments (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    song_id text NOT NULL,
    user_id uuid,
    username text NOT NULL,
    parent_id uuid,
    body text NOT NULL,
    like_count integer DEFAULT 0 NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    edited_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    at_seconds numeric(8,3),
    CONSTRAINT comments_at_seconds_range CHECK (((at_seconds IS NULL) OR (at_seconds >= (0)::numeric))),
    CONSTRAINT comments_body_check CHECK ((char_length(body) <= 2000)),
    CONSTRAINT comments_body_present CHECK ((deleted OR (char_length(btrim(body)) > 0))),
    CONSTRAINT comments_like_count_check CHECK ((like_count >= 0)),
    CONSTRAINT comments_not_own_parent CHECK (((parent_id IS NULL) OR (parent_id <> id))),
    CONSTRAINT comments_pkey PRIMARY KEY (id),
    CONSTRAINT comments_parent_id_fkey FOREIGN KEY (parent_id) REFERENCES public.comments(id) ON DELETE CASCADE,
    CONSTRAINT comments_song_id_fkey FOREIGN KEY (song_id) REFERENCES public.songs(id) ON DELETE CASCADE,
    CONSTRAINT comments_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE SET NULL
);
CREATE INDEX comments_parent_idx ON public.comments USING btree (parent_id) WHERE (parent_id IS NOT NULL);
CREATE INDEX comments_song_idx ON public.comments USING btree (song_id, created_at DESC);
CREATE INDEX comments_user_idx ON public.comments USING btree (user_id, created_at DESC);
ALTER TABLE public.comments ENABLE ROW LEVEL SECURITY;

-- A comment is visible where its song is (the songs policy above, applied to the caller).
CREATE POLICY comments_read ON public.comments FOR SELECT TO anon, authenticated USING ((EXISTS ( SELECT 1
   FROM public.songs s
  WHERE (s.id = comments.song_id))));
CREATE TRIGGER comments_notice_reply AFTER INSERT ON public.comments FOR EACH ROW EXECUTE FUNCTION public.notice_on_reply();
CREATE TRIGGER comments_realtime AFTER INSERT OR DELETE OR UPDATE ON public.comments FOR EACH ROW EXECUTE FUNCTION
    cube_realtime.notify_change('song_id', 'user_id');

-- comment_credit: a comment's credit within its daily caps, then the address bound; the credit that
-- reaches the bound pays the rest.
create or replace function public.comment_credit(p_user uuid, p_amount int, p_reason text, p_ref text, p_key text, p_key_prefix text,
  p_cap int) returns int
language plpgsql security definer set search_path = '' as $$
declare
  v_day_start timestamptz := date_trunc('day', now() at time zone 'utc') at time zone 'utc';
  v_amount int;
begin
  if not exists (select 1 from public.user_tokens where user_id = p_user) then
    return 0;
  end if;
  if exists (select 1 from public.token_ledger where idempotency_key = p_key) then
    return 0;
  end if;
  if p_cap is not null and (
    select count(*) from public.token_ledger
     where user_id = p_user and reason = p_reason and created_at >= v_day_start and idempotency_key like p_key_prefix || '%'
  ) >= p_cap then
    return 0;
  end if;
  v_amount := public.address_allowance(p_amount);
  if v_amount <= 0 then
    return 0;
  end if;
  perform public.post_ledger(p_user, v_amount, p_reason, p_ref, p_key);
  return v_amount;
end
$$;

create or replace function public.comment_json(p_id uuid) returns json
language sql stable security definer set search_path = '' as $$
  select to_json(c) from public.comments c where c.id = p_id
$$;

-- Makes sure the caller has a wallet and locks the wallets of the given users in a fixed order
-- (two users replying to each other at once must not deadlock).
create or replace function public.comment_lock_wallets(p_users uuid[]) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform public.init_user_tokens();
  perform 1 from public.user_tokens where user_id = any (p_users) order by user_id for update;
end
$$;

create or replace function public.comment_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object(
    'max_length', 2000,
    'rewards', json_build_object('comment', 5, 'like', 2, 'reply', 3, 'reply_author', 3, 'daily_goal_bonus', 10),
    -- Credited rewards per user and UTC day.
    'daily_caps', json_build_object('comment', 10, 'like', 20, 'reply', 10, 'reply_author', 10),
    -- Tracks commented on in one UTC day for the bonus.
    'daily_goal_tracks', 5,
    -- Level = 1 + floor(tracks commented on / tracks_per_level).
    'tracks_per_level', 5
  )
$$;

-- Deletes the caller's comment. One with replies stays as 'comment deleted' (body emptied) so its
-- replies remain; a deleted parent whose last reply goes is removed too. Rewards already credited
-- stay credited, and their keys make re-posting earn nothing again.
create or replace function public.delete_comment(p_comment_id uuid) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_comment public.comments;
begin
  select * into v_comment from public.comments where id = p_comment_id and user_id = v_uid and not deleted for update;
  if not found then
    raise exception 'not_your_comment' using errcode = '42501', detail = 'Only the author can delete a comment.';
  end if;
  if exists (select 1 from public.comments where parent_id = p_comment_id) then
    delete from public.comment_likes where comment_id = p_comment_id;
    update public.comments set deleted = true, body = '', like_count = 0 where id = p_comment_id;
    return json_build_object('id', p_comment_id, 'kept_for_replies', true);
  end if;
  delete from public.comments where id = p_comment_id;
  if v_comment.parent_id is not null then
    delete from public.comments p
     where p.id = v_comment.parent_id and p.deleted
       and not exists (select 1 from public.comments r where r.parent_id = p.id);
  end if;
  return json_build_object('id', p_comment_id, 'kept_for_replies', false);
end
$$;

create or replace function public.edit_comment(p_comment_id uuid, p_body text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_body text := regexp_replace(coalesce(p_body, ''), '^\s+|\s+$', '', 'g');
  v_max int := (public.comment_rules() ->> 'max_length')::int;
begin
  if v_body = '' then
    raise exception 'empty_comment' using errcode = '22023', hint = 'Write something first.';
  end if;
  if char_length(v_body) > v_max then
    raise exception 'comment_too_long' using errcode = '22001', detail =
        format('A comment has at most %s characters; this one has %s.', v_max, char_length(v_body));
  end if;
  update public.comments set body = v_body, edited_at = now()
   where id = p_comment_id and user_id = v_uid and not deleted;
  if not found then
    raise exception 'not_your_comment' using errcode = '42501', detail = 'Only the author can edit a comment.';
  end if;
  return public.comment_json(p_comment_id);
end
$$;

-- The caller's Comments & Earn figures, from their real rows.
create or replace function public.my_comment_stats() returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  c_rules constant json := public.comment_rules();
  c_per_level constant int := (c_rules ->> 'tracks_per_level')::int;
  c_goal constant int := (c_rules ->> 'daily_goal_tracks')::int;
  v_uid uuid := public.require_uid();
  v_day text := to_char(now() at time zone 'utc', 'YYYY-MM-DD');
  v_tracks int;
  v_today int;
begin
  select count(distinct song_id) into v_tracks from public.comments where user_id = v_uid and not deleted;
  select count(*) into v_today from public.token_ledger
   where user_id = v_uid and reason = 'comment' and idempotency_key like 'comment:' || v_uid || ':%:' || v_day;
  return json_build_object(
    'total_comments', (select count(*) from public.comments where user_id = v_uid and not deleted),
    'tokens_earned', (select coalesce(sum(amount), 0) from public.token_ledger
                       where user_id = v_uid and reason in ('comment', 'like', 'reply', 'comment_goal')),
    'tracks_commented', v_tracks,
    'level', 1 + v_tracks / c_per_level,
    'tracks_to_next_level', c_per_level - v_tracks % c_per_level,
    'level_progress', round(100.0 * (v_tracks % c_per_level) / c_per_level),
    'goal_tracks_today', least(v_today, c_goal),
    'goal_tracks', c_goal,
    'goal_reached', exists (select 1 from public.token_ledger where idempotency_key = 'comment_goal:' || v_uid || ':' || v_day)
  );
end
$$;

-- post_comment: records the caller's address, and a reply pays neither the replier nor the comment's
-- author when the two accounts are linked.
create or replace function public.post_comment(p_song_id text, p_body text, p_parent_id uuid default null,
  p_at_seconds numeric default null)
returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.comment_rules();
  v_uid uuid := public.require_uid();
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
  perform public.note_account_client(v_uid);
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
  elsif v_parent.user_id = v_uid or not public.accounts_linked(v_uid, v_parent.user_id) then
    -- A reply to one's own comment pays the replier only, as before; between linked accounts, nobody.
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

-- set_comment_like: records the caller's address; a like pays the liker only when the liker is not
-- linked to the comment's author.
create or replace function public.set_comment_like(p_comment_id uuid, p_liked boolean) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.comment_rules();
  v_uid uuid := public.require_uid();
  v_comment public.comments;
  v_got int := 0;
  v_count int;
begin
  if p_liked is null then
    raise exception 'invalid_like' using errcode = '22023';
  end if;
  perform public.comment_lock_wallets(array[v_uid]);
  -- Locks the comment: concurrent likes of it count one after the other.
  select * into v_comment from public.comments where id = p_comment_id for update;
  if not found or v_comment.deleted then
    raise exception 'unknown_comment' using errcode = '22023', detail = 'That comment does not exist (any more).';
  end if;
  if p_liked then
    perform public.note_account_client(v_uid);
    insert into public.comment_likes (comment_id, user_id, song_id) values (p_comment_id, v_uid, v_comment.song_id)
    on conflict do nothing;
    if found then
      update public.comments set like_count = like_count + 1 where id = p_comment_id;
    end if;
    if not public.accounts_linked(v_uid, v_comment.user_id) then
      v_got := public.comment_credit(v_uid, (c_rules -> 'rewards' ->> 'like')::int, 'like', p_comment_id::text,
        'like:' || v_uid || ':' || p_comment_id, 'like:', (c_rules -> 'daily_caps' ->> 'like')::int);
    end if;
  else
    delete from public.comment_likes where comment_id = p_comment_id and user_id = v_uid;
    if found then
      update public.comments set like_count = like_count - 1 where id = p_comment_id;
    end if;
  end if;
  select like_count into v_count from public.comments where id = p_comment_id;
  return json_build_object(
    'liked', p_liked,
    'like_count', v_count,
    'credited', case when v_got > 0 then json_build_array(json_build_object('reason', 'like', 'amount', v_got)) else '[]'::json end,
    'balance', (select balance from public.user_tokens where user_id = v_uid)
  );
end
$$;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.comment_likes, public.comments FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON TABLE public.comment_likes, public.comments TO service_role;
GRANT SELECT ON TABLE public.comment_likes, public.comments TO anon, authenticated;
REVOKE ALL ON FUNCTION public.comment_credit(p_user uuid, p_amount integer, p_reason text, p_ref text, p_key text, p_key_prefix
    text, p_cap integer), public.comment_json(p_id uuid), public.comment_lock_wallets(p_users uuid[]), public.comment_rules(),
    public.delete_comment(p_comment_id uuid), public.edit_comment(p_comment_id uuid, p_body text), public.my_comment_stats(),
    public.post_comment(p_song_id text, p_body text, p_parent_id uuid, p_at_seconds numeric), public.set_comment_like(p_comment_id
    uuid, p_liked boolean) FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.comment_rules() TO anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.delete_comment(p_comment_id uuid), public.edit_comment(p_comment_id uuid, p_body text),
    public.my_comment_stats(), public.post_comment(p_song_id text, p_body text, p_parent_id uuid, p_at_seconds numeric),
    public.set_comment_like(p_comment_id uuid, p_liked boolean) TO authenticated, service_role;
GRANT ALL ON FUNCTION public.comment_credit(p_user uuid, p_amount integer, p_reason text, p_ref text, p_key text, p_key_prefix
    text, p_cap integer), public.comment_json(p_id uuid), public.comment_lock_wallets(p_users uuid[]) TO service_role;
