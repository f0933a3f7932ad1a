-- What every request passes through: two-factor (AAL) checks, the caller’s address and request limits.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

-- Client addresses an account was seen at (listening, publishing): the creator rule's "same client".
CREATE TABLE public.account_clients (
    user_id uuid NOT NULL,
    client_address text NOT NULL,
    last_seen timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT account_clients_pkey PRIMARY KEY (user_id, client_address),
    CONSTRAINT account_clients_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX account_clients_address_idx ON public.account_clients USING btree (client_address, last_seen DESC);
ALTER TABLE public.account_clients ENABLE ROW LEVEL SECURITY;

-- The origins of an app served from another address than the API (hosted: the site's own origin,
-- e.g. 'https://cube.example'). The local backend serves the app itself, on the API's own origin.
CREATE TABLE public.app_origins (
    origin text NOT NULL,
    CONSTRAINT app_origins_origin_check CHECK ((origin ~ '^https?://[^/?#\s]+$'::text)),
    CONSTRAINT app_origins_pkey PRIMARY KEY (origin)
);
ALTER TABLE public.app_origins ENABLE ROW LEVEL SECURITY;

-- Per-client-address rate limits for server code that runs without memory between calls (edge
-- functions on hosted Supabase): wallet-verify allows a number of wallet links per client address
-- per hour. The edge function reads the client's address from
-- the gateway's X-Forwarded-For (the local backend puts the socket's peer there) and takes one
-- from the limit before it links; the limit itself is the function's configuration
-- (WALLET_LINK_RATE_LIMIT). Sign-ups are limited in the auth service itself, as GoTrue does.
--
-- One row per (bucket, client, hour): fixed one-hour windows starting on the hour (UTC). Service
-- role only; no API role reads or writes the table or calls the function.
CREATE TABLE public.client_rate_limits (
    bucket text NOT NULL,
    client text NOT NULL,
    window_start timestamp with time zone NOT NULL,
    hits integer NOT NULL,
    CONSTRAINT client_rate_limits_bucket_check CHECK (((char_length(bucket) >= 1) AND (char_length(bucket) <= 40))),
    CONSTRAINT client_rate_limits_client_check CHECK (((char_length(client) >= 1) AND (char_length(client) <= 100))),
    CONSTRAINT client_rate_limits_hits_check CHECK ((hits > 0)),
    CONSTRAINT client_rate_limits_pkey PRIMARY KEY (bucket, client, window_start)
);
ALTER TABLE public.client_rate_limits ENABLE ROW LEVEL SECURITY;

create or replace function public.aal_satisfied() returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2'
      or not exists (select 1 from auth.mfa_factors where user_id = auth.uid() and status = 'verified');
end
$$;

-- The signed-in caller, for every call that acts for an account: a visitor (no user token) is
-- refused (42501) before anything is read or written, with not_authenticated or the call's own words.
create or replace function public.require_uid(p_message text default 'not_authenticated', p_detail text default null)
returns uuid
language plpgsql stable set search_path = '' as $$
begin
  if auth.uid() is null and p_detail is null then
    raise exception '%', p_message using errcode = '42501';
  elsif auth.uid() is null then
    raise exception '%', p_message using errcode = '42501', detail = p_detail;
  end if;
  return auth.uid();
end
$$;

create or replace function public.add_mfa_policy(p_table text) returns void
language plpgsql set search_path = '' as $$
begin
  execute format('drop policy if exists "two-factor sessions only" on public.%I', p_table);
  execute format(
    'create policy "two-factor sessions only" on public.%I as restrictive for all to authenticated'
    || ' using ((select public.aal_satisfied())) with check ((select public.aal_satisfied()))',
    p_table
  );
end
$$;

create or replace function public.check_request() returns void
language plpgsql stable set search_path = '' as $$
begin
  if auth.role() = 'authenticated' and not public.aal_satisfied() then
    raise sqlstate 'PT403' using
      message =
          'Finish two-factor sign-in first: this account uses two-factor authentication and this session has not entered its code yet.',
      hint = 'Verify a TOTP code (auth.mfa.challenge, then auth.mfa.verify) to raise the session to aal2.';
  end if;
