-- Listening sessions: what a listen earns, measured by the server.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

CREATE TABLE public.listening_sessions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    play_key text NOT NULL,
    song_id text NOT NULL,
    duration_seconds numeric NOT NULL,
    reward integer NOT NULL,
    creator_id uuid,
    client_address text,
    started_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    last_report_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    playing boolean DEFAULT true NOT NULL,
    heard_seconds numeric DEFAULT 0 NOT NULL,
    earning_seconds numeric DEFAULT 0 NOT NULL,
    credited integer DEFAULT 0 NOT NULL,
    outcome text,
    history_id bigint,
    ended_at timestamp with time zone,
    CONSTRAINT listening_sessions_check CHECK (((earning_seconds >= (0)::numeric) AND (earning_seconds <= heard_seconds))),
    CONSTRAINT listening_sessions_check1 CHECK ((heard_seconds <= duration_seconds)),
    CONSTRAINT listening_sessions_duration_seconds_check CHECK ((duration_seconds > (0)::numeric)),
    CONSTRAINT listening_sessions_heard_seconds_check CHECK ((heard_seconds >= (0)::numeric)),
    CONSTRAINT listening_sessions_play_key_check CHECK (((char_length(play_key) >= 1) AND (char_length(play_key) <= 200))),
    CONSTRAINT listening_sessions_reward_check CHECK ((reward > 0)),
    CONSTRAINT listening_sessions_pkey PRIMARY KEY (id),
    CONSTRAINT listening_sessions_user_id_play_key_key UNIQUE (user_id, play_key),
    CONSTRAINT listening_sessions_creator_id_fkey FOREIGN KEY (creator_id) REFERENCES auth.users(id) ON DELETE SET NULL,
    CONSTRAINT listening_sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX listening_sessions_client_idx ON public.listening_sessions USING btree (client_address, started_at DESC);
CREATE UNIQUE INDEX listening_sessions_one_active ON public.listening_sessions USING btree (user_id) WHERE (ended_at IS NULL);
CREATE INDEX listening_sessions_user_started_idx ON public.listening_sessions USING btree (user_id, started_at DESC);
ALTER TABLE public.listening_sessions ENABLE ROW LEVEL SECURITY;
CREATE POLICY listening_sessions_own ON public.listening_sessions FOR SELECT TO authenticated USING ((user_id = ( SELECT auth.uid()
    AS uid)));

CREATE TABLE public.user_listening_history (
    id bigint NOT NULL,
    user_id uuid NOT NULL,
    song_id text NOT NULL,
    listened_at timestamp with time zone DEFAULT now() NOT NULL,
    seconds integer NOT NULL,
    CONSTRAINT user_listening_history_seconds_check CHECK ((seconds >= 0)),
    CONSTRAINT user_listening_history_pkey PRIMARY KEY (id),
    CONSTRAINT user_listening_history_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
ALTER TABLE public.user_listening_history ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.user_listening_history_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
CREATE INDEX user_listening_history_song_recent_idx ON public.user_listening_history USING btree (listened_at, song_id);
CREATE INDEX user_listening_history_user_idx ON public.user_listening_history USING btree (user_id, listened_at DESC);
ALTER TABLE public.user_listening_history ENABLE ROW LEVEL SECURITY;
CREATE POLICY "owners read their history" ON public.user_listening_history FOR SELECT TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));

-- Volatile, not stable: it must see the wallet as the settle that ran just before left it.
create or replace function public.listen_answer(p_session public.listening_sessions) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_listen constant json := public.reward_rules() -> 'listen';
  v_today date := (clock_timestamp() at time zone 'utc')::date;
begin
  return (
    select json_build_object(
      'session_id', p_session.id,
      'song_id', p_session.song_id,
      'heard_seconds', floor(p_session.heard_seconds),
      'playing', p_session.playing,
      'ended', p_session.ended_at is not null,
      'credited', p_session.credited,
      'reason', p_session.outcome,
      'needs_interaction', clock_timestamp() - t.last_interaction_at
                           > make_interval(secs => (c_listen ->> 'inactive_after_seconds')::int),
      'balance', t.balance,
      'daily_earned', case when t.day = v_today then t.daily_earned else 0 end,
      'listens_today', case when t.day = v_today then t.listens_today else 0 end,
      'daily_cap', (c_listen ->> 'daily_cap')::int,
      'cap_reached', t.day = v_today and t.listens_today >= (c_listen ->> 'daily_cap')::int
    )
    from public.user_tokens t where t.user_id = p_session.user_id
  );
end
$$;

create or replace function public.listen_begin(p_song_id text, p_duration numeric, p_reward int, p_creator uuid,
                                               p_play_id text, p_interacted boolean)
returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_now timestamptz := clock_timestamp();
  v_session public.listening_sessions;
  v_previous public.listening_sessions;
  v_settled public.listening_sessions;
  v_prior_outcome text;
  v_answer jsonb;
begin
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

create or replace function public.listen_lock(p_users uuid[]) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if cardinality(p_users) > 2 then
    raise exception 'listen_lock takes the listener and the creator' using errcode = '22023';
  end if;
  perform 1 from public.user_tokens where user_id in (p_users[1], p_users[2]) order by user_id for update;
end
$$;

