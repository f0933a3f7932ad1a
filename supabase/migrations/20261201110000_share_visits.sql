-- A share pays only for a visit the app's own page proves.
--
-- open_share(p_token) paid for any request from a new address: an <img> on another site pointing at
-- the RPC, or another site's fetch(), opened the link for every visitor of that site. Now:
--   * The shared page's script asks for a visit with share_visit_begin(p_token): a nonce (256 random
--     bits) bound to the link and to the visitor's client address, handed out only to a request from
--     the app's own page (public.request_from_app_page(): the browser's Origin header is the API's own
--     origin, or an origin listed in public.app_origins for an app served elsewhere).
--   * After the page has been shown (visible) for share_visit_rules().min_seconds, the script redeems
--     it: open_share(p_token, p_nonce). The server pays only when the nonce is this link's, from the
--     same address, at least min_seconds and at most max_seconds old, redeemed for the first time, and
--     the request again comes from the app's page; then every rule of before (own link, the sharer's
--     addresses, linked accounts, once per link per day, once per visitor per day, the daily cap).
--   * A nonce is spent once: concurrent redemptions wait on the sharer's wallet row, and the nonce is
--     marked under that lock, so exactly one of them counts.
-- open_share(p_token) without a nonce still answers (reason 'unproven_visit') and pays nothing.

create function public.share_visit_rules() returns json
language sql
immutable
set search_path = ''
as $$
  select json_build_object(
    -- The page must have been shown this long before its visit counts.
    'min_seconds', 2,
    -- A visit not redeemed within this time is over.
    'max_seconds', 900,
    -- Visits one client address may begin per 10 minutes.
    'per_address_per_10_minutes', 30
  )
$$;
grant execute on function public.share_visit_rules() to anon, authenticated, service_role;

-- The origins of an app served from another address than the API (hosted: the site's own origin,
-- e.g. 'https://cube.example'). The local backend serves the app itself, on the API's own origin.
create table public.app_origins (
  origin text primary key check (origin ~ '^https?://[^/?#\s]+$')
);
alter table public.app_origins enable row level security;
revoke all on table public.app_origins from anon, authenticated;
grant all on table public.app_origins to service_role;

-- Whether this API request comes from a page of the app, as the browser tells it: a browser puts
-- the page's origin in Origin on every fetch() that is not a plain GET, and no page can change it.
-- An <img>, a link or a GET has no Origin, so it is never the app's page here. Sec-Fetch-Site, when
-- sent, must not contradict a same-origin claim.
create function public.request_from_app_page() returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  h json := nullif(current_setting('request.headers', true), '')::json;
  v_origin text := lower(btrim(h ->> 'origin'));
  v_host text := lower(btrim(h ->> 'host'));
  v_site text := lower(btrim(h ->> 'sec-fetch-site'));
begin
  if v_origin is null or v_origin = '' or v_origin = 'null' then
    return false;
  end if;
  if v_host is not null and v_origin in ('http://' || v_host, 'https://' || v_host) then
    return v_site is null or v_site = 'same-origin';
  end if;
  return exists (select 1 from public.app_origins where lower(origin) = v_origin);
end
$$;
revoke execute on function public.request_from_app_page() from public, anon, authenticated;

create table public.share_visits (
  nonce text primary key check (nonce ~ '^[0-9a-f]{64}$'),
  link_id uuid not null references public.share_links (id) on delete cascade,
  -- 'a:' || sha256(client address): the table never holds a visitor's address.
  visitor_key text not null,
  issued_at timestamptz not null default clock_timestamp(),
  redeemed_at timestamptz
);
create index share_visits_visitor_idx on public.share_visits (visitor_key, issued_at);
create index share_visits_issued_idx on public.share_visits (issued_at);
alter table public.share_visits enable row level security;
revoke all on table public.share_visits from anon, authenticated;
grant all on table public.share_visits to service_role;

