-- Listening is measured by the server (issue 23, "Listening" and "Creators").
--
-- Before: record_listen(song, seconds, play) took the client's count of seconds, bounded it by the
-- track and by the time since the previous credit. Now a play is a server-side session:
--
--   listen_start(song, play)          a session starts at the server's clock; the user's previous
--   listen_station_start(recipe, play) session ends (one active session per user: a unique index)
--   listen_report(session, playing)   the client says the music is playing or paused; the server
--                                     adds the time it saw pass while the session was playing,
--                                     each gap between reports at most heartbeat_grace_seconds
--                                     (a closed tab stops accruing), the whole at most the track
--   still_listening()                 the user answered "Still listening?"
--
-- No call carries a duration: the only thing a client can say is "playing" or "paused", and the
-- most that buys is the wall-clock time that really passed, for one track at a time.
--
-- A session is credited once, when its heard time reaches min(30 s, half the track), unless:
--   own_song     the listener published it;
--   song_limit   the song already earned song_daily_limit (2) times for this listener today (UTC);
--   daily_cap    20 credited listens today (unchanged);
--   inactive     no user interaction for inactive_after_seconds (1 h): the music plays on, nothing
--                earns (and no time counts towards the hourly pot) until the user interacts.
-- Each credited listen of a published song also pays its creator (ledger reason 'creator',
-- creator.reward per listen, creator.daily_cap per creator per UTC day) unless the listener is
-- linked to the creator: the same client address seen for both within creator.link_days days, or a
-- listener account younger than creator.min_listener_age_hours (fresh accounts made to farm).
-- The hourly pot (wallet_claim_status, 5 CUBE per hour) sums the earning seconds of credited
-- sessions, each UTC day capped as before.

create or replace function public.reward_rules() returns json
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
      'default_reward', 2,
      -- Credited listens of one song per listener and UTC day.
      'song_daily_limit', 2,
      -- Without a user interaction for this long, listening stops earning until the next one.
      'inactive_after_seconds', 3600,
      -- The most one gap between two reports of a playing session adds (the client reports every 15 s).
      'heartbeat_grace_seconds', 90
    ),
    'creator', json_build_object(
      'reward', 1,
      'daily_cap', 50,
      'link_days', 30,
      'min_listener_age_hours', 24
    )
  )
$$;

insert into public.ledger_reasons (reason, kind, description) values
  ('creator', 'earn', 'A listen of a song you published');

alter table public.user_tokens add column last_interaction_at timestamptz not null default now();
-- The old spacing rule's stamp (the previous credit's time): the sessions measure time themselves.
alter table public.user_tokens drop column last_credited_at;

create table public.listening_sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  -- The client's play key: starting the same play twice answers the same session.
  play_key text not null check (char_length(play_key) between 1 and 200),
  -- What the listen is credited as: a song id, or 'radio:<day>:<slot>' for a station piece.
  song_id text not null,
  duration_seconds numeric not null check (duration_seconds > 0),
  reward int not null check (reward > 0),
  creator_id uuid references auth.users (id) on delete set null,
  client_address text,
  started_at timestamptz not null default clock_timestamp(),
  last_report_at timestamptz not null default clock_timestamp(),
  playing boolean not null default true,
  heard_seconds numeric not null default 0 check (heard_seconds >= 0),
  -- Heard while the listener counted as active: what the hourly pot may count.
  earning_seconds numeric not null default 0 check (earning_seconds >= 0 and earning_seconds <= heard_seconds),
  credited int not null default 0,
  -- Why the session earns what it earns: null while undecided, 'credited' or the refusal.
  outcome text,
  history_id bigint,
  ended_at timestamptz,
  unique (user_id, play_key),
  check (heard_seconds <= duration_seconds)
);
create unique index listening_sessions_one_active on public.listening_sessions (user_id) where ended_at is null;
create index listening_sessions_user_started_idx on public.listening_sessions (user_id, started_at desc);
create index listening_sessions_client_idx on public.listening_sessions (client_address, started_at desc);

-- Client addresses an account was seen at (listening, publishing): the creator rule's "same client".
create table public.account_clients (
  user_id uuid not null references auth.users (id) on delete cascade,
  client_address text not null,
  last_seen timestamptz not null default now(),
  primary key (user_id, client_address)
);
create index account_clients_address_idx on public.account_clients (client_address, last_seen desc);

