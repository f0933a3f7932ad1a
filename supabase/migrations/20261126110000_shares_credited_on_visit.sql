-- Shares earn when someone else opens them (issue 23, "Economy that cannot be farmed").
--
-- Until now share_credit() paid the moment the share button was clicked, so clicking was the whole
-- job. Now sharing only makes a link: public.share_create() stores one row in public.share_links
-- with an unguessable token (two v4 UUIDs from the server's strong random source: 244 random bits,
-- 64 hex digits) and answers with it; the app puts it on the shared address as `?s=<token>`. No
-- CUBE moves. When the shared page is opened with the token, the app calls public.open_share(),
-- which pays the sharer the platform's amount (share_rules(), unchanged) only when all of these hold:
--   * the opener is not the sharer (another account, or signed out);
--   * the opener's client address (public.client_address()) is known and is none of the addresses
--     the sharer shared this link from. An unknown address (null: no request headers, which the API
--     never produces) pays nothing: an unproven visitor is not a distinct one;
--   * the link has not been paid today (UTC): at most once per link per day, kept by the primary key
--     of public.shares (one row per sharer, item, platform and day) and the ledger's idempotency key;
--   * the sharer is under the daily share cap (share_rules().daily_cap paid shares per UTC day).
-- One link per (sharer, item, platform): sharing the same item on the same platform again gives the
-- same link back, so "once per link per day" is also "once per item and platform per day".
-- Concurrent opens wait on the sharer's wallet row, so exactly one pays. The credit goes through
-- public.post_ledger like every other movement of CUBE.
--
-- The sharer sees each link pending, then credited, live: share_links is published to Realtime and
-- readable by its sharer only (tokens of others are never readable). public.shares stays the record
-- of paid shares, so share_analytics() keeps counting what was credited.

drop function public.share_credit(text, text, text);

create table public.share_links (
  id uuid primary key default gen_random_uuid(),
  token text not null unique check (token ~ '^[0-9a-f]{64}$'),
  user_id uuid not null references auth.users (id) on delete cascade,
  item_type text not null check (item_type in ('user', 'song', 'track')),
  item_id text not null check (char_length(item_id) between 1 and 200),
  platform text not null check (platform in ('twitter', 'facebook', 'copy_link', 'qr', 'share_now')),
  -- What an open pays (share_rules() when the link was last shared or paid).
  amount int not null check (amount > 0),
  -- pending: not paid today; credited: paid today (credited_at). Sharing again on a later day
  -- makes it pending again.
  status text not null default 'pending' check (status in ('pending', 'credited')),
  created_at timestamptz not null default now(),
  shared_at timestamptz not null default now(),
  credited_at timestamptz,
  -- Client addresses the sharer shared this link from (the latest 20): opens from them never pay.
  sharer_addresses text[] not null default '{}',
  unique (user_id, item_type, item_id, platform)
);
create index share_links_user_idx on public.share_links (user_id, shared_at desc);

alter table public.share_links enable row level security;
create policy share_links_read_own on public.share_links for select to authenticated using (user_id = (select auth.uid()));
revoke all on table public.share_links from anon, authenticated;
grant select on public.share_links to authenticated;
grant all on table public.share_links to service_role;
select public.add_mfa_policy('share_links');

create trigger share_links_realtime after insert or update on public.share_links
for each row execute function cube_realtime.notify_change('user_id');
do $$
begin
  if exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    alter publication supabase_realtime add table public.share_links;
  end if;
end
$$;