end
$$;

create or replace function public.client_address() returns text
language plpgsql stable set search_path = '' as $$
declare
  h json := nullif(current_setting('request.headers', true), '')::json;
begin
  return nullif(btrim(coalesce(h ->> 'cf-connecting-ip', split_part(h ->> 'x-forwarded-for', ',', 1))), '');
end
$$;

-- Takes one hit for `p_client` in `p_bucket` in the current window of `p_window_seconds` (a
-- divisor of a day: windows start at whole multiples of it since midnight UTC). True when the
-- hit was within `p_limit`; false (and nothing counted) when the limit was already reached. The
-- conditional upsert holds the row lock, so concurrent calls never count past the limit.
-- How a client address is stored where it must be counted: its SHA-256 in hex, so the tables never
-- hold a visitor's address.
create or replace function public.address_key(p_address text) returns text
language sql immutable parallel safe set search_path = '' as $$
  select encode(sha256(convert_to(p_address, 'UTF8')), 'hex')
$$;

create or replace function public.client_rate_take(p_bucket text, p_client text, p_limit int, p_window_seconds int default 3600)
    returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  v_window timestamptz := to_timestamp(floor(extract(epoch from clock_timestamp()) / p_window_seconds) * p_window_seconds);
  v_client text := left(coalesce(nullif(btrim(p_client), ''), 'unknown'), 100);
  v_hits int;
begin
  if p_limit is null or p_limit < 1 or p_window_seconds is null or p_window_seconds < 1 then
    raise exception 'invalid_rate_limit' using errcode = '22023';
  end if;
  -- Old windows go as new ones are taken.
  delete from public.client_rate_limits where bucket = p_bucket and client = v_client and window_start < v_window;
  insert into public.client_rate_limits as l (bucket, client, window_start, hits)
  values (p_bucket, v_client, v_window, 1)
  on conflict (bucket, client, window_start) do update set hits = l.hits + 1 where l.hits < p_limit
  returning hits into v_hits;
  return v_hits is not null;
end
$$;

-- Whether sign-ups here confirm their e-mail through a mailed link (GoTrue's MAILER_AUTOCONFIRM
-- off): yes unless the database setting app.signup_confirms_email says 'off'. The local server
-- sets it from LOCAL_EMAIL_CONFIRM at every start; a hosted project that turned confirmations off
-- sets it once (ALTER DATABASE postgres SET app.signup_confirms_email = 'off'). Unset is the
-- hosted default, the one that tells nothing.
create or replace function public.signup_confirms_email() returns boolean
language sql stable set search_path = '' as $$
  select coalesce(nullif(current_setting('app.signup_confirms_email', true), ''), 'on') <> 'off'
$$;

-- What sign-up would refuse this address with, asked before the form sends it, so a handled
-- refusal is an answer and not a failed request: GoTrue's own words when a confirmed account
-- holds the address and sign-ups are not confirmed (GoTrue answers 422 user_already_exists then,
-- so this tells no more than sign-up itself). Null otherwise, and always null while sign-ups
-- confirm e-mail: sign-up then answers a look-alike pending user and tells nobody which addresses
-- are registered. Each question counts against the client address's hourly limit; beyond it the
-- answer is null and sign-up itself answers.
create or replace function public.signup_email_problem(p_email text) returns text
language plpgsql volatile security definer set search_path = '' as $$
begin
  if public.signup_confirms_email() then
    return null;
  end if;
  if not public.client_rate_take('signup_email_problem', public.client_address(), 60) then
    return null;
  end if;
  if exists (select 1 from auth.users where email = lower(btrim(coalesce(p_email, ''))) and email_confirmed_at is not null) then
    return 'User already registered';
  end if;
  return null;
end
$$;

create or replace function public.note_account_client(p_user uuid) returns text
language plpgsql security definer set search_path = '' as $$
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