-- Own sessions are readable (the player shows what the server measured); nothing is writable
-- through the API: the functions below are the only writers. account_clients is server-only.
alter table public.listening_sessions enable row level security;
alter table public.account_clients enable row level security;
create policy listening_sessions_own on public.listening_sessions for select to authenticated using (user_id = (select auth.uid()));
revoke all on table public.listening_sessions, public.account_clients from anon, authenticated;
grant select (id, song_id, duration_seconds, started_at, playing, heard_seconds, credited, outcome, ended_at)
  on public.listening_sessions to authenticated;
grant all on table public.listening_sessions, public.account_clients to service_role;

create function public.note_account_client(p_user uuid) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_address text := public.client_address();
begin
  if v_address is not null and p_user is not null then
    insert into public.account_clients (user_id, client_address) values (p_user, v_address)
    on conflict (user_id, client_address) do update set last_seen = excluded.last_seen;
  end if;
  return v_address;
end
$$;
revoke execute on function public.note_account_client(uuid) from public, anon, authenticated;

-- A publisher is seen at the address they published from.
create function public.songs_note_owner_client() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.note_account_client(new.owner_id);
  return new;
end
$$;
create trigger songs_note_owner_client after insert on public.songs
  for each row when (new.owner_id is not null) execute function public.songs_note_owner_client();

-- True when a listen by p_listener must not pay p_creator: linked accounts or a fresh listener.
create function public.listener_linked_to_creator(p_listener uuid, p_creator uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
      select 1 from auth.users u
       where u.id = p_listener
         and u.created_at > now() - make_interval(hours => (public.reward_rules() -> 'creator' ->> 'min_listener_age_hours')::int))
    or exists (
      select 1 from public.account_clients l join public.account_clients c using (client_address)
       where l.user_id = p_listener and c.user_id = p_creator
         and l.last_seen > now() - make_interval(days => (public.reward_rules() -> 'creator' ->> 'link_days')::int)
         and c.last_seen > now() - make_interval(days => (public.reward_rules() -> 'creator' ->> 'link_days')::int))
$$;
revoke execute on function public.listener_linked_to_creator(uuid, uuid) from public, anon, authenticated;

-- The session's accrual and credit. Called with the listener's wallet row locked (and the creator's,
-- in user-id order, when the song has one), so concurrent reports of one user run one at a time.
create function public.listen_settle(p_session uuid, p_playing boolean, p_end boolean) returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_listen constant json := public.reward_rules() -> 'listen';
  c_creator constant json := public.reward_rules() -> 'creator';
  c_daily_cap constant int := (c_listen ->> 'daily_cap')::int;
  v_now timestamptz := clock_timestamp();
  v_day_start timestamptz := date_trunc('day', clock_timestamp() at time zone 'utc') at time zone 'utc';
  v_s public.listening_sessions;
  v_wallet public.user_tokens;
  v_active boolean;
  v_gap numeric;
  v_add numeric := 0;
  v_threshold numeric;
  v_outcome text;
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
  update public.listening_sessions
     set heard_seconds = heard_seconds + v_add,
         earning_seconds = earning_seconds + case when v_active then v_add else 0 end,
         last_report_at = v_now,
         playing = p_playing and not p_end,
         ended_at = case when p_end then v_now end
   where id = v_s.id
  returning * into v_s;

  v_threshold := least((c_listen ->> 'qualify_seconds')::numeric, v_s.duration_seconds * (c_listen ->> 'qualify_fraction')::numeric);
  if v_s.credited > 0 or v_s.outcome in ('own_song', 'song_limit', 'daily_cap') or v_s.heard_seconds < v_threshold then
    if v_s.history_id is not null then
      update public.user_listening_history set seconds = floor(v_s.earning_seconds)::int where id = v_s.history_id;
    end if;
    return v_s;
  end if;
  -- Idle for too long: nothing earns until the listener interacts ('inactive' stays undecided).
  if not v_active then
    update public.listening_sessions set outcome = 'inactive' where id = v_s.id returning * into v_s;
    return v_s;
  end if;
  -- Only time heard while the listener counted as active qualifies a listen.
  if v_s.earning_seconds < v_threshold then
    update public.listening_sessions set outcome = null where id = v_s.id returning * into v_s;
    return v_s;
  end if;

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
    v_outcome := 'credited';
  end if;

  if v_outcome = 'credited' then
    perform public.post_ledger(v_s.user_id, v_s.reward, 'listen', v_s.song_id, 'listen:' || v_s.id::text);
    update public.user_tokens
       set daily_earned = daily_earned + v_s.reward, listens_today = listens_today + 1
     where user_id = v_s.user_id;
    insert into public.user_listening_history (user_id, song_id, listened_at, seconds)
    values (v_s.user_id, v_s.song_id, v_now, floor(v_s.earning_seconds)::int)
    returning id into v_history;
    update public.listening_sessions set credited = v_s.reward, outcome = v_outcome, history_id = v_history
     where id = v_s.id returning * into v_s;
    if v_s.creator_id is not null
       and exists (select 1 from public.user_tokens where user_id = v_s.creator_id)
       and not public.listener_linked_to_creator(v_s.user_id, v_s.creator_id)
       and (select count(*) from public.token_ledger
             where user_id = v_s.creator_id and reason = 'creator' and created_at >= v_day_start)
           < (c_creator ->> 'daily_cap')::int then
      perform public.post_ledger(v_s.creator_id, (c_creator ->> 'reward')::int, 'creator', v_s.song_id, 'creator:' || v_s.id::text);
    end if;
  else
    -- A refused listen is still a play (discovery counts plays), with no earning seconds.
    if v_outcome <> 'own_song' then
      insert into public.user_listening_history (user_id, song_id, listened_at, seconds) values (v_s.user_id, v_s.song_id, v_now, 0);
    end if;
    update public.listening_sessions set outcome = v_outcome where id = v_s.id returning * into v_s;
  end if;
  return v_s;
