-- The Admin Dashboard, enforced by the server (issue 14).
--
-- Everything here is for administrators (public.is_admin()) only: RLS on the tables, and definer
-- functions that check is_admin() first. Secrets (AI API keys, the database connection URL) live
-- in public.admin_secrets, which no API role can read or write at all: the definer functions
-- write them and answer only a mask ('••••last4'); server-side code (edge functions, with the
-- service role) is the only reader. Every change is audited (who, when, old -> new, secrets masked).
-- Two values are public: the site title and the brand's primary colour (public_site_settings()).

-- ---------------------------------------------------------------------------------------------
-- Secrets: never readable through any API, administrators included.
-- ---------------------------------------------------------------------------------------------
create table public.admin_secrets (
  name text primary key check (name ~ '^[a-z][a-z0-9_:.-]{1,60}$'),
  value text not null check (char_length(value) between 1 and 4096),
  updated_at timestamptz not null default now()
);
alter table public.admin_secrets enable row level security;
-- No policy: anon and authenticated see and change nothing, whatever they send.
revoke all on table public.admin_secrets from anon, authenticated;
grant all on table public.admin_secrets to service_role;

create function public.mask_secret(p_value text) returns text
language sql
immutable
set search_path = ''
as $$
  select case when p_value is null or p_value = '' then null
              else '••••' || right(p_value, least(4, greatest(char_length(p_value) - 4, 0))) end
$$;

-- ---------------------------------------------------------------------------------------------
-- AI providers, one row per category.
-- ---------------------------------------------------------------------------------------------
create table public.ai_provider_settings (
  category text primary key check (category in ('image', 'text', 'music', 'inference')),
  provider text not null check (char_length(provider) between 1 and 60),
  model text not null check (char_length(model) between 1 and 60),
  base_url text check (base_url is null or (char_length(base_url) <= 500 and base_url ~ '^https?://[^\s/?#]+([/?#]\S*)?$')),
  api_key_mask text,
  updated_by uuid references auth.users (id) on delete set null,
  updated_at timestamptz not null default now()
);
insert into public.ai_provider_settings (category, provider, model) values
  ('image', 'Stable Diffusion XL', 'Stable Diffusion XL'),
  ('text', 'On-device (built in)', 'On-device (built in)'),
  ('music', 'On-device (built in)', 'On-device (built in)'),
  ('inference', 'OpenAI API', 'OpenAI API');

-- ---------------------------------------------------------------------------------------------
-- Site settings: one row. The database URL is a secret (stored in admin_secrets, shown masked).
-- ---------------------------------------------------------------------------------------------
create table public.site_settings (
  id boolean primary key default true check (id),
  site_title text not null default 'CUBE Music' check (char_length(btrim(site_title)) between 1 and 80),
  primary_color text check (primary_color is null or primary_color ~ '^#[0-9a-fA-F]{6}$'),
  max_free_songs int not null default 1 check (max_free_songs between 0 and 1000),
  database_url_mask text,
  api_base_url text check (api_base_url is null or (char_length(api_base_url) <= 500 and api_base_url ~ '^https?://[^\s/?#]+([/?#]\S*)?$')),
  api_timeout_ms int not null default 5000 check (api_timeout_ms between 1000 and 600000 and api_timeout_ms % 1000 = 0),
  max_retries int not null default 3 check (max_retries between 0 and 10),
  updated_by uuid references auth.users (id) on delete set null,
  updated_at timestamptz not null default now()
);
insert into public.site_settings (id) values (true);

-- ---------------------------------------------------------------------------------------------
-- The audit of every admin change.
-- ---------------------------------------------------------------------------------------------
create table public.admin_audit (
  id bigint generated always as identity primary key,
  actor_id uuid references auth.users (id) on delete set null,
  actor_email text,
  area text not null,
  field text not null,
  old_value text,
  new_value text,
  created_at timestamptz not null default now()
);
create index admin_audit_created_idx on public.admin_audit (created_at desc);

