-- Share links and what opening one earns.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

-- Profile visits and track plays, one row per (kind, item, viewer, UTC day). Written only through
-- record_view(); nobody reads the rows (viewers are private), owners read aggregates via share_analytics().
CREATE TABLE public.page_views (
    kind text NOT NULL,
    item_id text NOT NULL,
    owner_id uuid,
    viewer text NOT NULL,
    day date NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT page_views_item_id_check CHECK (((char_length(item_id) >= 1) AND (char_length(item_id) <= 200))),
    CONSTRAINT page_views_kind_check CHECK ((kind = ANY (ARRAY['profile'::text, 'play'::text]))),
    CONSTRAINT page_views_viewer_check CHECK (((char_length(viewer) >= 3) AND (char_length(viewer) <= 80))),
    CONSTRAINT page_views_pkey PRIMARY KEY (kind, item_id, viewer, day),
    CONSTRAINT page_views_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX page_views_owner_idx ON public.page_views USING btree (owner_id, day) WHERE (owner_id IS NOT NULL);
ALTER TABLE public.page_views ENABLE ROW LEVEL SECURITY;

CREATE TABLE public.share_links (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    token text NOT NULL,
    user_id uuid NOT NULL,
    item_type text NOT NULL,
    item_id text NOT NULL,
    platform text NOT NULL,
    amount integer NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    shared_at timestamp with time zone DEFAULT now() NOT NULL,
    credited_at timestamp with time zone,
    sharer_addresses text[] DEFAULT '{}'::text[] NOT NULL,
    last_open_reason text,
    last_open_at timestamp with time zone,
    CONSTRAINT share_links_amount_check CHECK ((amount > 0)),
    CONSTRAINT share_links_item_id_check CHECK (((char_length(item_id) >= 1) AND (char_length(item_id) <= 200))),
    CONSTRAINT share_links_item_type_check CHECK ((item_type = ANY (ARRAY['user'::text, 'song'::text, 'track'::text]))),
    CONSTRAINT share_links_last_open_reason_check CHECK ((char_length(last_open_reason) <= 40)),
    CONSTRAINT share_links_platform_check CHECK ((platform = ANY (ARRAY['twitter'::text, 'facebook'::text, 'copy_link'::text,
        'qr'::text, 'share_now'::text]))),
    CONSTRAINT share_links_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'credited'::text]))),
    CONSTRAINT share_links_token_check CHECK ((token ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT share_links_pkey PRIMARY KEY (id),
    CONSTRAINT share_links_token_key UNIQUE (token),
    CONSTRAINT share_links_user_id_item_type_item_id_platform_key UNIQUE (user_id, item_type, item_id, platform),
    CONSTRAINT share_links_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX share_links_user_idx ON public.share_links USING btree (user_id, shared_at DESC);
ALTER TABLE public.share_links ENABLE ROW LEVEL SECURITY;
CREATE POLICY share_links_read_own ON public.share_links FOR SELECT TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)));
CREATE TRIGGER share_links_realtime AFTER INSERT OR UPDATE ON public.share_links FOR EACH ROW EXECUTE FUNCTION
    cube_realtime.notify_change('user_id');

