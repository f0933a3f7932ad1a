-- Comments & Earn: threaded comments on any song (one reply level), likes, and the CUBE they earn.
--
-- Clients only read these tables; every write goes through the security-definer functions below,
-- which credit rewards on the server (never the client) with idempotency keys and daily caps:
--   * comment 5 CUBE: the first top-level comment on a track per UTC day, at most 10 tracks a day;
--     deleting and re-posting on the same track the same day earns nothing more;
--   * like given 2 CUBE: once per comment ever (unlike + like again earns nothing), not for liking
--     your own comment, at most 20 credited likes a day;
--   * reply 3 CUBE to the replier, once per parent comment ever, at most 10 a day; and 3 CUBE to the
--     parent comment's author, once per (parent, replier), never for replying to yourself, at most
--     10 such credits a day for the author;
--   * daily goal bonus 10 CUBE ('comment_goal'), once per UTC day, when the 5th track of the day
--     earns its comment reward.
-- All of these constants live in public.comment_rules(), the one source the client reads by rpc.
-- Engagement level: level = 1 + floor(tracks commented on (distinct songs with a comment that is
-- not deleted) / 5); the next level needs the next multiple of 5.
--
-- Realtime: comments and comment_likes changes are published (pg_notify on channel
-- 'cube_realtime', read by supabase/local/realtime/; the supabase_realtime publication on hosted
-- Supabase), and the local Realtime service re-reads every changed row as each subscriber, so RLS
-- decides who sees what.

-- ---------------------------------------------------------------------------------------------
-- Realtime change notifications (shared by every table that opts in with one trigger)
-- ---------------------------------------------------------------------------------------------

create schema if not exists cube_realtime;
revoke all on schema cube_realtime from public;

-- Sends {schema, table, type, pk, cols, commit_timestamp}: the primary key of the changed row and
-- the columns named in the trigger's arguments (those subscribers may filter on), never the whole
-- row (NOTIFY payloads are limited to 8000 bytes, and the row is re-read per subscriber anyway).
create function cube_realtime.notify_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
  v_pk jsonb := '{}'::jsonb;
  v_cols jsonb := '{}'::jsonb;
  v_name text;
begin
  for v_name in
    select a.attname from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
     where i.indrelid = tg_relid and i.indisprimary
  loop
    v_pk := v_pk || jsonb_build_object(v_name, v_row -> v_name);
  end loop;
  if tg_nargs > 0 then
    foreach v_name in array tg_argv loop
      v_cols := v_cols || jsonb_build_object(v_name, v_row -> v_name);
    end loop;
  end if;
  perform pg_notify('cube_realtime', jsonb_build_object(
    'schema', tg_table_schema, 'table', tg_table_name, 'type', tg_op,
    'pk', v_pk, 'cols', v_cols, 'commit_timestamp', now()
  )::text);
  return null;
end
$$;
revoke execute on function cube_realtime.notify_change() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Rules
-- ---------------------------------------------------------------------------------------------

create function public.comment_rules() returns json
language sql
immutable
set search_path = ''
as $$
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
revoke execute on function public.comment_rules() from public;
grant execute on function public.comment_rules() to anon, authenticated, service_role;

insert into public.ledger_reasons (reason, kind, description) values
  ('comment_goal', 'earn', 'Daily comment goal bonus');

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------

