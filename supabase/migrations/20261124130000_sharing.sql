-- Share & Earn: share credits decided by the server only, and the Analytics tab's real figures
-- (profile visits and track plays recorded server-side, deduplicated per viewer per UTC day).
--
-- public.share_rules() is the one source of the sharing constants; share_credit() and the client
-- (rpc('share_rules')) read them from there. To change a rule, add a later migration that replaces it.

create function public.share_rules() returns json
language sql
stable
set search_path = ''
as $$
  select json_build_object(
    -- CUBE per credited share, by platform.
    'amounts', json_build_object('twitter', 10, 'facebook', 10, 'copy_link', 5, 'qr', 15, 'share_now', 5),
    -- Credited shares per user and UTC day (all platforms and items together).
    'daily_cap', 10,
    -- What can be shared: a profile (/user/{username}), a song (/song/{slug}), a generator recipe (/track/{id}).
    'item_types', json_build_array('user', 'song', 'track')
  )
$$;
revoke execute on function public.share_rules() from public;
grant execute on function public.share_rules() to anon, authenticated, service_role;

-- One row per credited share: at most one per (user, item, platform, UTC day) by the primary key.
create table public.shares (
  user_id uuid not null references auth.users (id) on delete cascade,
  item_type text not null check (item_type in ('user', 'song', 'track')),
  item_id text not null check (char_length(item_id) between 1 and 200),
  platform text not null check (platform in ('twitter', 'facebook', 'copy_link', 'qr', 'share_now')),
  day date not null,
  amount int not null check (amount > 0),
  created_at timestamptz not null default now(),
  primary key (user_id, item_type, item_id, platform, day)
);
create index shares_user_day_idx on public.shares (user_id, day);

alter table public.shares enable row level security;
create policy shares_read_own on public.shares for select to authenticated using (user_id = (select auth.uid()));
revoke all on table public.shares from anon, authenticated;
grant select on public.shares to authenticated;
grant all on table public.shares to service_role;

