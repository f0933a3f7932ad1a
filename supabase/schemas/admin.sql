-- The Admin Dashboard: administrators, audit, secrets, site settings and the economy view.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

-- ---------------------------------------------------------------------------------------------
-- The audit of every admin change.
-- ---------------------------------------------------------------------------------------------
CREATE TABLE public.admin_audit (
    id bigint NOT NULL,
    actor_id uuid,
    actor_email text,
    area text NOT NULL,
    field text NOT NULL,
    old_value text,
    new_value text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT admin_audit_pkey PRIMARY KEY (id),
    CONSTRAINT admin_audit_actor_id_fkey FOREIGN KEY (actor_id) REFERENCES auth.users(id) ON DELETE SET NULL
);
ALTER TABLE public.admin_audit ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.admin_audit_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
CREATE INDEX admin_audit_created_idx ON public.admin_audit USING btree (created_at DESC);
ALTER TABLE public.admin_audit ENABLE ROW LEVEL SECURITY;
CREATE POLICY "admins read the audit" ON public.admin_audit FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS is_admin));

-- ---------------------------------------------------------------------------------------------
-- Secrets: never readable through any API, administrators included.
-- ---------------------------------------------------------------------------------------------
CREATE TABLE public.admin_secrets (
    name text NOT NULL,
    value text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT admin_secrets_name_check CHECK ((name ~ '^[a-z][a-z0-9_:.-]{1,60}$'::text)),
    CONSTRAINT admin_secrets_value_check CHECK (((char_length(value) >= 1) AND (char_length(value) <= 4096))),
    CONSTRAINT admin_secrets_pkey PRIMARY KEY (name)
);
ALTER TABLE public.admin_secrets ENABLE ROW LEVEL SECURITY;

CREATE TABLE public.administrators (
    user_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT administrators_pkey PRIMARY KEY (user_id),
    CONSTRAINT administrators_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
ALTER TABLE public.administrators ENABLE ROW LEVEL SECURITY;
CREATE POLICY "administrators see their own row" ON public.administrators FOR SELECT TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));

-- ---------------------------------------------------------------------------------------------
-- Site settings: one row. The database URL is a secret (stored in admin_secrets, shown masked).
-- ---------------------------------------------------------------------------------------------
CREATE TABLE public.site_settings (
    id boolean DEFAULT true NOT NULL,
    site_title text DEFAULT 'CUBE Music'::text NOT NULL,
    primary_color text,
    max_free_songs integer DEFAULT 1 NOT NULL,
    database_url_mask text,
    api_base_url text,
    api_timeout_ms integer DEFAULT 5000 NOT NULL,
    max_retries integer DEFAULT 3 NOT NULL,
    updated_by uuid,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT site_settings_api_base_url_check CHECK (((api_base_url IS NULL) OR ((char_length(api_base_url) <= 500) AND
        (api_base_url ~ '^https?://[^\s/?#]+([/?#]\S*)?$'::text)))),
    CONSTRAINT site_settings_api_timeout_ms_check CHECK (((api_timeout_ms >= 1000) AND (api_timeout_ms <= 600000) AND
        ((api_timeout_ms % 1000) = 0))),
    CONSTRAINT site_settings_id_check CHECK (id),
    CONSTRAINT site_settings_max_free_songs_check CHECK (((max_free_songs >= 0) AND (max_free_songs <= 1000))),
    CONSTRAINT site_settings_max_retries_check CHECK (((max_retries >= 0) AND (max_retries <= 10))),
    CONSTRAINT site_settings_primary_color_check CHECK (((primary_color IS NULL) OR (primary_color ~ '^#[0-9a-fA-F]{6}$'::text))),
    CONSTRAINT site_settings_site_title_check CHECK (((char_length(btrim(site_title)) >= 1) AND (char_length(btrim(site_title)) <= 80))),
    CONSTRAINT site_settings_pkey PRIMARY KEY (id),
    CONSTRAINT site_settings_updated_by_fkey FOREIGN KEY (updated_by) REFERENCES auth.users(id) ON DELETE SET NULL
);
ALTER TABLE public.site_settings ENABLE ROW LEVEL SECURITY;
CREATE POLICY "admins read site settings" ON public.site_settings FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS
    is_admin));

