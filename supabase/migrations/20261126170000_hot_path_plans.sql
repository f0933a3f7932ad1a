-- The functions every API request or every listen calls, made cheap to call (issue 28, "Fast").
--
-- Measured with track_functions = 'all' under `npm run bench -- backend`: a credited listen cost
-- PostgreSQL about 3.5 ms of CPU, most of it in functions written in SQL that the planner cannot
-- inline (security definer or a SET clause). Such a function's body is parsed and planned again on
-- every call (PostgreSQL before 18 keeps no plan for it), while PL/pgSQL keeps its plans for the
-- session. Same bodies, same answers, same privileges (create or replace keeps the grants):
--
-- * reward_rules(), called about seven times per listen: no SET clause, so it is inlined into the
--   caller's plan. Its body names only pg_catalog functions, which every search path finds first.
-- * listen_answer(), aal_satisfied() (every request's pre-request check and every two-factor
--   policy), client_address(), listener_linked_to_creator(): PL/pgSQL with cached plans.

create or replace function public.reward_rules() returns json
language sql
stable
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
      -- The most CUBE listening pays per user and UTC day: the 20 listens at the catalogue's 2.5
      -- CUBE average. Picking the best-paying songs fills it sooner and gains nothing more.
      'daily_cube_cap', 50,
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

create or replace function public.aal_satisfied() returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2'
      or not exists (select 1 from auth.mfa_factors where user_id = auth.uid() and status = 'verified');
end
$$;

create or replace function public.client_address() returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  h json := nullif(current_setting('request.headers', true), '')::json;
begin
  return nullif(btrim(coalesce(h ->> 'cf-connecting-ip', split_part(h ->> 'x-forwarded-for', ',', 1))), '');
end
$$;

create or replace function public.listener_linked_to_creator(p_listener uuid, p_creator uuid) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  c_creator constant json := public.reward_rules() -> 'creator';
begin
  return exists (
      select 1 from auth.users u
       where u.id = p_listener
         and u.created_at > now() - make_interval(hours => (c_creator ->> 'min_listener_age_hours')::int))
    or exists (
      select 1 from public.account_clients l join public.account_clients c using (client_address)
       where l.user_id = p_listener and c.user_id = p_creator
         and l.last_seen > now() - make_interval(days => (c_creator ->> 'link_days')::int)
         and c.last_seen > now() - make_interval(days => (c_creator ->> 'link_days')::int));
end
$$;

-- Volatile, not stable: it must see the wallet as the settle that ran just before left it.
create or replace function public.listen_answer(p_session public.listening_sessions) returns json
language plpgsql
security definer
set search_path = ''
as $$
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