-- Whether this API request comes from a page of the app, as the browser tells it: a browser puts
-- the page's origin in Origin on every fetch() that is not a plain GET, and no page can change it.
-- An <img>, a link or a GET has no Origin, so it is never the app's page here. Sec-Fetch-Site, when
-- sent, must not contradict a same-origin claim.
create or replace function public.request_from_app_page() returns boolean
language plpgsql stable security definer set search_path = '' as $$
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

CREATE POLICY "two-factor sessions only" ON public.admin_audit AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.admin_secrets AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.administrators AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.ai_provider_settings AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.blockchain_configs AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.client_rate_limits AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.comment_likes AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.comments AS RESTRICTIVE TO authenticated USING (( SELECT public.aal_satisfied()
    AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.delegations AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.favourites AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.follows AS RESTRICTIVE TO authenticated USING (( SELECT public.aal_satisfied()
    AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.knowledge_base AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.ledger_reasons AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.mint_requests AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.nfts AS RESTRICTIVE TO authenticated USING (( SELECT public.aal_satisfied() AS
    aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.notifications AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.page_views AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.playlist_songs AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.playlists AS RESTRICTIVE TO authenticated USING (( SELECT public.aal_satisfied()
    AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.profiles AS RESTRICTIVE TO authenticated USING (( SELECT public.aal_satisfied()
    AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.proposals AS RESTRICTIVE TO authenticated USING (( SELECT public.aal_satisfied()
    AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.remixes AS RESTRICTIVE TO authenticated USING (( SELECT public.aal_satisfied()
    AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.share_links AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.shares AS RESTRICTIVE TO authenticated USING (( SELECT public.aal_satisfied() AS
    aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.site_settings AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.siwe_nonces AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.song_publications AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.songs AS RESTRICTIVE TO authenticated USING (( SELECT public.aal_satisfied() AS
    aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.studio_projects AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.token_ledger AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.user_listening_history AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.user_settings AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.user_tokens AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.votes AS RESTRICTIVE TO authenticated USING (( SELECT public.aal_satisfied() AS
    aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.wallet_links AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.wallet_welcomes AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON storage.objects AS RESTRICTIVE TO authenticated USING (( SELECT public.aal_satisfied()
    AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));

-- PostgREST reads its settings from the role it logs in as; hosted projects have the
-- authenticator role, the local backend creates it (bootstrap.sql). Scoped to this database so
-- other databases of a shared cluster are not affected. It makes public.check_request() run before
-- every API request: an aal1 session of a two-factor account reaches nothing but the challenge.
do $$
begin
  if exists (select 1 from pg_roles where rolname = 'authenticator') then
    execute format('alter role authenticator in database %I set pgrst.db_pre_request = %L', current_database(), 'public.check_request');
  end if;
end
$$;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.account_clients, public.app_origins, public.client_rate_limits FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON TABLE public.account_clients, public.app_origins, public.client_rate_limits TO service_role;
REVOKE ALL ON FUNCTION public.aal_satisfied(), public.add_mfa_policy(p_table text), public.address_key(p_address text),
    public.check_request(), public.client_address(), public.client_rate_take(p_bucket text, p_client text, p_limit integer,
    p_window_seconds integer), public.note_account_client(p_user uuid), public.request_from_app_page(), public.require_uid(p_message
    text, p_detail text), public.signup_confirms_email(), public.signup_email_problem(p_email text) FROM PUBLIC, anon, authenticated,
    service_role;
GRANT ALL ON FUNCTION public.aal_satisfied(), public.check_request(), public.signup_email_problem(p_email text) TO anon, authenticated,
    service_role;
GRANT ALL ON FUNCTION public.add_mfa_policy(p_table text), public.address_key(p_address text), public.client_address(),
    public.client_rate_take(p_bucket text, p_client text, p_limit integer, p_window_seconds integer), public.note_account_client(p_user
    uuid), public.request_from_app_page(), public.require_uid(p_message text, p_detail text), public.signup_confirms_email() TO
    service_role;