-- Makes (or gives back) the caller's link for one item on one platform. Pays nothing.
create function public.share_create(p_item_type text, p_item_id text, p_platform text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_rules constant json := public.share_rules();
  v_uid uuid := auth.uid();
  v_today date := (clock_timestamp() at time zone 'utc')::date;
  v_amount int := (c_rules -> 'amounts' ->> p_platform)::int;
  v_address text := public.client_address();
  v_item text := p_item_id;
  v_link public.share_links;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if v_amount is null then
    raise exception 'invalid_platform' using errcode = '22023';
  end if;
  if p_item_type is null or p_item_type not in ('user', 'song', 'track')
     or p_item_id is null or char_length(p_item_id) not between 1 and 200 then
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

  -- The wallet must exist before an open can pay into it.
  perform public.init_user_tokens();
  select * into v_link from public.share_links
   where user_id = v_uid and item_type = p_item_type and item_id = v_item and platform = p_platform for update;
  if not found then
    -- Links are cheap to ask for, rows are not: at most 200 new ones per user per UTC day.
    if (select count(*) from public.share_links where user_id = v_uid and created_at >= v_today::timestamp at time zone 'utc') >= 200 then
      raise exception 'too_many_share_links' using errcode = '54000',
        detail = 'You made 200 new share links today; share one of them again, or try after 00:00 UTC.';
    end if;
    insert into public.share_links (token, user_id, item_type, item_id, platform, amount, sharer_addresses)
    values (replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), v_uid, p_item_type, v_item,
            p_platform, v_amount, case when v_address is null then '{}'::text[] else array[v_address] end)
    on conflict (user_id, item_type, item_id, platform) do nothing
    returning * into v_link;
    if v_link.id is null then
      select * into v_link from public.share_links
       where user_id = v_uid and item_type = p_item_type and item_id = v_item and platform = p_platform;
    end if;
  end if;
  update public.share_links
     set shared_at = clock_timestamp(),
         amount = case when status = 'credited' and (credited_at at time zone 'utc')::date = v_today then amount else v_amount end,
         status = case when status = 'credited' and (credited_at at time zone 'utc')::date = v_today then 'credited' else 'pending' end,
         sharer_addresses = case
           when v_address is null or v_address = any (sharer_addresses) then sharer_addresses
           else (array[v_address] || sharer_addresses)[1:20] end
   where id = v_link.id
  returning * into v_link;

  return json_build_object(
    'id', v_link.id,
    'token', v_link.token,
    'item_type', v_link.item_type,
    'item_id', v_link.item_id,
    'platform', v_link.platform,
    'amount', v_link.amount,
    'status', v_link.status,
    'shared_at', v_link.shared_at,
    'credited_at', v_link.credited_at
  );
end
$$;

-- A shared page was opened with its token: pays the sharer when the rules above allow it. Anyone
-- may call it (visitors too). Answers { credited, reason }; an unknown token is an error.
create function public.open_share(p_token text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_rules constant json := public.share_rules();
  c_cap constant int := (c_rules ->> 'daily_cap')::int;
  v_uid uuid := auth.uid();
  v_address text := public.client_address();
  v_today date := (clock_timestamp() at time zone 'utc')::date;
  v_link public.share_links;
  v_amount int;
  v_reason text;
begin
  if p_token is not null and p_token ~ '^[0-9a-f]{64}$' then
    select * into v_link from public.share_links where token = p_token;
  end if;
  if v_link.id is null then
    raise exception 'invalid_share_link' using errcode = '22023',
      detail = 'This share link is not valid: it may be cut short or mistyped. The page itself works without it.';
  end if;
  v_amount := coalesce((c_rules -> 'amounts' ->> v_link.platform)::int, v_link.amount);

  -- Every open of this sharer's links waits here for the previous one to commit.
  perform 1 from public.user_tokens where user_id = v_link.user_id for update;

  if v_uid is not null and v_uid = v_link.user_id then
    v_reason := 'own_link';
  elsif v_address is null or cardinality(v_link.sharer_addresses) = 0 then
    v_reason := 'unknown_client';
  elsif v_address = any (v_link.sharer_addresses) then
    v_reason := 'same_client';
  elsif exists (select 1 from public.shares where user_id = v_link.user_id and item_type = v_link.item_type
                                             and item_id = v_link.item_id and platform = v_link.platform and day = v_today) then
    v_reason := 'already_credited_today';
  elsif (select count(*) from public.shares where user_id = v_link.user_id and day = v_today) >= c_cap then
    v_reason := 'daily_cap';
  else
    v_reason := 'credited';
    insert into public.shares (user_id, item_type, item_id, platform, day, amount)
    values (v_link.user_id, v_link.item_type, v_link.item_id, v_link.platform, v_today, v_amount);
    perform public.post_ledger(v_link.user_id, v_amount, 'share', v_link.item_type || ':' || v_link.item_id || ':' || v_link.platform,
      'share:' || v_link.user_id::text || ':' || v_link.item_type || ':' || v_link.item_id || ':' || v_link.platform
        || ':' || v_today::text);
    update public.share_links set status = 'credited', credited_at = clock_timestamp(), amount = v_amount where id = v_link.id;
  end if;

  return json_build_object('credited', v_reason = 'credited', 'reason', v_reason);
end
$$;

revoke execute on function public.share_create(text, text, text), public.open_share(text) from public, anon;
grant execute on function public.share_create(text, text, text) to authenticated, service_role;
grant execute on function public.open_share(text) to anon, authenticated, service_role;

-- The Analytics tab also counts the links still waiting for a visitor.
create or replace function public.share_analytics() returns json
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
    'shares_pending', (select count(*) from public.share_links where user_id = v_uid and status = 'pending'),
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