-- ---------------------------------------------------------------------------------------------
-- Knowledge base.
-- ---------------------------------------------------------------------------------------------
create table public.knowledge_base (
  id uuid primary key default gen_random_uuid(),
  title text not null check (char_length(btrim(title)) between 1 and 200),
  content text not null check (char_length(btrim(content)) between 1 and 20000),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index knowledge_base_search_idx on public.knowledge_base using gin (to_tsvector('simple', title || ' ' || content));

-- ---------------------------------------------------------------------------------------------
-- RLS and grants: administrators only (the knowledge base through plain REST; settings through
-- the definer functions below so they are validated and audited).
-- ---------------------------------------------------------------------------------------------
alter table public.ai_provider_settings enable row level security;
alter table public.site_settings enable row level security;
alter table public.admin_audit enable row level security;
alter table public.knowledge_base enable row level security;

create policy "admins read ai settings" on public.ai_provider_settings for select to authenticated using ((select public.is_admin()));
create policy "admins read site settings" on public.site_settings for select to authenticated using ((select public.is_admin()));
create policy "admins read the audit" on public.admin_audit for select to authenticated using ((select public.is_admin()));
create policy "admins read knowledge" on public.knowledge_base for select to authenticated using ((select public.is_admin()));
create policy "admins add knowledge" on public.knowledge_base for insert to authenticated with check ((select public.is_admin()));
create policy "admins edit knowledge" on public.knowledge_base for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "admins delete knowledge" on public.knowledge_base for delete to authenticated using ((select public.is_admin()));

revoke all on table public.ai_provider_settings, public.site_settings, public.admin_audit, public.knowledge_base from anon, authenticated;
grant select on public.ai_provider_settings, public.site_settings, public.admin_audit to authenticated;
grant select, insert, update, delete on public.knowledge_base to authenticated;
grant all on table public.ai_provider_settings, public.site_settings, public.admin_audit, public.knowledge_base to service_role;

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------
create function public.require_admin() returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
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

create function public.admin_audit_write(p_area text, p_field text, p_old text, p_new text) returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.admin_audit (actor_id, actor_email, area, field, old_value, new_value)
  select auth.uid(), (select email from auth.users where id = auth.uid()), p_area, p_field, p_old, p_new
   where p_old is distinct from p_new
$$;

/** What everyone may know: the site's title and brand colour. */
create function public.public_site_settings() returns json
language sql
stable
security definer
set search_path = ''
as $$
  select json_build_object('site_title', site_title, 'primary_color', primary_color, 'max_free_songs', max_free_songs)
    from public.site_settings where id
$$;

/**
 * Saves one AI category. p_api_key: null keeps the stored key, '' removes it, anything else
 * replaces it. Answers the row with the key masked.
 */
create function public.admin_save_ai_settings(p_category text, p_provider text, p_model text, p_base_url text, p_api_key text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_old public.ai_provider_settings;
  v_new public.ai_provider_settings;
  v_mask text;
begin
  perform public.require_admin();
  select * into v_old from public.ai_provider_settings where category = p_category for update;
  if not found then
    raise exception 'unknown_category' using errcode = '22023', detail = 'The category must be image, text, music or inference.';
  end if;
  if p_api_key is not null and char_length(p_api_key) > 4096 then
    raise exception 'invalid_api_key' using errcode = '22023', detail = 'An API key is at most 4,096 characters.';
  end if;
  v_mask := case when p_api_key is null then v_old.api_key_mask when p_api_key = '' then null else public.mask_secret(p_api_key) end;
  update public.ai_provider_settings
     set provider = btrim(p_provider), model = btrim(p_model), base_url = nullif(btrim(coalesce(p_base_url, '')), ''),
         api_key_mask = v_mask, updated_by = auth.uid(), updated_at = now()
   where category = p_category
  returning * into v_new;
  if p_api_key = '' then
    delete from public.admin_secrets where name = 'ai_key:' || p_category;
  elsif p_api_key is not null then
    insert into public.admin_secrets (name, value) values ('ai_key:' || p_category, p_api_key)
    on conflict (name) do update set value = excluded.value, updated_at = now();
  end if;
  perform public.admin_audit_write('ai:' || p_category, 'provider', v_old.provider, v_new.provider);
  perform public.admin_audit_write('ai:' || p_category, 'model', v_old.model, v_new.model);
  perform public.admin_audit_write('ai:' || p_category, 'base_url', v_old.base_url, v_new.base_url);
  if p_api_key is not null then
    perform public.admin_audit_write('ai:' || p_category, 'api_key', coalesce(v_old.api_key_mask, '(none)'), coalesce(v_mask, '(none)'));
  end if;
  return json_build_object('category', v_new.category, 'provider', v_new.provider, 'model', v_new.model,
                           'base_url', v_new.base_url, 'api_key_mask', v_new.api_key_mask, 'updated_at', v_new.updated_at);
end
$$;

/** Saves the site settings; p_database_url: null keeps it, '' removes it. */
create function public.admin_save_site_settings(p_site_title text, p_primary_color text, p_max_free_songs int, p_database_url text,
                                                p_api_base_url text, p_api_timeout_ms int, p_max_retries int) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_old public.site_settings;
  v_new public.site_settings;
  v_mask text;
begin
  perform public.require_admin();
  if p_database_url is not null and p_database_url <> '' and p_database_url !~ '^postgres(ql)?://[^\s/?#]+(/\S*)?$' then
    raise exception 'invalid_database_url' using errcode = '22023', detail = 'A database URL looks like postgresql://user:password@host:5432/database.';
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

/** Grants or revokes the admin role by e-mail; never removes the last administrator. */
create function public.admin_set_role(p_email text, p_admin boolean) returns json
language plpgsql
security definer
set search_path = ''
as $$
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

/** The administrators, by e-mail (admins only). */
create function public.admin_list_admins() returns table (email text, since timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform public.require_admin();
  return query select u.email::text, a.created_at from public.administrators a join auth.users u on u.id = a.user_id order by a.created_at;
end
$$;

/** Knowledge-base search (title and content, words in any order); admins only through RLS. */
create function public.search_knowledge(p_query text) returns setof public.knowledge_base
language sql
stable
set search_path = ''
as $$
  select * from public.knowledge_base
   where coalesce(btrim(p_query), '') = ''
      or to_tsvector('simple', title || ' ' || content) @@ plainto_tsquery('simple', p_query)
      or title ilike '%' || p_query || '%' or content ilike '%' || p_query || '%'
   order by updated_at desc
   limit 200
$$;

/** For server-side code only (service role): the stored secret of an AI category. */
create function public.ai_provider_for_call(p_category text) returns json
language sql
stable
security definer
set search_path = ''
as $$
  select json_build_object('provider', s.provider, 'model', s.model, 'base_url', s.base_url,
                           'api_key', (select value from public.admin_secrets where name = 'ai_key:' || s.category))
    from public.ai_provider_settings s where s.category = p_category
$$;

revoke execute on function public.mask_secret(text), public.require_admin(), public.admin_audit_write(text, text, text, text),
  public.ai_provider_for_call(text) from public, anon, authenticated;
revoke execute on function public.admin_save_ai_settings(text, text, text, text, text), public.admin_save_site_settings(text, text, int, text, text, int, int),
  public.admin_set_role(text, boolean), public.admin_list_admins(), public.search_knowledge(text) from public, anon;
grant execute on function public.admin_save_ai_settings(text, text, text, text, text), public.admin_save_site_settings(text, text, int, text, text, int, int),
  public.admin_set_role(text, boolean), public.admin_list_admins(), public.search_knowledge(text) to authenticated;
grant execute on function public.public_site_settings() to anon, authenticated;
grant execute on function public.ai_provider_for_call(text), public.mask_secret(text) to service_role;
