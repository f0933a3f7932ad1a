-- CUBE Music core schema: profiles, catalogue, the CUBE wallet and its append-only ledger,
-- listening history, playlists, favourites and administrators.
--
-- Security model: RLS on every table; the API roles get back only the grants they need; every
-- CUBE movement goes through a security-definer function below (clients cannot write wallets or
-- the ledger at all), and each of those functions locks the caller's wallet row first so
-- concurrent calls serialise per user.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------

create table public.profiles (
  user_id uuid primary key references auth.users (id) on delete cascade,
  username text not null unique check (char_length(username) between 1 and 40),
  avatar_url text check (avatar_url is null or char_length(avatar_url) <= 2048),
  bio text check (bio is null or char_length(bio) <= 1000),
  created_at timestamptz not null default now()
);

create table public.songs (
  id text primary key,
  title text not null,
  artist text not null,
  duration_seconds int not null check (duration_seconds > 0),
  reward int not null default 2 check (reward > 0)
);

create table public.user_tokens (
  user_id uuid primary key references auth.users (id) on delete cascade,
  balance int not null default 0 check (balance >= 0),
  daily_earned int not null default 0 check (daily_earned >= 0),
  -- The daily cap (20 credited listens per UTC day) is also a constraint, so no code path can
  -- ever exceed it.
  listens_today int not null default 0 check (listens_today between 0 and 20),
  day date not null default ((now() at time zone 'utc')::date),
  -- Wall-clock time of the last credited listen: a new credit needs at least the qualifying
  -- listening time to have passed since, so racing or replaying requests gains nothing.
  last_credited_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.token_ledger (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  amount int not null check (amount <> 0),
  reason text not null check (reason in ('welcome', 'listen', 'comment', 'like', 'reply', 'share', 'claim', 'remix', 'mint', 'proposal')),
  reference text,
  idempotency_key text not null unique,
  created_at timestamptz not null default now()
);
create index token_ledger_user_created_idx on public.token_ledger (user_id, created_at desc);

create table public.user_listening_history (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  song_id text not null,
  listened_at timestamptz not null default now(),
  seconds int not null check (seconds >= 0)
);
create index user_listening_history_user_idx on public.user_listening_history (user_id, listened_at desc);

create table public.playlists (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 100),
  created_at timestamptz not null default now()
);
create index playlists_user_idx on public.playlists (user_id);

-- song_id is not a foreign key: playlists may hold the user's own recordings, which live only in
-- the browser's IndexedDB ('idb:<id>').
create table public.playlist_songs (
  playlist_id uuid not null references public.playlists (id) on delete cascade,
  song_id text not null check (char_length(song_id) between 1 and 200),
  position int not null default 0,
  added_at timestamptz not null default now(),
  primary key (playlist_id, song_id)
);

create table public.favourites (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  song_id text not null check (char_length(song_id) between 1 and 200),
  created_at timestamptz not null default now(),
  primary key (user_id, song_id)
);

create table public.administrators (
  user_id uuid primary key references auth.users (id) on delete cascade,
  created_at timestamptz not null default now()
);

-- The ledger is append-only even for the table owner. A cascade from deleting the user (trigger
-- depth > 1) is the one way rows may go.
create function public.token_ledger_append_only() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' and pg_trigger_depth() > 1 then
    return old;
  end if;
  raise exception 'token_ledger is append-only' using errcode = '42501';
end
$$;

create trigger token_ledger_append_only
before update or delete on public.token_ledger
for each row execute function public.token_ledger_append_only();

-- ---------------------------------------------------------------------------------------------
-- Catalogue seed (src/catalogue/sample-songs.ts)
-- ---------------------------------------------------------------------------------------------

insert into public.songs (id, title, artist, duration_seconds, reward) values
  ('neon-drift', 'Neon Drift', 'Synthwave Collective', 80, 2),
  ('low-tide-memory', 'Low Tide Memory', 'Chillwave Coast', 80, 2),
  ('circuit-breaker', 'Circuit Breaker', 'Electronic Pulse', 80, 3),
  ('rainy-terminal', 'Rainy Terminal', 'Lofi Beats Lab', 80, 2),
  ('orbital-haze', 'Orbital Haze', 'Ambient Spaces', 80, 5)
on conflict (id) do update
  set title = excluded.title, artist = excluded.artist,
      duration_seconds = excluded.duration_seconds, reward = excluded.reward;

-- ---------------------------------------------------------------------------------------------
-- Profiles from sign-up metadata
-- ---------------------------------------------------------------------------------------------

create function public.handle_new_user() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_base text;
  v_candidate text;
  v_n int := 0;
begin
  v_base := nullif(btrim(coalesce(new.raw_user_meta_data ->> 'username', '')), '');
  if v_base is null then
    v_base := nullif(btrim(split_part(coalesce(new.email, ''), '@', 1)), '');
  end if;
  v_base := left(coalesce(v_base, 'listener'), 32);
  v_candidate := v_base;
  loop
    if not exists (select 1 from public.profiles where username = v_candidate) then
      begin
        insert into public.profiles (user_id, username) values (new.id, v_candidate);
        return new;
      exception when unique_violation then
        -- A concurrent sign-up took the name between the check and the insert: try the next one.
        null;
      end;
    end if;
    v_n := v_n + 1;
    if v_n > 10000 then
      raise exception 'could not find a free username for %', v_base;
    end if;
    v_candidate := v_base || '-' || v_n::text;
  end loop;
end
$$;

create trigger on_auth_user_created
after insert on auth.users
for each row execute function public.handle_new_user();

-- ---------------------------------------------------------------------------------------------
-- CUBE functions
-- ---------------------------------------------------------------------------------------------