end
$$;
revoke execute on function public.listen_settle(uuid, boolean, boolean) from public, anon, authenticated;

-- What a listen call answers: the session as the server measured it and the wallet's figures.
-- Volatile, not stable: it must see the wallet as the settle that ran just before left it.
create function public.listen_answer(p_session public.listening_sessions) returns json
language sql
security definer
set search_path = ''
as $$
  select json_build_object(
    'session_id', p_session.id,
    'song_id', p_session.song_id,
    'heard_seconds', floor(p_session.heard_seconds),
    'playing', p_session.playing,
    'ended', p_session.ended_at is not null,
    'credited', p_session.credited,
    'reason', p_session.outcome,
    'needs_interaction', clock_timestamp() - t.last_interaction_at
                         > make_interval(secs => (public.reward_rules() -> 'listen' ->> 'inactive_after_seconds')::int),
    'balance', t.balance,
    'daily_earned', case when t.day = (clock_timestamp() at time zone 'utc')::date then t.daily_earned else 0 end,
    'listens_today', case when t.day = (clock_timestamp() at time zone 'utc')::date then t.listens_today else 0 end,
    'daily_cap', (public.reward_rules() -> 'listen' ->> 'daily_cap')::int,
    'cap_reached', t.day = (clock_timestamp() at time zone 'utc')::date
                   and t.listens_today >= (public.reward_rules() -> 'listen' ->> 'daily_cap')::int
  )
  from public.user_tokens t where t.user_id = p_session.user_id
$$;
revoke execute on function public.listen_answer(public.listening_sessions) from public, anon, authenticated;

-- Locks the wallets a settle may move, in user-id order (the same order comment_lock_wallets uses).
create function public.listen_lock(p_users uuid[]) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform 1 from public.user_tokens where user_id = any (p_users) order by user_id for update;
end
$$;
revoke execute on function public.listen_lock(uuid[]) from public, anon, authenticated;

create function public.listen_begin(p_song_id text, p_duration numeric, p_reward int, p_creator uuid, p_play_id text, p_interacted boolean)
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
    perform public.listen_settle(v_previous.id, false, true);
  end if;
  insert into public.listening_sessions
    (user_id, play_key, song_id, duration_seconds, reward, creator_id, client_address, started_at, last_report_at)
  values (v_uid, p_play_id, p_song_id, p_duration, p_reward, p_creator, public.note_account_client(v_uid), v_now, v_now)
  returning * into v_session;
  return public.listen_answer(v_session);
end
$$;
revoke execute on function public.listen_begin(text, numeric, int, uuid, text, boolean) from public, anon, authenticated;

-- A catalogue or published song.
create function public.listen_start(p_song_id text, p_play_id text, p_interacted boolean default true) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_song public.songs;
begin
  select * into v_song from public.songs where id = p_song_id;
  return public.listen_begin(p_song_id, v_song.duration_seconds, v_song.reward, v_song.owner_id, p_play_id, coalesce(p_interacted, false));
end
$$;