create or replace function public.admin_audit_write(p_area text, p_field text, p_old text, p_new text) returns void
language sql security definer set search_path = '' as $$
  insert into public.admin_audit (actor_id, actor_email, area, field, old_value, new_value)
  select auth.uid(), (select email from auth.users where id = auth.uid()), p_area, p_field, p_old, p_new
   where p_old is distinct from p_new
$$;

create or replace function public.admin_economy(p_days int default 14) returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  v_days int := least(greatest(coalesce(p_days, 14), 1), 90);
  v_since timestamptz := date_trunc('day', clock_timestamp() at time zone 'utc') at time zone 'utc' - make_interval(days => v_days - 1);
begin
  perform public.require_admin();
  return json_build_object(
    'days', v_days,
    'since', v_since,
    -- Positive movements create CUBE (listens, welcomes, refunds...), negative ones destroy it (burns, spends).
    'per_day', coalesce((
      select json_agg(json_build_object('day', d.day, 'reason', d.reason, 'minted', d.minted, 'burned', d.burned, 'entries', d.entries)
                      order by d.day desc, d.reason)
        from (select (created_at at time zone 'utc')::date as day, reason,
                     sum(amount) filter (where amount > 0) as minted,
                     -sum(amount) filter (where amount < 0) as burned,
                     count(*) as entries
                from public.token_ledger where created_at >= v_since group by 1, 2) d), '[]'::json),
    'totals', json_build_object(
      'minted', (select coalesce(sum(amount), 0) from public.token_ledger where amount > 0 and created_at >= v_since),
      'burned', (select coalesce(-sum(amount), 0) from public.token_ledger where amount < 0 and created_at >= v_since),
      'supply', (select coalesce(sum(balance), 0) from public.user_tokens),
      'ledger_sum', (select coalesce(sum(amount), 0) from public.token_ledger),
      'accounts', (select count(*) from public.user_tokens)
    ),
    'top_earners', coalesce((
      select json_agg(json_build_object('username', coalesce(p.username, 'deleted account'), 'earned', e.earned,
                                        'listens', e.listens, 'creator', e.creator) order by e.earned desc)
        from (select user_id, sum(amount) as earned,
                     count(*) filter (where reason = 'listen') as listens,
                     coalesce(sum(amount) filter (where reason = 'creator'), 0) as creator
                from public.token_ledger
               where amount > 0 and created_at >= v_since
                 and reason not in (select json_array_elements_text(public.trust_rules() -> 'welcome_reasons'))
               group by user_id order by sum(amount) desc limit 10) e
        left join public.profiles p on p.user_id = e.user_id), '[]'::json),
    -- The trust rule (public.account_trust): accounts whose balance is still locked, and how much.
    'held_back', json_build_object(
      'accounts', (select count(*) from public.account_trust(null) a where not a.trusted),
      'locked', (select coalesce(sum(a.locked), 0) from public.account_trust(null) a where not a.trusted),
      'needed_days', (public.trust_rules() ->> 'needed_days')::int,
      'needed_songs', (public.trust_rules() ->> 'needed_songs')::int,
      'closest', coalesce((
        select json_agg(json_build_object('username', coalesce(p.username, 'deleted account'), 'listening_days', a.listening_days,
                                          'distinct_songs', a.distinct_songs, 'locked', a.locked)
                        order by a.listening_days desc, a.distinct_songs desc)
          from (select * from public.account_trust(null) where not trusted
                 order by listening_days desc, distinct_songs desc limit 10) a
          left join public.profiles p on p.user_id = a.user_id), '[]'::json)
    ),
    -- How often each listening rule refused a listen in the period (sessions that reached the qualifying time).
    'listen_outcomes', coalesce((
      select json_object_agg(o.outcome, o.n)
        from (select outcome, count(*) as n from public.listening_sessions
               where started_at >= v_since and outcome is not null group by outcome) o), '{}'::json)
  );
end
$$;

create or replace function public.admin_list_admins() returns table (email text, since timestamptz)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform public.require_admin();
  return query select u.email::text, a.created_at from public.administrators a join auth.users u on u.id = a.user_id order by a.created_at;
end
$$;