CREATE TABLE public.share_open_payers (
    sharer_id uuid NOT NULL,
    day date NOT NULL,
    visitor_key text NOT NULL,
    CONSTRAINT share_open_payers_pkey PRIMARY KEY (sharer_id, day, visitor_key),
    CONSTRAINT share_open_payers_sharer_id_fkey FOREIGN KEY (sharer_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
ALTER TABLE public.share_open_payers ENABLE ROW LEVEL SECURITY;

CREATE TABLE public.share_visits (
    nonce text NOT NULL,
    link_id uuid NOT NULL,
    visitor_key text NOT NULL,
    issued_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    redeemed_at timestamp with time zone,
    CONSTRAINT share_visits_nonce_check CHECK ((nonce ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT share_visits_pkey PRIMARY KEY (nonce),
    CONSTRAINT share_visits_link_id_fkey FOREIGN KEY (link_id) REFERENCES public.share_links(id) ON DELETE CASCADE
);
CREATE INDEX share_visits_issued_idx ON public.share_visits USING btree (issued_at);
CREATE INDEX share_visits_visitor_idx ON public.share_visits USING btree (visitor_key, issued_at);
ALTER TABLE public.share_visits ENABLE ROW LEVEL SECURITY;

-- One row per credited share: at most one per (user, item, platform, UTC day) by the primary key.
CREATE TABLE public.shares (
    user_id uuid NOT NULL,
    item_type text NOT NULL,
    item_id text NOT NULL,
    platform text NOT NULL,
    day date NOT NULL,
    amount integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT shares_amount_check CHECK ((amount > 0)),
    CONSTRAINT shares_item_id_check CHECK (((char_length(item_id) >= 1) AND (char_length(item_id) <= 200))),
    CONSTRAINT shares_item_type_check CHECK ((item_type = ANY (ARRAY['user'::text, 'song'::text, 'track'::text]))),
    CONSTRAINT shares_platform_check CHECK ((platform = ANY (ARRAY['twitter'::text, 'facebook'::text, 'copy_link'::text,
        'qr'::text, 'share_now'::text]))),
    CONSTRAINT shares_pkey PRIMARY KEY (user_id, item_type, item_id, platform, day),
    CONSTRAINT shares_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX shares_user_day_idx ON public.shares USING btree (user_id, day);
ALTER TABLE public.shares ENABLE ROW LEVEL SECURITY;
CREATE POLICY shares_read_own ON public.shares FOR SELECT TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)));

-- The link a shared URL's token names; a token that names none (cut short, mistyped) is refused in
-- words, since the page itself works without it.
create or replace function public.share_link_by_token(p_token text) returns public.share_links
language plpgsql set search_path = '' as $$
declare
  v_link public.share_links;
begin
  if p_token is not null and p_token ~ '^[0-9a-f]{64}$' then
    select * into v_link from public.share_links where token = p_token;
  end if;
  if v_link.id is null then
    raise exception 'invalid_share_link' using errcode = '22023',
      detail = 'This share link is not valid: it may be cut short or mistyped. The page itself works without it.';
  end if;
  return v_link;
end
$$;

create or replace function public.open_share(p_token text, p_nonce text default null) returns json
language plpgsql security definer set search_path = '' as $$
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
  v_address_key text := case when v_address is not null then 'a:' || public.address_key(v_address) end;
  v_account_key text := case when v_uid is not null then 'u:' || v_uid::text end;
begin
  v_link := public.share_link_by_token(p_token);
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
      -- The opener's request pays the sharer, so it is paid out of the opener's address's daily bound,
      -- as every reward a request makes the server pay (public.address_allowance).
      v_amount := public.address_allowance(v_amount);
      if v_amount = 0 then
        v_reason := 'address_cap';
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
    -- The sharer sees what a proven visit did, live on their own link (Realtime re-reads it as them):
    -- paid, or why not. Only the reason and the time: nothing that tells who opened it.
    update public.share_links set last_open_reason = v_reason, last_open_at = clock_timestamp() where id = v_link.id;
  end if;

  return json_build_object('credited', v_reason = 'credited', 'reason', v_reason);
end
$$;

-- Records one profile visit or track play (anyone, visitors included); one per viewer per day.
-- p_visitor is the anonymous browser id of a visitor (ignored when signed in). Own visits do not count.
create or replace function public.record_view(p_kind text, p_item_id text, p_visitor text default null) returns json
language plpgsql security definer set search_path = '' as $$
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

-- The Analytics tab also counts the links still waiting for a visitor.
create or replace function public.share_analytics() returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_today date := (clock_timestamp() at time zone 'utc')::date;
begin
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

-- Makes (or gives back) the caller's link for one item on one platform. Pays nothing.
create or replace function public.share_create(p_item_type text, p_item_id text, p_platform text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.share_rules();
  v_uid uuid := public.require_uid();
  v_today date := (clock_timestamp() at time zone 'utc')::date;
  v_amount int := (c_rules -> 'amounts' ->> p_platform)::int;
  v_address text := public.client_address();
  v_item text := p_item_id;
  v_link public.share_links;
begin
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

create or replace function public.share_rules() returns json
language sql stable set search_path = '' as $$
  select json_build_object(
    -- CUBE per credited share, by platform.
    'amounts', json_build_object('twitter', 10, 'facebook', 10, 'copy_link', 5, 'qr', 15, 'share_now', 5),
    -- Credited shares per user and UTC day (all platforms and items together).
    'daily_cap', 10,
    -- What can be shared: a profile (/user/{username}), a song (/song/{slug}), a generator recipe (/track/{id}).
    'item_types', json_build_array('user', 'song', 'track')
  )
$$;

-- The shared page was loaded: hands it the nonce its script redeems once the page has been shown.
create or replace function public.share_visit_begin(p_token text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.share_visit_rules();
  v_address text := public.client_address();
  v_link public.share_links;
  v_key text;
  v_nonce text;
begin
  v_link := public.share_link_by_token(p_token);
  if not public.request_from_app_page() then
    raise exception 'share_visit_not_from_app' using errcode = '42501',
      detail = 'A shared link counts only when it is opened on the app''s own page.';
  end if;
  if v_address is null then
    raise exception 'share_visit_unknown_client' using errcode = '42501',
      detail = 'This visit cannot be counted: the server does not know where it comes from.';
  end if;
  v_key := 'a:' || public.address_key(v_address);
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

create or replace function public.share_visit_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object(
    -- The page must have been shown this long before its visit counts.
    'min_seconds', 2,
    -- A visit not redeemed within this time is over.
    'max_seconds', 900,
    -- Visits one client address may begin per 10 minutes.
    'per_address_per_10_minutes', 30
  )
$$;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.page_views, public.share_links, public.share_open_payers, public.share_visits, public.shares FROM
    PUBLIC, anon, authenticated, service_role;
GRANT ALL ON TABLE public.page_views, public.share_links, public.share_open_payers, public.share_visits, public.shares TO service_role;
GRANT SELECT ON TABLE public.share_links, public.shares TO authenticated;
REVOKE ALL ON FUNCTION public.open_share(p_token text, p_nonce text), public.record_view(p_kind text, p_item_id text, p_visitor
    text), public.share_analytics(), public.share_create(p_item_type text, p_item_id text, p_platform text), public.share_rules(),
    public.share_link_by_token(p_token text), public.share_visit_begin(p_token text), public.share_visit_rules() FROM PUBLIC,
    anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.share_visit_rules() TO anon, authenticated, public, service_role;
GRANT ALL ON FUNCTION public.open_share(p_token text, p_nonce text), public.record_view(p_kind text, p_item_id text, p_visitor
    text), public.share_rules(), public.share_visit_begin(p_token text) TO anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.share_analytics(), public.share_create(p_item_type text, p_item_id text, p_platform text) TO
    authenticated, service_role;
GRANT ALL ON FUNCTION public.share_link_by_token(p_token text) TO service_role;