create or replace function public.listen_offline(p_song_id text, p_play_id text, p_played_at timestamptz) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_max_age constant interval := interval '7 days';
  c_daily_plays constant int := 50;
  v_uid uuid := public.require_uid();
  v_now timestamptz := clock_timestamp();
  v_song public.songs;
  v_id uuid;
begin
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

-- The client says the session's music is playing or paused (or ended); the server does the counting.
create or replace function public.listen_report(p_session_id uuid, p_playing boolean,
                                     p_interacted boolean default false, p_ended boolean default false)
returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_session public.listening_sessions;
begin
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

-- listen_settle: a credited listen, and the creator's credit it pays, come out of the listener's
-- address bound; a listen refused by it ends as 'address_cap' (final for the session, like the
-- daily caps). No creator credit when the listener is linked to the creator (public.accounts_linked).
create or replace function public.listen_settle(p_session uuid, p_playing boolean, p_end boolean) returns public.listening_sessions
language plpgsql security definer set search_path = '' as $$
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

-- A catalogue or published song.
create or replace function public.listen_start(p_song_id text, p_play_id text, p_interacted boolean default true) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_song public.songs;
begin
  select * into v_song from public.songs where id = p_song_id;
  return public.listen_begin(p_song_id, v_song.duration_seconds, v_song.reward, v_song.owner_id, p_play_id, coalesce(p_interacted, false));
end
$$;

-- A CUBE Radio piece by its recipe id, while its slot is on air (or just was): as record_station_listen did.
create or replace function public.listen_station_start(p_recipe_id text, p_play_id text, p_interacted boolean default true) returns json
language plpgsql security definer set search_path = '' as $$
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

-- The name the listening and share paths call (same signature): the listener is the actor.
create or replace function public.listener_linked_to_creator(p_listener uuid, p_creator uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return public.accounts_linked(p_listener, p_creator);
end
$$;

create or replace function public.recent_listens(p_user_id uuid, p_limit int default 5) returns table (song_id text, title text,
    artist text, slug text, listened_at timestamptz)
language sql stable security definer set search_path = '' as $$
  select s.id, s.title, s.artist, s.slug, h.last
    from (select song_id, max(listened_at) as last from public.user_listening_history where user_id = p_user_id group by song_id) h
    join public.songs s on s.id = h.song_id
   where public.profile_visible(p_user_id)
     and (p_user_id = auth.uid() or coalesce((select st.show_activity from public.user_settings st where st.user_id = p_user_id), true))
     and public.profile_visible(s.owner_id)
   order by h.last desc
   limit least(greatest(coalesce(p_limit, 5), 1), 20)
$$;

create or replace function public.station_rules() returns json
language sql stable set search_path = '' as $$
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

-- "Still listening?" answered: listening earns again from now (and the waiting session may credit).
create or replace function public.still_listening() returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_session public.listening_sessions;
begin
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

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.listening_sessions, public.user_listening_history FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON TABLE public.listening_sessions, public.user_listening_history TO service_role;
GRANT SELECT ON TABLE public.user_listening_history TO authenticated;
GRANT SELECT (credited, duration_seconds, ended_at, heard_seconds, id, outcome, playing, song_id, started_at) ON TABLE
    public.listening_sessions TO authenticated;
REVOKE ALL ON SEQUENCE public.user_listening_history_id_seq FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON SEQUENCE public.user_listening_history_id_seq TO service_role;
REVOKE ALL ON FUNCTION public.listen_answer(p_session listening_sessions), public.listen_begin(p_song_id text, p_duration numeric,
    p_reward integer, p_creator uuid, p_play_id text, p_interacted boolean), public.listen_lock(p_users uuid[]),
    public.listen_offline(p_song_id text, p_play_id text, p_played_at timestamp with time zone), public.listen_report(p_session_id
    uuid, p_playing boolean, p_interacted boolean, p_ended boolean), public.listen_settle(p_session uuid, p_playing boolean, p_end
    boolean), public.listen_start(p_song_id text, p_play_id text, p_interacted boolean), public.listen_station_start(p_recipe_id
    text, p_play_id text, p_interacted boolean), public.listener_linked_to_creator(p_listener uuid, p_creator uuid),
    public.recent_listens(p_user_id uuid, p_limit integer), public.station_rules(), public.still_listening() FROM PUBLIC, anon,
    authenticated, service_role;
GRANT ALL ON FUNCTION public.recent_listens(p_user_id uuid, p_limit integer), public.station_rules() TO anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.listen_offline(p_song_id text, p_play_id text, p_played_at timestamp with time zone),
    public.listen_report(p_session_id uuid, p_playing boolean, p_interacted boolean, p_ended boolean),
    public.listen_start(p_song_id text, p_play_id text, p_interacted boolean), public.listen_station_start(p_recipe_id text,
    p_play_id text, p_interacted boolean), public.still_listening() TO authenticated, service_role;
GRANT ALL ON FUNCTION public.listen_answer(p_session listening_sessions), public.listen_begin(p_song_id text, p_duration numeric,
    p_reward integer, p_creator uuid, p_play_id text, p_interacted boolean), public.listen_lock(p_users uuid[]),
    public.listen_settle(p_session uuid, p_playing boolean, p_end boolean), public.listener_linked_to_creator(p_listener uuid,
    p_creator uuid) TO service_role;