create or replace function public.admin_save_ai_settings(p_category text, p_provider text, p_model text, p_base_url text, p_api_key
    text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_old public.ai_provider_settings;
  v_new public.ai_provider_settings;
  v_key text := p_api_key;
  v_mask text;
begin
  perform public.require_admin();
  select * into v_old from public.ai_provider_settings where category = p_category for update;
  if not found then
    raise exception 'unknown_category' using errcode = '22023', detail = 'The category must be image, text, music or inference.';
  end if;
  if v_key is not null and char_length(v_key) > 4096 then
    raise exception 'invalid_api_key' using errcode = '22023', detail = 'An API key is at most 4,096 characters.';
  end if;
  -- The key was entered for the old destination: a new destination must be given its key again.
  if v_key is null and v_old.api_key_mask is not null
     and (btrim(p_provider) is distinct from v_old.provider or btrim(p_model) is distinct from v_old.model
          or nullif(btrim(coalesce(p_base_url, '')), '') is distinct from v_old.base_url) then
    v_key := '';
  end if;
  v_mask := case when v_key is null then v_old.api_key_mask when v_key = '' then null else public.mask_secret(v_key) end;
  update public.ai_provider_settings
     set provider = btrim(p_provider), model = btrim(p_model), base_url = nullif(btrim(coalesce(p_base_url, '')), ''),
         api_key_mask = v_mask, updated_by = auth.uid(), updated_at = now()
   where category = p_category
  returning * into v_new;
  if v_key = '' then
    delete from public.admin_secrets where name = 'ai_key:' || p_category;
  elsif v_key is not null then
    insert into public.admin_secrets (name, value) values ('ai_key:' || p_category, v_key)
    on conflict (name) do update set value = excluded.value, updated_at = now();
  end if;
  perform public.admin_audit_write('ai:' || p_category, 'provider', v_old.provider, v_new.provider);
  perform public.admin_audit_write('ai:' || p_category, 'model', v_old.model, v_new.model);
  perform public.admin_audit_write('ai:' || p_category, 'base_url', v_old.base_url, v_new.base_url);
  if v_key is not null then
    perform public.admin_audit_write('ai:' || p_category, 'api_key', coalesce(v_old.api_key_mask, '(none)'), coalesce(v_mask, '(none)'));
  end if;
  return json_build_object('category', v_new.category, 'provider', v_new.provider, 'model', v_new.model,
                           'base_url', v_new.base_url, 'api_key_mask', v_new.api_key_mask, 'updated_at', v_new.updated_at);
end
$$;

create or replace function public.admin_save_site_settings(p_site_title text, p_primary_color text, p_max_free_songs int,
    p_database_url text,
                                                p_api_base_url text, p_api_timeout_ms int, p_max_retries int) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_old public.site_settings;
  v_new public.site_settings;
  v_mask text;
begin
  perform public.require_admin();
  if p_database_url is not null and p_database_url <> '' and p_database_url !~ '^postgres(ql)?://[^\s/?#]+(/\S*)?$' then
    raise exception 'invalid_database_url' using errcode = '22023', detail =
        'A database URL looks like postgresql://user:password@host:5432/database.';
  end if;
  select * into v_old from public.site_settings where id for update;
  v_mask := case when p_database_url is null then v_old.database_url_mask when p_database_url = '' then null
                 else regexp_replace(p_database_url, '//([^:/@]+):[^@]*@', '//\1:••••@') end;
  update public.site_settings
     set site_title = btrim(p_site_title), primary_color = nullif(p_primary_color, ''), max_free_songs = p_max_free_songs,
         database_url_mask = v_mask, api_base_url = nullif(btrim(coalesce(p_api_base_url, '')), ''),
         api_timeout_ms = p_api_timeout_ms, max_retries = p_max_retries, updated_by = auth.uid(), updated_at = now()
   where id
  returning * into v_new;
  if p_database_url = '' then
    delete from public.admin_secrets where name = 'database_url';
  elsif p_database_url is not null then
    insert into public.admin_secrets (name, value) values ('database_url', p_database_url)
    on conflict (name) do update set value = excluded.value, updated_at = now();
  end if;
  perform public.admin_audit_write('site', 'site_title', v_old.site_title, v_new.site_title);
  perform public.admin_audit_write('site', 'primary_color', v_old.primary_color, v_new.primary_color);
  perform public.admin_audit_write('site', 'max_free_songs', v_old.max_free_songs::text, v_new.max_free_songs::text);
  perform public.admin_audit_write('site', 'database_url', v_old.database_url_mask, v_new.database_url_mask);
  perform public.admin_audit_write('site', 'api_base_url', v_old.api_base_url, v_new.api_base_url);
  perform public.admin_audit_write('site', 'api_timeout_ms', v_old.api_timeout_ms::text, v_new.api_timeout_ms::text);
  perform public.admin_audit_write('site', 'max_retries', v_old.max_retries::text, v_new.max_retries::text);
  return row_to_json(v_new);
end
$$;

create or replace function public.admin_set_role(p_email text, p_admin boolean) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_target uuid;
begin
  perform public.require_admin();
  select id into v_target from auth.users where email = lower(btrim(p_email));
  if v_target is null then
    raise exception 'unknown_account' using errcode = '22023', detail = 'No account uses that e-mail address.';
  end if;
  -- Serialises concurrent role changes so two admins cannot revoke each other at once.
  lock table public.administrators in share row exclusive mode;
  if p_admin then
    insert into public.administrators (user_id) values (v_target) on conflict do nothing;
    perform public.admin_audit_write('roles', lower(btrim(p_email)), 'user', 'admin');
  else
    if (select count(*) from public.administrators where user_id <> v_target) = 0 then
      raise exception 'last_admin' using errcode = '22023', detail = 'The last administrator cannot lose the role.';
    end if;
    delete from public.administrators where user_id = v_target;
    perform public.admin_audit_write('roles', lower(btrim(p_email)), 'admin', 'user');
  end if;
  return json_build_object('email', lower(btrim(p_email)), 'admin', p_admin);
end
$$;

create or replace function public.is_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.administrators where user_id = auth.uid())
$$;

