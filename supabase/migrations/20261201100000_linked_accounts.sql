-- Linked accounts never pay each other, and one client address earns a bounded amount a day.
--
-- The economy capped what one account earns; an attacker works per address: thirty accounts an
-- hour from one address (the sign-up limit) paid each other through replies, reply-author credits
-- and likes, and together earned thirty accounts' worth. Two rules, one source (link_rules()):
--
-- 1. public.accounts_linked(actor, other): true when a reward that `actor`'s action would pay to,
--    or because of, `other` must not be paid. Linked means any of
--      * the same account;
--      * the actor's account is younger than min_account_age_hours (24 h): accounts made to farm
--        are fresh, and a real newcomer's first day still earns from its own listening and comments;
--      * both accounts were seen at one client address within link_days (30 days). "Seen" is
--        public.account_clients: every listen, publish, comment and like records the caller's
--        address (the API gateway's client address, public.client_address()) before it pays.
--    Those are the signals the server can honestly collect: the client address of each request,
--    and the account's creation time. A user agent is shared by millions of browsers of one version
--    and written by the client at will, and a session or refresh token is never shared between two
--    accounts, so neither links anything.
--    It is applied to every reward between two accounts: listens paying a creator
--    (listener_linked_to_creator, kept as the name the share and listening paths call), a reply
--    paying the replier and the comment's author, a like paying the liker, share opens, and
--    delegation (refused, and counted zero in a snapshot, 20261201100100_trust_covers_holdings.sql).
--
-- 2. The address bound: the CUBE that requests from one client address make the server pay (to
--    their own accounts, and to others: the creator of a song they listen to, the author of a
--    comment they reply to) add up, per UTC day, to at most address_daily_cap (1000). The bound is
--    taken under a row lock per address and day, so concurrent requests of thirty accounts stop at
--    exactly the bound: the reward that reaches it pays the rest, later ones pay nothing
--    ('address_cap'). Why 1000: one account's actions can make the server pay at most 230 CUBE a
--    day (listening 50, its listens paying creators 20, comments 50 and the daily goal 10, replies
--    30 and their authors 30, likes 40: every per-account cap reached). A family of four on one
--    address therefore pays at most 4 x 230 = 920 whatever they do, below the bound: households
--    and shared addresses (NAT) of up to four people are never touched. Thirty accounts on one
--    address earn 1000 instead of 30 x 230 = 6900. The address is kept hashed (sha256).
--    Calls without a client address (SQL run by the server itself) are not bounded.

-- The one source of the two rules (min_account_age_hours and link_days are the creator rule's,
-- reward_rules().creator, which they always were).
create function public.link_rules() returns json
language sql
stable
set search_path = ''
as $$
  select json_build_object(
    'min_account_age_hours', (public.reward_rules() -> 'creator' ->> 'min_listener_age_hours')::int,
    'link_days', (public.reward_rules() -> 'creator' ->> 'link_days')::int,
    'address_daily_cap', 1000
  )
$$;
revoke execute on function public.link_rules() from public;
grant execute on function public.link_rules() to anon, authenticated, service_role;

-- The rule. Reads only stored facts (ages, addresses seen), never the current request, so it means
-- the same inside a proposal's snapshot as in the action that pays: callers that act for a request
-- record its address first (public.note_account_client).
create function public.accounts_linked(p_actor uuid, p_other uuid) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  c_rules constant json := public.link_rules();
  c_since constant timestamptz := now() - make_interval(days => (c_rules ->> 'link_days')::int);
begin
  if p_actor is null or p_other is null then
    return false;
  end if;
  return p_actor = p_other
    or exists (select 1 from auth.users u
                where u.id = p_actor
                  and u.created_at > now() - make_interval(hours => (c_rules ->> 'min_account_age_hours')::int))
    or exists (select 1 from public.account_clients a join public.account_clients b using (client_address)
                where a.user_id = p_actor and b.user_id = p_other
                  and a.last_seen > c_since and b.last_seen > c_since);
end
$$;
revoke execute on function public.accounts_linked(uuid, uuid) from public, anon, authenticated;

-- The name the listening and share paths call (same signature): the listener is the actor.
create or replace function public.listener_linked_to_creator(p_listener uuid, p_creator uuid) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return public.accounts_linked(p_listener, p_creator);
end
$$;

-- CUBE paid per client address (hashed) and UTC day: the address bound's counter.
create table public.address_earnings (
  address_key text not null,
  day date not null,
  earned int not null default 0 check (earned >= 0),
  primary key (address_key, day)
);
alter table public.address_earnings enable row level security;
revoke all on table public.address_earnings from anon, authenticated;
grant all on table public.address_earnings to service_role;

-- Takes up to p_amount from today's bound of the current request's client address and returns
-- what may be paid (p_amount when the request has no address). Holds the address's row lock to
-- the end of the transaction: callers take it after the wallet locks they need.
create function public.address_allowance(p_amount int) returns int
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_address text := public.client_address();
  v_key text;
  v_day date := (clock_timestamp() at time zone 'utc')::date;
  v_earned int;
  v_take int;
begin
  if v_address is null or p_amount is null or p_amount <= 0 then
    return greatest(coalesce(p_amount, 0), 0);
  end if;
  v_key := encode(sha256(convert_to(v_address, 'UTF8')), 'hex');
  insert into public.address_earnings (address_key, day) values (v_key, v_day) on conflict do nothing;
  select earned into v_earned from public.address_earnings where address_key = v_key and day = v_day for update;
  v_take := greatest(least(p_amount, (public.link_rules() ->> 'address_daily_cap')::int - v_earned), 0);
  if v_take > 0 then
    update public.address_earnings set earned = earned + v_take where address_key = v_key and day = v_day;
  end if;
  return v_take;
end
$$;
revoke execute on function public.address_allowance(int) from public, anon, authenticated;

-- What today's bound of the caller's address has left (the app can say why a reward was 0).
create function public.my_address_allowance() returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_address text := public.client_address();
  v_cap int := (public.link_rules() ->> 'address_daily_cap')::int;
  v_earned int;
begin
  if auth.uid() is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select earned into v_earned from public.address_earnings
   where address_key = encode(sha256(convert_to(coalesce(v_address, ''), 'UTF8')), 'hex')
     and day = (clock_timestamp() at time zone 'utc')::date;
  return json_build_object('daily_cap', v_cap, 'earned_today', coalesce(v_earned, 0),
                           'left_today', greatest(v_cap - coalesce(v_earned, 0), 0));
end
$$;
revoke execute on function public.my_address_allowance() from public, anon;
grant execute on function public.my_address_allowance() to authenticated, service_role;

-- comment_credit (20261125140000_one_ledger_posting.sql): the same caps, then the address bound;
-- the credit that reaches the bound pays the rest.
create or replace function public.comment_credit(p_user uuid, p_amount int, p_reason text, p_ref text, p_key text, p_key_prefix text,
  p_cap int) returns int
language plpgsql
security definer
set search_path = ''
as $$
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

-- post_comment (20261126160000_comments_on_the_waveform.sql): records the caller's address, and a
-- reply pays neither the replier nor the comment's author when the two accounts are linked.
create or replace function public.post_comment(p_song_id text, p_body text, p_parent_id uuid default null,
  p_at_seconds numeric default null)
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

-- set_comment_like (20261124140000_comments.sql): records the caller's address; a like pays the
-- liker only when the liker is not linked to the comment's author.
create or replace function public.set_comment_like(p_comment_id uuid, p_liked boolean) returns json
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

-- listen_settle (20261127120000_listen_wallet_one_write.sql): a credited listen, and the creator's
-- credit it pays, come out of the listener's address bound; a listen refused by it ends as
-- 'address_cap' (final for the session, like the daily caps). The creator credit's test is
-- listener_linked_to_creator, now public.accounts_linked.
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
  v_creator_credit int;
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
  if v_s.credited > 0 or v_s.outcome in ('own_song', 'song_limit', 'daily_cap', 'cube_cap', 'address_cap') or v_heard < v_threshold then
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
      if v_credit > 0 then
        -- The address bound: what this address's requests may still make the server pay today.
        v_credit := public.address_allowance(v_credit);
        if v_credit <= 0 then
          v_outcome := 'address_cap';
        end if;
      end if;
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
        -- Taken only once every other test passed (the allowance writes its counter).
        v_creator_credit := public.address_allowance((c_creator ->> 'reward')::int);
        if v_creator_credit > 0 then
          perform public.post_ledger(v_s.creator_id, v_creator_credit, 'creator', v_s.song_id, 'creator:' || v_s.id::text);
        end if;
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