create table public.comments (
  id uuid primary key default gen_random_uuid(),
  song_id text not null references public.songs (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  -- The author's username when they wrote it (so a live event carries everything to show it).
  username text not null,
  -- One reply level: a reply's parent is always a top-level comment (post_comment checks it).
  parent_id uuid references public.comments (id) on delete cascade,
  body text not null check (char_length(body) <= 2000),
  like_count int not null default 0 check (like_count >= 0),
  -- A deleted comment that has replies stays as 'comment deleted' (body emptied) to keep them.
  deleted boolean not null default false,
  edited_at timestamptz,
  created_at timestamptz not null default now(),
  constraint comments_not_own_parent check (parent_id is null or parent_id <> id),
  constraint comments_body_present check (deleted or char_length(btrim(body)) > 0)
);
create index comments_song_idx on public.comments (song_id, created_at desc);
create index comments_user_idx on public.comments (user_id, created_at desc);
create index comments_parent_idx on public.comments (parent_id) where parent_id is not null;

create table public.comment_likes (
  comment_id uuid not null references public.comments (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  -- Copied from the comment so a song's page can subscribe to its likes with one filter.
  song_id text not null references public.songs (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (comment_id, user_id)
);
create index comment_likes_user_idx on public.comment_likes (user_id);
create index comment_likes_song_idx on public.comment_likes (song_id);

alter table public.comments enable row level security;
alter table public.comment_likes enable row level security;
-- Comments are public, like the songs they are on; likes are public too (counts, "you liked").
create policy comments_read on public.comments for select to anon, authenticated using (true);
create policy comment_likes_read on public.comment_likes for select to anon, authenticated using (true);

revoke all on table public.comments, public.comment_likes from anon, authenticated;
grant select on public.comments, public.comment_likes to anon, authenticated;
grant all on table public.comments, public.comment_likes to service_role;

create trigger comments_realtime after insert or update or delete on public.comments
for each row execute function cube_realtime.notify_change('song_id', 'user_id');
create trigger comment_likes_realtime after insert or update or delete on public.comment_likes
for each row execute function cube_realtime.notify_change('song_id', 'comment_id');

do $$
begin
  if exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    alter publication supabase_realtime add table public.comments, public.comment_likes;
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Crediting (internal)
-- ---------------------------------------------------------------------------------------------

-- Credits p_amount to p_user once per p_key, unless p_user already got p_cap credits whose key
-- starts with p_key_prefix today (UTC). The caller holds the user's wallet lock. Returns the
-- amount credited (0 when already credited, capped, or the user has no wallet).
create function public.comment_credit(p_user uuid, p_amount int, p_reason text, p_ref text, p_key text, p_key_prefix text, p_cap int) returns int
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_day_start timestamptz := date_trunc('day', now() at time zone 'utc') at time zone 'utc';
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
  insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
  values (p_user, p_amount, p_reason, p_ref, p_key);
  update public.user_tokens set balance = balance + p_amount, updated_at = clock_timestamp() where user_id = p_user;
  return p_amount;
end
$$;
revoke execute on function public.comment_credit(uuid, int, text, text, text, text, int) from public, anon, authenticated;

-- Makes sure the caller has a wallet and locks the wallets of the given users in a fixed order
-- (two users replying to each other at once must not deadlock).
create function public.comment_lock_wallets(p_users uuid[]) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.init_user_tokens();
  perform 1 from public.user_tokens where user_id = any (p_users) order by user_id for update;
end
$$;
revoke execute on function public.comment_lock_wallets(uuid[]) from public, anon, authenticated;

create function public.comment_json(p_id uuid) returns json
language sql
stable
security definer
set search_path = ''
as $$
  select to_json(c) from public.comments c where c.id = p_id
$$;
revoke execute on function public.comment_json(uuid) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- API
-- ---------------------------------------------------------------------------------------------

-- Posts a comment (p_parent_id null) or a reply to a top-level comment of the same song.
-- Returns {comment, credited: [{reason, amount}], balance}.
create function public.post_comment(p_song_id text, p_body text, p_parent_id uuid default null) returns json
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

  perform public.comment_lock_wallets(array_remove(array[v_uid, v_parent.user_id], null));
  select username into v_username from public.profiles where user_id = v_uid;
  insert into public.comments (song_id, user_id, username, parent_id, body)
  values (p_song_id, v_uid, coalesce(v_username, 'listener'), p_parent_id, v_body)
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

create function public.edit_comment(p_comment_id uuid, p_body text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_body text := regexp_replace(coalesce(p_body, ''), '^\s+|\s+$', '', 'g');
  v_max int := (public.comment_rules() ->> 'max_length')::int;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if v_body = '' then
    raise exception 'empty_comment' using errcode = '22023', hint = 'Write something first.';
  end if;
  if char_length(v_body) > v_max then
    raise exception 'comment_too_long' using errcode = '22001', detail = format('A comment has at most %s characters; this one has %s.', v_max, char_length(v_body));
  end if;
  update public.comments set body = v_body, edited_at = now()
   where id = p_comment_id and user_id = v_uid and not deleted;
  if not found then
    raise exception 'not_your_comment' using errcode = '42501', detail = 'Only the author can edit a comment.';
  end if;
  return public.comment_json(p_comment_id);
end
$$;

-- Deletes the caller's comment. One with replies stays as 'comment deleted' (body emptied) so its
-- replies remain; a deleted parent whose last reply goes is removed too. Rewards already credited
-- stay credited, and their keys make re-posting earn nothing again.
create function public.delete_comment(p_comment_id uuid) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_comment public.comments;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
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

-- Sets the caller's like on a comment (p_liked true) or removes it. Returns
-- {liked, like_count, credited: [{reason, amount}], balance}.
create function public.set_comment_like(p_comment_id uuid, p_liked boolean) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_rules constant json := public.comment_rules();
  v_uid uuid := auth.uid();
  v_comment public.comments;
  v_got int := 0;
  v_count int;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
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
    insert into public.comment_likes (comment_id, user_id, song_id) values (p_comment_id, v_uid, v_comment.song_id)
    on conflict do nothing;
    if found then
      update public.comments set like_count = like_count + 1 where id = p_comment_id;
    end if;
    if v_comment.user_id <> v_uid then
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

-- The caller's Comments & Earn figures, from their real rows.
create function public.my_comment_stats() returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  c_rules constant json := public.comment_rules();
  c_per_level constant int := (c_rules ->> 'tracks_per_level')::int;
  c_goal constant int := (c_rules ->> 'daily_goal_tracks')::int;
  v_uid uuid := auth.uid();
  v_day text := to_char(now() at time zone 'utc', 'YYYY-MM-DD');
  v_tracks int;
  v_today int;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
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

revoke execute on function
  public.post_comment(text, text, uuid), public.edit_comment(uuid, text), public.delete_comment(uuid),
  public.set_comment_like(uuid, boolean), public.my_comment_stats()
from public, anon;
grant execute on function
  public.post_comment(text, text, uuid), public.edit_comment(uuid, text), public.delete_comment(uuid),
  public.set_comment_like(uuid, boolean), public.my_comment_stats()
to authenticated, service_role;