-- A CUBE Radio piece by its recipe id, while its slot is on air (or just was): as record_station_listen did.
create function public.listen_station_start(p_recipe_id text, p_play_id text, p_interacted boolean default true) returns json
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
    return public.listen_begin(p_recipe_id, null, null, null, p_play_id, coalesce(p_interacted, false));
  end if;
  return public.listen_begin('radio:' || v_match[1] || ':' || v_match[2], c_slot + (c_rules ->> 'crossfade_seconds')::int,
                             (c_rules ->> 'reward')::int, null, p_play_id, coalesce(p_interacted, false));
end
$$;

-- The client says the session's music is playing or paused (or ended); the server does the counting.
create function public.listen_report(p_session_id uuid, p_playing boolean,
                                     p_interacted boolean default false, p_ended boolean default false)
returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_session public.listening_sessions;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_session_id is null or p_playing is null then
    raise exception 'invalid_report' using errcode = '22023', detail = 'A session id and whether it is playing are required';
  end if;
  select * into v_session from public.listening_sessions where id = p_session_id and user_id = v_uid;
  if not found then
    raise exception 'unknown_session' using errcode = 'PT404', detail = 'No listening session of yours has this id';
  end if;
  perform public.listen_lock(array[v_uid, v_session.creator_id]);
  if coalesce(p_interacted, false) then
    update public.user_tokens set last_interaction_at = clock_timestamp() where user_id = v_uid;
  end if;
  return public.listen_answer(public.listen_settle(p_session_id, p_playing, coalesce(p_ended, false)));
end
$$;

-- "Still listening?" answered: listening earns again from now (and the waiting session may credit).
create function public.still_listening() returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_session public.listening_sessions;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  perform public.init_user_tokens();
  select * into v_session from public.listening_sessions where user_id = v_uid and ended_at is null;
  perform public.listen_lock(array[v_uid, v_session.creator_id]);
  update public.user_tokens set last_interaction_at = clock_timestamp() where user_id = v_uid;
  if v_session.id is null then
    return json_build_object('needs_interaction', false);
  end if;
  return public.listen_answer(public.listen_settle(v_session.id, v_session.playing, false));
end
$$;

-- The hourly pot from the server-measured sessions: earning seconds of credited listens only.
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
    from (select floor(sum(s.earning_seconds))::bigint as seconds from public.listening_sessions s
           where s.user_id = v_uid and s.credited > 0 group by (s.started_at at time zone 'utc')::date) d;
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

-- What a creator's songs earned them, per song (own account only).
create function public.my_creator_earnings() returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_day_start timestamptz := date_trunc('day', clock_timestamp() at time zone 'utc') at time zone 'utc';
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  return json_build_object(
    'total', (select coalesce(sum(amount), 0) from public.token_ledger where user_id = v_uid and reason = 'creator'),
    'today', (select coalesce(sum(amount), 0) from public.token_ledger
               where user_id = v_uid and reason = 'creator' and created_at >= v_day_start),
    'daily_cap', (public.reward_rules() -> 'creator' ->> 'daily_cap')::int,
    'per_listen', (public.reward_rules() -> 'creator' ->> 'reward')::int,
    'songs', coalesce((
      select json_agg(json_build_object('song_id', s.id, 'title', s.title, 'slug', s.slug, 'listens', coalesce(e.listens, 0),
                                        'cube', coalesce(e.cube, 0)) order by coalesce(e.cube, 0) desc, s.title)
        from public.songs s
        left join (select reference, count(*) as listens, sum(amount) as cube from public.token_ledger
                    where user_id = v_uid and reason = 'creator' group by reference) e on e.reference = s.id
       where s.owner_id = v_uid), '[]'::json)
  );
end
$$;

-- The client-declared-duration calls are gone.
drop function public.record_listen(text, int, text);
drop function public.record_station_listen(text, int, text);
drop function public.credit_listen(text, numeric, int, int, text);

revoke execute on function public.listen_start(text, text, boolean) from public, anon;
revoke execute on function public.listen_station_start(text, text, boolean) from public, anon;
revoke execute on function public.listen_report(uuid, boolean, boolean, boolean) from public, anon;
revoke execute on function public.still_listening() from public, anon;
revoke execute on function public.my_creator_earnings() from public, anon;
grant execute on function public.listen_start(text, text, boolean) to authenticated, service_role;
grant execute on function public.listen_station_start(text, text, boolean) to authenticated, service_role;
grant execute on function public.listen_report(uuid, boolean, boolean, boolean) to authenticated, service_role;
grant execute on function public.still_listening() to authenticated, service_role;
grant execute on function public.my_creator_earnings() to authenticated, service_role;