create function public.init_user_tokens() returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_today date := (now() at time zone 'utc')::date;
  v_wallet public.user_tokens;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  -- The primary key makes a concurrent second insert wait for the first and then do nothing, so
  -- the welcome bonus is written exactly once.
  insert into public.user_tokens (user_id, balance) values (v_uid, 100)
  on conflict (user_id) do nothing;
  if found then
    insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
    values (v_uid, 100, 'welcome', 'welcome', 'welcome:' || v_uid::text);
  end if;
  select * into v_wallet from public.user_tokens where user_id = v_uid;
  return json_build_object(
    'balance', v_wallet.balance,
    'daily_earned', case when v_wallet.day = v_today then v_wallet.daily_earned else 0 end
  );
end
$$;

create function public.record_listen(p_song_id text, p_seconds int, p_play_id text default null) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_daily_cap constant int := 20;
  v_uid uuid := auth.uid();
  v_now timestamptz := clock_timestamp();
  v_today date := (clock_timestamp() at time zone 'utc')::date;
  v_wallet public.user_tokens;
  v_song public.songs;
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
  select * into v_song from public.songs where id = p_song_id;

  if not found then
    v_reason := 'unknown_song';
  else
    v_threshold := least(30, v_song.duration_seconds / 2.0);
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
      v_credited := v_song.reward;
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

create function public.spend_tokens(p_amount int, p_reason text, p_ref text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_balance int;
  v_key text;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_amount is null or p_amount <= 0 then
    raise exception 'invalid_amount' using errcode = '22023';
  end if;
  if p_reason is null or p_reason not in ('comment', 'like', 'reply', 'share', 'claim', 'remix', 'mint', 'proposal') then
    raise exception 'invalid_reason' using errcode = '22023';
  end if;
  if p_ref is null or char_length(p_ref) not between 1 and 200 then
    raise exception 'invalid_reference' using errcode = '22023';
  end if;
  v_key := 'spend:' || v_uid::text || ':' || p_reason || ':' || p_ref;

  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  if not found then
    raise exception 'insufficient_balance';
  end if;
  if exists (select 1 from public.token_ledger where idempotency_key = v_key) then
    return json_build_object('balance', v_balance);
  end if;
  if v_balance < p_amount then
    raise exception 'insufficient_balance';
  end if;

  insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
  values (v_uid, -p_amount, p_reason, p_ref, v_key);
  update public.user_tokens
     set balance = balance - p_amount, updated_at = clock_timestamp()
   where user_id = v_uid
  returning balance into v_balance;
  return json_build_object('balance', v_balance);
end
$$;

create function public.is_admin() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.administrators where user_id = auth.uid())
$$;

-- ---------------------------------------------------------------------------------------------
-- Grants: take everything away from the API roles, then give back exactly what is needed.
-- ---------------------------------------------------------------------------------------------

revoke all on table
  public.profiles, public.songs, public.user_tokens, public.token_ledger,
  public.user_listening_history, public.playlists, public.playlist_songs, public.favourites,
  public.administrators
from anon, authenticated;
revoke all on all sequences in schema public from anon, authenticated;

grant select on public.profiles to anon, authenticated;
grant update (username, avatar_url, bio) on public.profiles to authenticated;
grant select on public.songs to anon, authenticated;
grant select on public.user_tokens, public.token_ledger, public.user_listening_history, public.administrators to authenticated;
grant select, insert, update, delete on public.playlists, public.playlist_songs, public.favourites to authenticated;

-- Server-side code (the service role bypasses RLS; its key never reaches a browser).
grant all on table
  public.profiles, public.songs, public.user_tokens, public.token_ledger,
  public.user_listening_history, public.playlists, public.playlist_songs, public.favourites,
  public.administrators
to service_role;

revoke execute on function
  public.init_user_tokens(), public.record_listen(text, int, text), public.spend_tokens(int, text, text),
  public.is_admin()
from public, anon;
grant execute on function
  public.init_user_tokens(), public.record_listen(text, int, text), public.spend_tokens(int, text, text),
  public.is_admin()
to authenticated, service_role;

revoke execute on function public.handle_new_user(), public.token_ledger_append_only() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Row level security
-- ---------------------------------------------------------------------------------------------

alter table public.profiles enable row level security;
alter table public.songs enable row level security;
alter table public.user_tokens enable row level security;
alter table public.token_ledger enable row level security;
alter table public.user_listening_history enable row level security;
alter table public.playlists enable row level security;
alter table public.playlist_songs enable row level security;
alter table public.favourites enable row level security;
alter table public.administrators enable row level security;

create policy "profiles are public" on public.profiles
  for select to anon, authenticated using (true);
create policy "owners edit their profile" on public.profiles
  for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

create policy "catalogue is public" on public.songs
  for select to anon, authenticated using (true);

create policy "owners read their wallet" on public.user_tokens
  for select to authenticated using (user_id = (select auth.uid()));
create policy "owners read their ledger" on public.token_ledger
  for select to authenticated using (user_id = (select auth.uid()));
create policy "owners read their history" on public.user_listening_history
  for select to authenticated using (user_id = (select auth.uid()));
create policy "administrators see their own row" on public.administrators
  for select to authenticated using (user_id = (select auth.uid()));

create policy "owners manage their playlists" on public.playlists
  for all to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

create policy "owners manage their playlist songs" on public.playlist_songs
  for all to authenticated
  using (exists (select 1 from public.playlists p where p.id = playlist_id and p.user_id = (select auth.uid())))
  with check (exists (select 1 from public.playlists p where p.id = playlist_id and p.user_id = (select auth.uid())));

create policy "owners manage their favourites" on public.favourites
  for all to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