create or replace function public.mask_secret(p_value text) returns text
language sql immutable set search_path = '' as $$
  select case when p_value is null or p_value = '' then null
              else '••••' || right(p_value, least(4, greatest(char_length(p_value) - 4, 0))) end
$$;

create or replace function public.public_site_settings() returns json
language sql stable security definer set search_path = '' as $$
  select json_build_object('site_title', site_title, 'primary_color', primary_color, 'max_free_songs', max_free_songs)
    from public.site_settings where id
$$;

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------
create or replace function public.require_admin() returns uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  if auth.uid() is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Administrators only: sign in first.';
  end if;
  if not public.is_admin() then
    raise exception 'administrators_only' using errcode = '42501', detail = 'Administrators only.';
  end if;
  return auth.uid();
end
$$;

insert into public.site_settings (id, site_title, max_free_songs, api_timeout_ms, max_retries) values
  ('true', 'CUBE Music', '1', '5000', '3');

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.admin_audit, public.admin_secrets, public.administrators, public.site_settings FROM PUBLIC, anon,
    authenticated, service_role;
GRANT ALL ON TABLE public.admin_audit, public.admin_secrets, public.administrators, public.site_settings TO service_role;
GRANT SELECT ON TABLE public.admin_audit, public.administrators, public.site_settings TO authenticated;
REVOKE ALL ON SEQUENCE public.admin_audit_id_seq FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON SEQUENCE public.admin_audit_id_seq TO anon, authenticated, service_role;
REVOKE ALL ON FUNCTION public.admin_audit_write(p_area text, p_field text, p_old text, p_new text), public.admin_economy(p_days
    integer), public.admin_list_admins(), public.admin_save_ai_settings(p_category text, p_provider text, p_model text, p_base_url
    text, p_api_key text), public.admin_save_site_settings(p_site_title text, p_primary_color text, p_max_free_songs integer,
    p_database_url text, p_api_base_url text, p_api_timeout_ms integer, p_max_retries integer), public.admin_set_role(p_email text,
    p_admin boolean), public.is_admin(), public.mask_secret(p_value text), public.public_site_settings(), public.require_admin()
    FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.public_site_settings() TO anon, authenticated, public, service_role;
GRANT ALL ON FUNCTION public.admin_economy(p_days integer), public.admin_list_admins(), public.admin_save_ai_settings(p_category
    text, p_provider text, p_model text, p_base_url text, p_api_key text), public.admin_save_site_settings(p_site_title text,
    p_primary_color text, p_max_free_songs integer, p_database_url text, p_api_base_url text, p_api_timeout_ms integer,
    p_max_retries integer), public.admin_set_role(p_email text, p_admin boolean), public.is_admin() TO authenticated, service_role;
GRANT ALL ON FUNCTION public.admin_audit_write(p_area text, p_field text, p_old text, p_new text), public.mask_secret(p_value
    text), public.require_admin() TO service_role;