-- The shared page was loaded: hands it the nonce its script redeems once the page has been shown.
create function public.share_visit_begin(p_token text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_rules constant json := public.share_visit_rules();
  v_address text := public.client_address();
  v_link public.share_links;
  v_key text;
  v_nonce text;
begin
  if p_token is not null and p_token ~ '^[0-9a-f]{64}$' then
    select * into v_link from public.share_links where token = p_token;
  end if;
  if v_link.id is null then
    raise exception 'invalid_share_link' using errcode = '22023',
      detail = 'This share link is not valid: it may be cut short or mistyped. The page itself works without it.';
  end if;
  if not public.request_from_app_page() then
    raise exception 'share_visit_not_from_app' using errcode = '42501',
      detail = 'A shared link counts only when it is opened on the app''s own page.';
  end if;
  if v_address is null then
    raise exception 'share_visit_unknown_client' using errcode = '42501',
      detail = 'This visit cannot be counted: the server does not know where it comes from.';
  end if;
  v_key := 'a:' || encode(sha256(convert_to(v_address, 'UTF8')), 'hex');
  -- Visits are cheap to ask for, rows are not. One address's requests count in turn.
  perform pg_advisory_xact_lock(hashtextextended(v_key, 0));
  if (select count(*) from public.share_visits
       where visitor_key = v_key and issued_at > clock_timestamp() - interval '10 minutes')
     >= (c_rules ->> 'per_address_per_10_minutes')::int then
    raise exception 'too_many_share_visits' using errcode = '54000',
      detail = 'Too many shared links opened from here in the last 10 minutes; the pages work, the visits are not counted.';
  end if;
  -- Visits older than a day can no longer pay: they go.
  delete from public.share_visits where issued_at < clock_timestamp() - interval '1 day';
  v_nonce := replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');
  insert into public.share_visits (nonce, link_id, visitor_key) values (v_nonce, v_link.id, v_key);
  return json_build_object(
    'nonce', v_nonce,
    'redeem_after_ms', (c_rules ->> 'min_seconds')::int * 1000,
    'expires_in_ms', (c_rules ->> 'max_seconds')::int * 1000
  );
end
$$;

drop function public.open_share(text);

create function public.open_share(p_token text, p_nonce text default null) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_rules constant json := public.share_rules();
  c_visit constant json := public.share_visit_rules();
  c_cap constant int := (c_rules ->> 'daily_cap')::int;
  v_uid uuid := auth.uid();
  v_address text := public.client_address();
  v_today date := (clock_timestamp() at time zone 'utc')::date;
  v_link public.share_links;
  v_visit public.share_visits;
  v_amount int;
  v_reason text;
  -- Hashed: the tables never hold a visitor's address.
  v_address_key text := case when v_address is not null then 'a:' || encode(sha256(convert_to(v_address, 'UTF8')), 'hex') end;
  v_account_key text := case when v_uid is not null then 'u:' || v_uid::text end;
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

  if p_nonce is not null and p_nonce ~ '^[0-9a-f]{64}$' then
    select * into v_visit from public.share_visits where nonce = p_nonce and link_id = v_link.id;
  end if;

  if v_uid is not null and v_uid = v_link.user_id then
    v_reason := 'own_link';
  elsif not public.request_from_app_page() then
    v_reason := 'not_from_app';
  elsif v_visit.nonce is null or v_address_key is null or v_visit.visitor_key <> v_address_key then
    v_reason := 'unproven_visit';
  elsif v_visit.redeemed_at is not null then
    v_reason := 'visit_already_counted';
  elsif v_visit.issued_at > clock_timestamp() - make_interval(secs => (c_visit ->> 'min_seconds')::int) then
    -- Too early to be a page someone saw; the nonce stays valid for the page's own later call.
    v_reason := 'visit_too_short';
  elsif v_visit.issued_at < clock_timestamp() - make_interval(secs => (c_visit ->> 'max_seconds')::int) then
    v_reason := 'visit_expired';
  else
    -- The visit is proven: it is spent now, whatever the rules below decide.
    update public.share_visits set redeemed_at = clock_timestamp() where nonce = v_visit.nonce;
    if cardinality(v_link.sharer_addresses) = 0 then
      v_reason := 'unknown_client';
    elsif v_address = any (v_link.sharer_addresses)
          -- ... or any address the sharer listened or published from lately (their phone, their other browser).
          or exists (select 1 from public.account_clients c
                      where c.user_id = v_link.user_id and c.client_address = v_address
                        and c.last_seen > now() - make_interval(days => (public.reward_rules() -> 'creator' ->> 'link_days')::int)) then
      v_reason := 'same_client';
    elsif v_uid is not null and public.listener_linked_to_creator(v_uid, v_link.user_id) then
      -- A signed-in opener linked to the sharer is the sharer's own, not someone else.
      v_reason := 'linked_account';
    elsif exists (select 1 from public.shares where user_id = v_link.user_id and item_type = v_link.item_type
                                               and item_id = v_link.item_id and platform = v_link.platform and day = v_today) then
      v_reason := 'already_credited_today';
    elsif exists (select 1 from public.share_open_payers p
                  where p.sharer_id = v_link.user_id and p.day = v_today
                    and p.visitor_key in (v_address_key, v_account_key)) then
      -- One visitor (an address, or a signed-in account) pays a sharer once a day, whatever they open.
      v_reason := 'visitor_already_paid';
    elsif (select count(*) from public.shares where user_id = v_link.user_id and day = v_today) >= c_cap then
      v_reason := 'daily_cap';
    else
      v_reason := 'credited';
      insert into public.shares (user_id, item_type, item_id, platform, day, amount)
      values (v_link.user_id, v_link.item_type, v_link.item_id, v_link.platform, v_today, v_amount);
      perform public.post_ledger(v_link.user_id, v_amount, 'share', v_link.item_type || ':' || v_link.item_id || ':' || v_link.platform,
        'share:' || v_link.user_id::text || ':' || v_link.item_type || ':' || v_link.item_id || ':' || v_link.platform
          || ':' || v_today::text);
      insert into public.share_open_payers (sharer_id, day, visitor_key)
      select v_link.user_id, v_today, k from unnest(array[v_address_key, v_account_key]) k where k is not null
      on conflict do nothing;
      update public.share_links set status = 'credited', credited_at = clock_timestamp(), amount = v_amount where id = v_link.id;
    end if;
  end if;

  return json_build_object('credited', v_reason = 'credited', 'reason', v_reason);
end
$$;

revoke execute on function public.share_visit_begin(text), public.open_share(text, text) from public, anon;
grant execute on function public.share_visit_begin(text), public.open_share(text, text) to anon, authenticated, service_role;