-- Profile visits and track plays, one row per (kind, item, viewer, UTC day). Written only through
-- record_view(); nobody reads the rows (viewers are private), owners read aggregates via share_analytics().
create table public.page_views (
  kind text not null check (kind in ('profile', 'play')),
  -- profile: the visited user's id; play: the song id.
  item_id text not null check (char_length(item_id) between 1 and 200),
  -- Whose figure this is (the visited user; the song's owner, null for the built-in catalogue).
  owner_id uuid references auth.users (id) on delete cascade,
  -- 'u:<user id>' or 'v:<the visitor's random browser id>'.
  viewer text not null check (char_length(viewer) between 3 and 80),
  day date not null,
  created_at timestamptz not null default now(),
  primary key (kind, item_id, viewer, day)
);
create index page_views_owner_idx on public.page_views (owner_id, day) where owner_id is not null;

alter table public.page_views enable row level security;
revoke all on table public.page_views from anon, authenticated;
grant all on table public.page_views to service_role;

-- Credits one share. Item must exist (profile by username, song by slug or id, track: a recipe id).
create function public.share_credit(p_item_type text, p_item_id text, p_platform text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_rules constant json := public.share_rules();
  c_cap constant int := (c_rules ->> 'daily_cap')::int;
  v_uid uuid := auth.uid();
  v_today date := (clock_timestamp() at time zone 'utc')::date;
  v_amount int := (c_rules -> 'amounts' ->> p_platform)::int;
  v_item text := p_item_id;
  v_today_count int;
  v_balance int;
  v_reason text;
  v_credited int := 0;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if v_amount is null then
    raise exception 'invalid_platform' using errcode = '22023';
  end if;
  if p_item_type is null or p_item_type not in ('user', 'song', 'track') or p_item_id is null or char_length(p_item_id) not between 1 and 200 then
    raise exception 'invalid_item' using errcode = '22023';
  end if;
  -- Songs are counted by id whether shared by slug or id.
  if p_item_type = 'song' then
    select id into v_item from public.songs where id = p_item_id or slug = p_item_id limit 1;
  elsif p_item_type = 'user' then
    select username into v_item from public.profiles where username = p_item_id;
  elsif p_item_id !~ '^[A-Za-z0-9._-]{1,200}$' then
    v_item := null;
  end if;
  if v_item is null then
    raise exception 'unknown_item' using errcode = '22023';
  end if;

  -- Every share of this user waits here for the previous one to commit.
  perform public.init_user_tokens();
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  select count(*) into v_today_count from public.shares where user_id = v_uid and day = v_today;

  if exists (select 1 from public.shares where user_id = v_uid and item_type = p_item_type and item_id = v_item
                                            and platform = p_platform and day = v_today) then
    v_reason := 'already_shared_today';
  elsif v_today_count >= c_cap then
    v_reason := 'daily_cap';
  else
    v_reason := 'credited';
    v_credited := v_amount;
    insert into public.shares (user_id, item_type, item_id, platform, day, amount)
    values (v_uid, p_item_type, v_item, p_platform, v_today, v_amount);
    insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
    values (v_uid, v_amount, 'share', p_item_type || ':' || v_item || ':' || p_platform,
            'share:' || v_uid::text || ':' || p_item_type || ':' || v_item || ':' || p_platform || ':' || v_today::text);
    update public.user_tokens
       set balance = balance + v_amount, updated_at = clock_timestamp()
     where user_id = v_uid
    returning balance into v_balance;
    v_today_count := v_today_count + 1;
  end if;

  return json_build_object(
    'credited', v_credited,
    'reason', v_reason,
    'balance', v_balance,
    'shares_today', v_today_count,
    'daily_cap', c_cap
  );
end
$$;

-- Records one profile visit or track play (anyone, visitors included); one per viewer per day.
-- p_visitor is the anonymous browser id of a visitor (ignored when signed in). Own visits do not count.
create function public.record_view(p_kind text, p_item_id text, p_visitor text default null) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_viewer text;
  v_owner uuid;
  v_item text;
  v_rows int;
begin
  if v_uid is not null then
    v_viewer := 'u:' || v_uid::text;
  elsif p_visitor ~ '^[A-Za-z0-9-]{8,64}$' then
    v_viewer := 'v:' || p_visitor;
  else
    raise exception 'invalid_visitor' using errcode = '22023';
  end if;
  if p_kind = 'profile' then
    select user_id, user_id::text into v_owner, v_item from public.profiles where username = p_item_id;
  elsif p_kind = 'play' then
    select owner_id, id into v_owner, v_item from public.songs where id = p_item_id or slug = p_item_id limit 1;
  else
    raise exception 'invalid_kind' using errcode = '22023';
  end if;
  if v_item is null then
    raise exception 'unknown_item' using errcode = '22023';
  end if;
  if v_uid is not null and v_owner = v_uid then
    return json_build_object('recorded', false, 'reason', 'own');
  end if;
  insert into public.page_views (kind, item_id, owner_id, viewer, day)
  values (p_kind, v_item, v_owner, v_viewer, (clock_timestamp() at time zone 'utc')::date)
  on conflict do nothing;
  get diagnostics v_rows = row_count;
  return json_build_object('recorded', v_rows = 1, 'reason', case when v_rows = 1 then 'recorded' else 'already_today' end);
end
$$;

-- The signed-in user's Analytics: totals and the last 30 UTC days.
create function public.share_analytics() returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_today date := (clock_timestamp() at time zone 'utc')::date;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  return json_build_object(
    'profile_visits', (select count(*) from public.page_views where owner_id = v_uid and kind = 'profile'),
    'track_plays', (select count(*) from public.page_views where owner_id = v_uid and kind = 'play'),
    'followers', (select count(*) from public.follows where following_id = v_uid),
    'shares', (select count(*) from public.shares where user_id = v_uid),
    'shares_today', (select count(*) from public.shares where user_id = v_uid and day = v_today),
    'by_platform', (select coalesce(json_object_agg(platform, n), '{}'::json)
                      from (select platform, count(*) as n from public.shares where user_id = v_uid group by platform) p),
    'days', (select json_agg(json_build_object(
                      'day', d::date,
                      'visits', (select count(*) from public.page_views where owner_id = v_uid and kind = 'profile' and day = d::date),
                      'plays', (select count(*) from public.page_views where owner_id = v_uid and kind = 'play' and day = d::date),
                      'shares', (select count(*) from public.shares where user_id = v_uid and day = d::date)) order by d)
               from generate_series(v_today - 29, v_today, interval '1 day') d)
  );
end
$$;

revoke execute on function public.share_credit(text, text, text), public.record_view(text, text, text), public.share_analytics() from public, anon;
grant execute on function public.share_credit(text, text, text), public.share_analytics() to authenticated, service_role;
grant execute on function public.record_view(text, text, text) to anon, authenticated, service_role;
