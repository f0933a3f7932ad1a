-- Baseline: the database as every earlier migration left it, in one script (supabase/schemas/ compiled
-- stage by stage by `npm run db:schema-fold`). Its version is the last of those migrations', so a
-- deployment that applied them does not apply it again (docs/backend.md, "Upgrading a deployment").
-- Never edit it: change supabase/schemas/ and write the difference with `npm run db:diff -- <name>`.

set check_function_bodies = off;

CREATE SCHEMA cube_realtime;

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
    -- The trust rule (20261126100000_trust_rule.sql): accounts whose welcome CUBE is still locked.
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

create or replace function public.ai_provider_for_call(p_category text) returns json
language sql stable security definer set search_path = '' as $$
  select json_build_object('provider', s.provider, 'model', s.model, 'base_url', s.base_url,
                           'api_key', (select value from public.admin_secrets where name = 'ai_key:' || s.category))
    from public.ai_provider_settings s where s.category = p_category
$$;

create or replace function public.ai_text_take(p_user uuid) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_day date := (now() at time zone 'utc')::date;
  v_quota public.ai_text_quota;
  v_total int;
  v_used int;
begin
  select * into v_quota from public.ai_text_quota where id;
  if v_quota.global_daily < 1 then
    return json_build_object('ok', false, 'scope', 'global', 'limit', v_quota.global_daily);
  end if;
  insert into public.ai_text_usage_total as t (day, calls) values (v_day, 1)
  on conflict (day) do update set calls = t.calls + 1 where t.calls < v_quota.global_daily
  returning calls into v_total;
  if v_total is null then
    return json_build_object('ok', false, 'scope', 'global', 'limit', v_quota.global_daily);
  end if;
  if v_quota.per_user_daily >= 1 then
    insert into public.ai_text_usage as u (day, user_id, calls) values (v_day, p_user, 1)
    on conflict (day, user_id) do update set calls = u.calls + 1 where u.calls < v_quota.per_user_daily
    returning calls into v_used;
  end if;
  if v_used is null then
    update public.ai_text_usage_total set calls = calls - 1 where day = v_day;
    return json_build_object('ok', false, 'scope', 'user', 'limit', v_quota.per_user_daily);
  end if;
  return json_build_object('ok', true, 'used', v_used, 'per_user_daily', v_quota.per_user_daily);
end
$$;

create or replace function public.aal_satisfied() returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2'
      or not exists (select 1 from auth.mfa_factors where user_id = auth.uid() and status = 'verified');
end
$$;

create or replace function public.add_mfa_policy(p_table text) returns void
language plpgsql set search_path = '' as $$
begin
  execute format('drop policy if exists "two-factor sessions only" on public.%I', p_table);
  execute
      format('create policy "two-factor sessions only" on public.%I as restrictive for all to authenticated using ((select public.aal_satisfied())) with check ((select public.aal_satisfied()))', p_table);
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

-- publish_song as in 20261125100400_publish_attempts.sql, storing the declared length to the millisecond.
create or replace function public.publish_song(
  p_title text,
  p_genre text,
  p_audio_path text,
  p_duration_seconds numeric,
  p_cover_path text default null,
  p_attempt_key text default null
) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.publishing_rules();
  v_uid uuid := auth.uid();
  v_title text := btrim(coalesce(p_title, ''));
  v_audio record;
  v_cover record;
  v_username text;
  v_today int;
  v_base text;
  v_slug text;
  v_id text := 'pub-' || replace(gen_random_uuid()::text, '-', '');
  v_n int := 1;
  v_cover_url text := null;
  v_first public.song_publications;
  v_first_slug text;
begin
  if v_uid is null then
    raise exception 'Sign in to publish a track.' using errcode = '42501';
  end if;
  -- One publication at a time per user: the per-day count below cannot be raced.
  select username into v_username from public.profiles where user_id = v_uid for update;
  if v_username is null then
    raise exception 'Your profile is missing; sign in again.' using errcode = '42501';
  end if;

  -- A repeated attempt answers its first publication, before any limit is looked at again: the
  -- quota was used once, by that publication.
  if p_attempt_key is null or char_length(p_attempt_key) not between 8 and 100 then
    raise exception 'Each publication needs an attempt key of 8 to 100 characters; reload the page and publish again.'
      using errcode = '22023';
  end if;
  select * into v_first from public.song_publications where user_id = v_uid and attempt_key = p_attempt_key;
  if found then
    select slug into v_first_slug from public.songs where id = v_first.song_id;
    if v_first_slug is null then
      raise exception 'This track was already published from this dialog and has since been unpublished.' using errcode = '22023';
    end if;
    return json_build_object('id', v_first.song_id, 'slug', v_first_slug, 'repeated', true);
  end if;

  if char_length(v_title) = 0 or char_length(v_title) > (c_rules ->> 'title_max')::int then
    raise exception 'The title must be 1 to % characters.', c_rules ->> 'title_max' using errcode = '22023';
  end if;
  if p_genre is null or not exists (select 1 from json_array_elements_text(c_rules -> 'genres') g where g = p_genre) then
    raise exception 'Unknown genre "%".', coalesce(p_genre, '') using errcode = '22023';
  end if;
  if p_duration_seconds is null or p_duration_seconds < (c_rules ->> 'min_seconds')::numeric
     or p_duration_seconds > (c_rules ->> 'max_seconds')::numeric then
    raise exception 'A published track must last % s to % minutes; this one lasts % s.',
      c_rules ->> 'min_seconds', (c_rules ->> 'max_seconds')::int / 60, round(coalesce(p_duration_seconds, 0)) using errcode = '22023';
  end if;

  select o.name, o.metadata into v_audio from storage.objects o
   where o.bucket_id = c_rules ->> 'audio_bucket' and o.name = p_audio_path
     and (storage.foldername(o.name))[1] = v_uid::text;
  if not found then
    raise exception 'Upload the audio to your own folder of % first.', c_rules ->> 'audio_bucket' using errcode = '22023';
  end if;
  if coalesce((v_audio.metadata ->> 'size')::bigint, 0) > (c_rules ->> 'max_audio_bytes')::bigint then
    raise exception 'The audio file is larger than % MB.', (c_rules ->> 'max_audio_bytes')::bigint / 1048576 using errcode = '22023';
  end if;
  if not exists (select 1 from json_array_elements_text(c_rules -> 'audio_types') t
                  where t = split_part(v_audio.metadata ->> 'mimetype', ';', 1)) then
    raise exception 'The audio must be Opus/WebM, Ogg or MP3, not %.', coalesce(v_audio.metadata ->> 'mimetype', 'unknown')
      using errcode = '22023';
  end if;
  -- The declared length must fit the file: more than 4x the encoder's bitrate per second means
  -- the file holds far more audio than declared.
  if (v_audio.metadata ->> 'size')::bigint * 8 > p_duration_seconds * (c_rules ->> 'bitrate_kbps')::int * 1000 * 4 then
    raise exception 'The audio file is too large for a % s track.', round(p_duration_seconds) using errcode = '22023';
  end if;

  if p_cover_path is not null then
    select o.name, o.metadata into v_cover from storage.objects o
     where o.bucket_id = c_rules ->> 'cover_bucket' and o.name = p_cover_path
       and (storage.foldername(o.name))[1] = v_uid::text;
    if not found then
      raise exception 'Upload the cover to your own folder of % first.', c_rules ->> 'cover_bucket' using errcode = '22023';
    end if;
    v_cover_url := '/storage/v1/object/public/' || (c_rules ->> 'cover_bucket') || '/' || p_cover_path;
  end if;

  if exists (select 1 from public.songs
              where audio_url = '/storage/v1/object/public/' || (c_rules ->> 'audio_bucket') || '/' || p_audio_path) then
    raise exception 'This audio is already published.' using errcode = '23505';
  end if;

  select count(*) into v_today from public.song_publications
   where user_id = v_uid and published_at >= date_trunc('day', now() at time zone 'utc') at time zone 'utc';
  if v_today >= (c_rules ->> 'per_day')::int then
    raise exception 'You can publish % tracks per day; try again tomorrow (UTC).', c_rules ->> 'per_day' using errcode = '54000';
  end if;

  v_base := public.slugify(v_title);
  v_slug := v_base;
  while exists (select 1 from public.songs where slug = v_slug) loop
    v_n := v_n + 1;
    v_slug := v_base || '-' || v_n;
  end loop;

  insert into public.songs (id, title, artist, duration_seconds, slug, genre, owner_id, cover_url, audio_url)
  values (v_id, v_title, v_username, round(p_duration_seconds, 3), v_slug, p_genre, v_uid,
          v_cover_url, '/storage/v1/object/public/' || (c_rules ->> 'audio_bucket') || '/' || p_audio_path);
  insert into public.song_publications (user_id, song_id, attempt_key) values (v_uid, v_id, p_attempt_key);
  return json_build_object('id', v_id, 'slug', v_slug, 'repeated', false);
end
$$;

create or replace function public.publishing_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object(
    'audio_bucket', 'published-audio',
    'cover_bucket', 'published-covers',
    'audio_types', json_build_array('audio/webm', 'audio/ogg', 'audio/mpeg'),
    'cover_types', json_build_array('image/png', 'image/jpeg', 'image/webp'),
    -- Opus at 96 kbit/s: transparent enough for the composer's output, 0.7 MB a minute.
    'bitrate_kbps', 96,
    'min_seconds', 5,
    'max_seconds', 600,
    -- 10 minutes at 96 kbit/s is 7.2 MB; the rest is room for VBR peaks and container overhead.
    'max_audio_bytes', 10485760,
    'max_cover_bytes', 2097152,
    'per_day', 10,
    'title_max', 100,
    'genres', json_build_array('electronic', 'pop', 'rock', 'hip-hop', 'jazz', 'folk', 'classical', 'ambient', 'metal')
  )
$$;

-- recommend_songs (20261124130100_discovery.sql) again, offering only songs the caller may see.
create or replace function public.recommend_songs(p_mode text default 'daily', p_salt int default 0, p_limit int default 10) returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_seed text := ((clock_timestamp() at time zone 'utc')::date)::text || ':' || coalesce(p_salt, 0)::text;
  v_jitter float8 := case when coalesce(p_salt, 0) = 0 then 0.15 else 0.6 end;
  v_result json;
begin
  if p_mode is null or p_mode not in ('daily', 'discover') then
    raise exception 'invalid_mode' using errcode = '22023';
  end if;
  if p_limit is null or p_limit < 1 or p_limit > 50 then
    raise exception 'invalid_limit' using errcode = '22023';
  end if;

  if v_uid is null then
    -- Visitors: popular songs of the last 7 days; discover: a daily sample of the rest.
    select coalesce(json_agg(r order by r.rank), '[]'::json) into v_result from (
      select s.id, s.slug, s.title, s.artist, s.genre, s.duration_seconds, s.reward, s.cover_url, s.audio_url, s.owner_id,
             coalesce(p.plays, 0) as plays, 'popular' as why,
             row_number() over (order by
               case when p_mode = 'daily' then -coalesce(p.plays, 0) else 0 end,
               case when p_mode = 'discover' then hashtext(v_seed || s.id) else 0 end, s.title) as rank
        from public.songs s
        left join (select song_id, count(*) as plays from public.user_listening_history
                    where listened_at > clock_timestamp() - interval '7 days' group by song_id) p on p.song_id = s.id
       where public.profile_visible(s.owner_id)
    ) r where r.rank <= p_limit;
    return v_result;
  end if;

  v_seed := v_uid::text || ':' || v_seed;
  with hist as (
    select song_id, sum(exp(-date_part('epoch', clock_timestamp() - listened_at) / 1209600.0)) as w, count(*) as n
      from public.user_listening_history where user_id = v_uid group by song_id
  ),
  liked as (select song_id from public.favourites where user_id = v_uid),
  followed as (select following_id from public.follows where follower_id = v_uid),
  signal as (
    select s.genre, s.artist, h.w from hist h join public.songs s on s.id = h.song_id
    union all
    select s.genre, s.artist, 3.0::float8 from liked l join public.songs s on s.id = l.song_id
    union all
    select s.genre, s.artist, 2.0::float8 from followed f join public.songs s on s.owner_id = f.following_id
  ),
  total as (select greatest(sum(w), 1e-9) as t from signal),
  genre_aff as (select genre, sum(w) / (select t from total) as a from signal where genre is not null group by genre),
  artist_aff as (select artist, sum(w) / (select t from total) as a from signal group by artist),
  usual as (select genre from genre_aff order by a desc, genre limit 2),
  popular as (
    select song_id, count(*)::float8 as plays from public.user_listening_history
     where listened_at > clock_timestamp() - interval '7 days' group by song_id
  ),
  maxpop as (select greatest(max(plays), 1) as m from popular),
  scored as (
    select s.id, s.slug, s.title, s.artist, s.genre, s.duration_seconds, s.reward, s.cover_url, s.audio_url, s.owner_id,
           coalesce(p.plays, 0) as plays,
           coalesce(g.a, 0) as genre_affinity,
           coalesce(a.a, 0) as artist_affinity,
           h.song_id is null as unheard,
           coalesce(g.a, 0) * 1.0 + coalesce(a.a, 0) * 0.6
             + case when fo.following_id is not null then 0.2 else 0 end
             + case when h.song_id is null then 0.3 else 0 end
             + coalesce(p.plays, 0) / (select m from maxpop) * 0.1
             -- hashtext and float8 throughout: md5 and numeric cost too much over a 10,000-song catalogue.
             + v_jitter * ((hashtext(v_seed || ':' || s.id)::float8 + 2147483648) / 4294967296) as score,
           s.genre is not null and s.genre in (select genre from usual) as usual_genre
      from public.songs s
      left join genre_aff g on g.genre = s.genre
      left join artist_aff a on a.artist = s.artist
      left join hist h on h.song_id = s.id
      left join popular p on p.song_id = s.id
      left join followed fo on fo.following_id = s.owner_id
     where public.profile_visible(s.owner_id)
  ),
  picked as (
    -- A top-N sort, not a full ranking of the catalogue.
    select *, case when p_mode = 'discover' then (case when usual_genre then 1 else 0 end) else 0 end as k1,
           case when p_mode = 'discover' then hashtext(v_seed || ':d:' || id) else 0 end as k2
      from scored
     order by case when p_mode = 'daily' then -score else 0 end, k1, k2, id
     limit p_limit
  )
  select coalesce(json_agg(json_build_object(
           'id', id, 'slug', slug, 'title', title, 'artist', artist, 'genre', genre,
           'duration_seconds', duration_seconds, 'reward', reward, 'cover_url', cover_url, 'audio_url', audio_url,
           'owner_id', owner_id, 'plays', plays, 'score', round(score::numeric, 4),
           'why', case when p_mode = 'discover' then 'discovery'
                       when genre_affinity > 0 then 'genre' when artist_affinity > 0 then 'artist'
                       when unheard then 'new' else 'popular' end) order by case when p_mode = 'daily' then -score else 0 end, k1,
                           k2, id), '[]'::json)
    into v_result
    from picked;
  return v_result;
end
$$;

-- Answers true when the values were recorded, false when the song already had a measurement.
create or replace function public.record_song_loudness(p_song_id text, p_loudness_lufs real, p_true_peak_dbtp real)
returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_owner uuid;
  v_measured boolean;
begin
  if v_uid is null then
    raise exception 'Sign in to record a song''s loudness.' using errcode = '42501';
  end if;
  if p_loudness_lufs is null or p_loudness_lufs not between -70 and 3 then
    raise exception 'The loudness must be between -70 and +3 LUFS.' using errcode = '22023';
  end if;
  if p_true_peak_dbtp is null or p_true_peak_dbtp not between -100 and 12 then
    raise exception 'The true peak must be between -100 and +12 dBTP.' using errcode = '22023';
  end if;
  select owner_id, loudness_lufs is not null into v_owner, v_measured from public.songs where id = p_song_id for update;
  if not found or v_owner is distinct from v_uid then
    raise exception 'Only the creator of a published song can record its loudness.' using errcode = '42501';
  end if;
  if v_measured then
    return false;
  end if;
  update public.songs set loudness_lufs = p_loudness_lufs, true_peak_dbtp = p_true_peak_dbtp where id = p_song_id;
  return true;
end
$$;

-- 'My Track!' -> 'my-track'; never empty, at most 60 characters.
create or replace function public.slugify(p_text text) returns text
language sql immutable set search_path = '' as $$
  select coalesce(nullif(left(trim(both '-' from regexp_replace(lower(coalesce(p_text, '')), '[^a-z0-9]+', '-', 'g')), 60), ''), 'song')
$$;

-- Removes the caller's own song; answers the Storage paths its client then removes.
create or replace function public.unpublish_song(p_song_id text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.publishing_rules();
  v_uid uuid := auth.uid();
  v_song public.songs;
  v_prefix text;
begin
  if v_uid is null then
    raise exception 'Sign in to unpublish a track.' using errcode = '42501';
  end if;
  delete from public.songs where id = p_song_id and owner_id = v_uid returning * into v_song;
  if not found then
    if exists (select 1 from public.songs where id = p_song_id) then
      raise exception 'Only the creator of a song can unpublish it.' using errcode = '42501';
    end if;
    raise exception 'No published song "%".', coalesce(p_song_id, '') using errcode = 'P0002';
  end if;
  v_prefix := '/storage/v1/object/public/';
  return json_build_object(
    'id', v_song.id,
    'audio_path', substr(v_song.audio_url, char_length(v_prefix || (c_rules ->> 'audio_bucket') || '/') + 1),
    'cover_path', case when v_song.cover_url like v_prefix || (c_rules ->> 'cover_bucket') || '/%'
                       then substr(v_song.cover_url, char_length(v_prefix || (c_rules ->> 'cover_bucket') || '/') + 1) end
  );
end
$$;

-- A user's public playlists; only songs the caller may see, counted and listed.
create or replace function public.public_playlists(p_user_id uuid) returns json
language sql stable security definer set search_path = '' as $$
  select coalesce(json_agg(json_build_object(
           'id', p.id,
           'name', p.name,
           'track_count', (select count(*) from public.playlist_songs ps join public.songs s on s.id = ps.song_id
                            where ps.playlist_id = p.id and public.profile_visible(s.owner_id)),
           'songs', coalesce((select json_agg(json_build_object('id', s.id, 'title', s.title, 'artist', s.artist, 'slug', s.slug)
               order by ps.position, ps.added_at)
                                from public.playlist_songs ps join public.songs s on s.id = ps.song_id
                               where ps.playlist_id = p.id and public.profile_visible(s.owner_id)), '[]'::json)
         ) order by p.created_at), '[]'::json)
    from public.playlists p
   where p.user_id = p_user_id and p.is_public and public.profile_visible(p_user_id)
$$;

-- comment_credit
CREATE OR REPLACE FUNCTION public.comment_credit(p_user uuid, p_amount integer, p_reason text, p_ref text, p_key text, p_key_prefix
    text, p_cap integer)
 RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path TO '' AS $function$
declare
  v_day_start timestamptz := date_trunc('day', now() at time zone 'utc') at time zone 'utc';
begin
  if not exists (select 1 from public.user_tokens where user_id = p_user) then
    return 0;
  end if;
  if exists (select 1 from public.token_ledger where idempotency_key = p_key) then
    return 0;
  end if;
  if p_cap is not null and (
    select count(*) from public.token_ledger
     where user_id = p_user and reason = p_reason and created_at >= v_day_start and idempotency_key like p_key_prefix || '%'
  ) >= p_cap then
    return 0;
  end if;
  perform public.post_ledger(p_user, p_amount, p_reason, p_ref, p_key);
  return p_amount;
end
$function$;

create or replace function public.comment_json(p_id uuid) returns json
language sql stable security definer set search_path = '' as $$
  select to_json(c) from public.comments c where c.id = p_id
$$;

-- Makes sure the caller has a wallet and locks the wallets of the given users in a fixed order
-- (two users replying to each other at once must not deadlock).
create or replace function public.comment_lock_wallets(p_users uuid[]) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform public.init_user_tokens();
  perform 1 from public.user_tokens where user_id = any (p_users) order by user_id for update;
end
$$;

create or replace function public.comment_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object(
    'max_length', 2000,
    'rewards', json_build_object('comment', 5, 'like', 2, 'reply', 3, 'reply_author', 3, 'daily_goal_bonus', 10),
    -- Credited rewards per user and UTC day.
    'daily_caps', json_build_object('comment', 10, 'like', 20, 'reply', 10, 'reply_author', 10),
    -- Tracks commented on in one UTC day for the bonus.
    'daily_goal_tracks', 5,
    -- Level = 1 + floor(tracks commented on / tracks_per_level).
    'tracks_per_level', 5
  )
$$;

-- Deletes the caller's comment. One with replies stays as 'comment deleted' (body emptied) so its
-- replies remain; a deleted parent whose last reply goes is removed too. Rewards already credited
-- stay credited, and their keys make re-posting earn nothing again.
create or replace function public.delete_comment(p_comment_id uuid) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_comment public.comments;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select * into v_comment from public.comments where id = p_comment_id and user_id = v_uid and not deleted for update;
  if not found then
    raise exception 'not_your_comment' using errcode = '42501', detail = 'Only the author can delete a comment.';
  end if;
  if exists (select 1 from public.comments where parent_id = p_comment_id) then
    delete from public.comment_likes where comment_id = p_comment_id;
    update public.comments set deleted = true, body = '', like_count = 0 where id = p_comment_id;
    return json_build_object('id', p_comment_id, 'kept_for_replies', true);
  end if;
  delete from public.comments where id = p_comment_id;
  if v_comment.parent_id is not null then
    delete from public.comments p
     where p.id = v_comment.parent_id and p.deleted
       and not exists (select 1 from public.comments r where r.parent_id = p.id);
  end if;
  return json_build_object('id', p_comment_id, 'kept_for_replies', false);
end
$$;

create or replace function public.edit_comment(p_comment_id uuid, p_body text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_body text := regexp_replace(coalesce(p_body, ''), '^\s+|\s+$', '', 'g');
  v_max int := (public.comment_rules() ->> 'max_length')::int;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if v_body = '' then
    raise exception 'empty_comment' using errcode = '22023', hint = 'Write something first.';
  end if;
  if char_length(v_body) > v_max then
    raise exception 'comment_too_long' using errcode = '22001', detail =
        format('A comment has at most %s characters; this one has %s.', v_max, char_length(v_body));
  end if;
  update public.comments set body = v_body, edited_at = now()
   where id = p_comment_id and user_id = v_uid and not deleted;
  if not found then
    raise exception 'not_your_comment' using errcode = '42501', detail = 'Only the author can edit a comment.';
  end if;
  return public.comment_json(p_comment_id);
end
$$;

-- The caller's Comments & Earn figures, from their real rows.
create or replace function public.my_comment_stats() returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  c_rules constant json := public.comment_rules();
  c_per_level constant int := (c_rules ->> 'tracks_per_level')::int;
  c_goal constant int := (c_rules ->> 'daily_goal_tracks')::int;
  v_uid uuid := auth.uid();
  v_day text := to_char(now() at time zone 'utc', 'YYYY-MM-DD');
  v_tracks int;
  v_today int;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select count(distinct song_id) into v_tracks from public.comments where user_id = v_uid and not deleted;
  select count(*) into v_today from public.token_ledger
   where user_id = v_uid and reason = 'comment' and idempotency_key like 'comment:' || v_uid || ':%:' || v_day;
  return json_build_object(
    'total_comments', (select count(*) from public.comments where user_id = v_uid and not deleted),
    'tokens_earned', (select coalesce(sum(amount), 0) from public.token_ledger
                       where user_id = v_uid and reason in ('comment', 'like', 'reply', 'comment_goal')),
    'tracks_commented', v_tracks,
    'level', 1 + v_tracks / c_per_level,
    'tracks_to_next_level', c_per_level - v_tracks % c_per_level,
    'level_progress', round(100.0 * (v_tracks % c_per_level) / c_per_level),
    'goal_tracks_today', least(v_today, c_goal),
    'goal_tracks', c_goal,
    'goal_reached', exists (select 1 from public.token_ledger where idempotency_key = 'comment_goal:' || v_uid || ':' || v_day)
  );
end
$$;

-- Posts a comment (p_parent_id null) or a reply to a top-level comment of the same song; a
-- top-level comment may be pinned to p_at_seconds. Returns {comment, credited: [{reason, amount}], balance}.
create or replace function public.post_comment(p_song_id text, p_body text, p_parent_id uuid default null, p_at_seconds numeric
    default null)
returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.comment_rules();
  v_uid uuid := auth.uid();
  v_day text := to_char(now() at time zone 'utc', 'YYYY-MM-DD');
  v_body text := regexp_replace(coalesce(p_body, ''), '^\s+|\s+$', '', 'g');
  v_parent public.comments;
  v_username text;
  v_id uuid;
  v_got int;
  v_credited jsonb := '[]'::jsonb;
  v_tracks_today int;
  v_length numeric;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if v_body = '' then
    raise exception 'empty_comment' using errcode = '22023', hint = 'Write something first.';
  end if;
  if char_length(v_body) > (c_rules ->> 'max_length')::int then
    raise exception 'comment_too_long' using errcode = '22001',
      detail = format('A comment has at most %s characters; this one has %s.', c_rules ->> 'max_length', char_length(v_body));
  end if;
  if p_song_id is null or not exists (select 1 from public.songs where id = p_song_id) then
    raise exception 'unknown_song' using errcode = '22023', detail = 'There is no such song.';
  end if;
  if p_parent_id is not null then
    select * into v_parent from public.comments where id = p_parent_id;
    if not found or v_parent.song_id <> p_song_id then
      raise exception 'unknown_comment' using errcode = '22023', detail = 'The comment you reply to does not exist.';
    end if;
    if v_parent.parent_id is not null then
      raise exception 'reply_to_reply' using errcode = '22023', detail = 'Replies cannot be replied to.';
    end if;
    if v_parent.deleted then
      raise exception 'comment_deleted' using errcode = '22023', detail = 'The comment you reply to was deleted.';
    end if;
  end if;

  if p_at_seconds is not null then
    if p_parent_id is not null then
      raise exception 'invalid_moment' using errcode = '22023', detail = 'A reply belongs to the moment of the comment it answers.';
    end if;
    select duration_seconds into v_length from public.songs where id = p_song_id;
    if p_at_seconds = 'NaN'::numeric or p_at_seconds < 0 or (v_length is not null and p_at_seconds > v_length) then
      raise exception 'invalid_moment' using errcode = '22023',
        detail = format('A comment can be pinned to a moment between 0:00 and the end of the song (%s s); %s s is not in it.',
                        coalesce(round(v_length)::text, '?'), p_at_seconds::text);
    end if;
  end if;

  perform public.comment_lock_wallets(array_remove(array[v_uid, v_parent.user_id], null));
  select username into v_username from public.profiles where user_id = v_uid;
  insert into public.comments (song_id, user_id, username, parent_id, body, at_seconds)
  values (p_song_id, v_uid, coalesce(v_username, 'listener'), p_parent_id, v_body, round(p_at_seconds, 3))
  returning id into v_id;

  if p_parent_id is null then
    v_got := public.comment_credit(v_uid, (c_rules -> 'rewards' ->> 'comment')::int, 'comment', p_song_id,
      'comment:' || v_uid || ':' || p_song_id || ':' || v_day, 'comment:', (c_rules -> 'daily_caps' ->> 'comment')::int);
    if v_got > 0 then
      v_credited := v_credited || jsonb_build_array(jsonb_build_object('reason', 'comment', 'amount', v_got));
      select count(*) into v_tracks_today from public.token_ledger
       where user_id = v_uid and reason = 'comment' and idempotency_key like 'comment:' || v_uid || ':%:' || v_day;
      if v_tracks_today >= (c_rules ->> 'daily_goal_tracks')::int then
        v_got := public.comment_credit(v_uid, (c_rules -> 'rewards' ->> 'daily_goal_bonus')::int, 'comment_goal', v_day,
          'comment_goal:' || v_uid || ':' || v_day, 'comment_goal:', null);
        if v_got > 0 then
          v_credited := v_credited || jsonb_build_array(jsonb_build_object('reason', 'comment_goal', 'amount', v_got));
        end if;
      end if;
    end if;
  else
    v_got := public.comment_credit(v_uid, (c_rules -> 'rewards' ->> 'reply')::int, 'reply', p_parent_id::text,
      'reply:' || v_uid || ':' || p_parent_id, 'reply:', (c_rules -> 'daily_caps' ->> 'reply')::int);
    if v_got > 0 then
      v_credited := v_credited || jsonb_build_array(jsonb_build_object('reason', 'reply', 'amount', v_got));
    end if;
    if v_parent.user_id <> v_uid then
      -- The author's credit; not returned to the replier as theirs.
      perform public.comment_credit(v_parent.user_id, (c_rules -> 'rewards' ->> 'reply_author')::int, 'reply', v_id::text,
        'reply_author:' || p_parent_id || ':' || v_uid, 'reply_author:', (c_rules -> 'daily_caps' ->> 'reply_author')::int);
    end if;
  end if;

  return json_build_object(
    'comment', public.comment_json(v_id),
    'credited', v_credited,
    'balance', (select balance from public.user_tokens where user_id = v_uid)
  );
end
$$;

-- Sets the caller's like on a comment (p_liked true) or removes it. Returns
-- {liked, like_count, credited: [{reason, amount}], balance}.
create or replace function public.set_comment_like(p_comment_id uuid, p_liked boolean) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.comment_rules();
  v_uid uuid := auth.uid();
  v_comment public.comments;
  v_got int := 0;
  v_count int;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_liked is null then
    raise exception 'invalid_like' using errcode = '22023';
  end if;
  perform public.comment_lock_wallets(array[v_uid]);
  -- Locks the comment: concurrent likes of it count one after the other.
  select * into v_comment from public.comments where id = p_comment_id for update;
  if not found or v_comment.deleted then
    raise exception 'unknown_comment' using errcode = '22023', detail = 'That comment does not exist (any more).';
  end if;
  if p_liked then
    insert into public.comment_likes (comment_id, user_id, song_id) values (p_comment_id, v_uid, v_comment.song_id)
    on conflict do nothing;
    if found then
      update public.comments set like_count = like_count + 1 where id = p_comment_id;
    end if;
    if v_comment.user_id <> v_uid then
      v_got := public.comment_credit(v_uid, (c_rules -> 'rewards' ->> 'like')::int, 'like', p_comment_id::text,
        'like:' || v_uid || ':' || p_comment_id, 'like:', (c_rules -> 'daily_caps' ->> 'like')::int);
    end if;
  else
    delete from public.comment_likes where comment_id = p_comment_id and user_id = v_uid;
    if found then
      update public.comments set like_count = like_count - 1 where id = p_comment_id;
    end if;
  end if;
  select like_count into v_count from public.comments where id = p_comment_id;
  return json_build_object(
    'liked', p_liked,
    'like_count', v_count,
    'credited', case when v_got > 0 then json_build_array(json_build_object('reason', 'like', 'amount', v_got)) else '[]'::json end,
    'balance', (select balance from public.user_tokens where user_id = v_uid)
  );
end
$$;

-- Casts the caller's vote with the power of the proposal's snapshot. Returns {vote, proposal}.
create or replace function public.cast_vote(p_proposal_id uuid, p_choice text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_proposal public.proposals;
  v_mine public.proposal_power;
  v_delegators uuid[];
  v_delegated bigint;
  v_power bigint;
  v_vote public.votes;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_choice is null or p_choice not in ('for', 'against') then
    raise exception 'invalid_choice' using errcode = '22023', detail = 'Vote for or against.';
  end if;
  perform public.close_due_proposals();
  perform public.init_user_tokens();
  -- The voter's wallet lock serialises this user's calls; the proposal's lock every vote on it, so
  -- the checks below see every vote committed before.
  perform 1 from public.user_tokens where user_id = v_uid for update;
  select * into v_proposal from public.proposals where id = p_proposal_id for update;
  if not found then
    raise exception 'unknown_proposal' using errcode = '22023', detail = 'There is no such proposal.';
  end if;
  if v_proposal.status <> 'active' then
    raise exception 'proposal_closed' using errcode = '22023', detail = 'Voting on this proposal has ended.';
  end if;
  if exists (select 1 from public.votes where proposal_id = p_proposal_id and user_id = v_uid) then
    raise exception 'already_voted' using errcode = '22023', detail = 'You have already voted on this proposal.';
  end if;
  select * into v_mine from public.proposal_power where proposal_id = p_proposal_id and user_id = v_uid;
  if not found then
    raise exception 'no_power' using errcode = '22023',
      detail = 'Voting power comes from balances at the moment a proposal is created, and your account did not exist yet then.';
  end if;
  if public.governance_power_used(p_proposal_id, v_uid) then
    raise exception 'power_already_used' using errcode = '22023', detail = 'Your delegate already voted on this proposal with your power.';
  end if;
  if v_mine.delegated then
    raise exception 'delegated' using errcode = '22023',
      detail = 'Your voting power was delegated when this proposal was created, so your delegate votes with it; '
        || 'a new delegation counts from the next proposal.';
  end if;

  select coalesce(array_agg(s.user_id order by s.user_id), '{}'), coalesce(sum(s.own_power), 0)
    into v_delegators, v_delegated
    from public.proposal_power s
   where s.proposal_id = p_proposal_id and s.delegated and s.delegate_id = v_uid
     and not public.governance_power_used(p_proposal_id, s.user_id);
  v_power := v_mine.own_power + v_delegated;
  if v_power <= 0 then
    raise exception 'insufficient_voting_power' using errcode = '22023',
      detail = case when v_mine.locked > 0
        then 'Your welcome tokens were still locked when this proposal was created, so they carry no voting power on it.'
        else 'You need CUBE tokens to participate in governance' end;
  end if;

  insert into public.votes (proposal_id, user_id, choice, power, delegators)
  values (p_proposal_id, v_uid, p_choice, v_power, v_delegators)
  returning * into v_vote;
  update public.proposals
     set votes_for = votes_for + case when p_choice = 'for' then v_power else 0 end,
         votes_against = votes_against + case when p_choice = 'against' then v_power else 0 end,
         voter_count = voter_count + 1
   where id = p_proposal_id
  returning * into v_proposal;
  return json_build_object('vote', to_json(v_vote), 'proposal', to_json(v_proposal));
end
$$;

-- Closes every active proposal whose end has passed; the result is computed here from the votes.
create or replace function public.close_due_proposals() returns int
language plpgsql security definer set search_path = '' as $$
declare
  v_n int;
begin
  with due as (
    select p.id,
           coalesce(sum(v.power) filter (where v.choice = 'for'), 0)::bigint as yes,
           coalesce(sum(v.power) filter (where v.choice = 'against'), 0)::bigint as no,
           count(v.user_id)::int as voters
      from public.proposals p left join public.votes v on v.proposal_id = p.id
     where p.status = 'active' and p.ends_at <= now()
     group by p.id
  )
  update public.proposals p
     set votes_for = due.yes,
         votes_against = due.no,
         voter_count = due.voters,
         status = case when due.yes > due.no and due.yes + due.no >= p.quorum_power then 'passed' else 'rejected' end,
         closed_at = now()
    from due
   where p.id = due.id and p.status = 'active';
  get diagnostics v_n = row_count;
  return v_n;
end
$$;

-- Creates a proposal and burns its cost (idempotent per attempt, 20261125100500_proposal_attempts.sql).
-- The burn is posted before the proposal row is inserted, so the snapshot the insert takes sees the
-- author's balance after it. The proposal runs at least min_duration_hours.
create or replace function public.create_proposal(p_title text, p_description text, p_category text, p_ends_at timestamptz,
  p_attempt_key text default null) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.governance_rules();
  c_cost constant int := (c_rules ->> 'proposal_cost')::int;
  c_min constant interval := make_interval(hours => (c_rules ->> 'min_duration_hours')::int);
  v_uid uuid := auth.uid();
  v_balance int;
  v_proposal public.proposals;
  v_id uuid := gen_random_uuid();
  v_key text;
  v_first text;
  v_title text := btrim(coalesce(p_title, ''));
  v_description text := btrim(coalesce(p_description, ''));
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_attempt_key is null or char_length(p_attempt_key) not between 8 and 100 then
    raise exception 'invalid_attempt_key' using errcode = '22023',
      detail = 'Each proposal needs an attempt key of 8 to 100 characters; reload the page and try again.';
  end if;
  v_key := 'proposal:' || v_uid || ':' || p_attempt_key;

  perform public.init_user_tokens();
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  select reference into v_first from public.token_ledger where idempotency_key = v_key;
  if found then
    select * into v_proposal from public.proposals where id = v_first::uuid;
    return json_build_object('proposal', to_json(v_proposal), 'balance', v_balance, 'repeated', true);
  end if;

  if v_title = '' or v_description = '' or coalesce(p_category, '') = '' or p_ends_at is null then
    raise exception 'incomplete_proposal' using errcode = '22023', detail = 'Please fill out all fields';
  end if;
  if char_length(v_title) > (c_rules ->> 'max_title')::int or char_length(v_description) > (c_rules ->> 'max_description')::int then
    raise exception 'proposal_too_long' using errcode = '22001',
      detail = format('A title has at most %s characters and a description at most %s.',
        c_rules ->> 'max_title', c_rules ->> 'max_description');
  end if;
  if not exists (select 1 from json_array_elements_text(c_rules -> 'categories') c where c = p_category) then
    raise exception 'unknown_category' using errcode = '22023', detail = 'Choose one of the categories.';
  end if;
  if p_ends_at <= now() then
    raise exception 'end_date_in_past' using errcode = '22023', detail = 'The end date must be in the future.';
  end if;
  if p_ends_at < now() + c_min - interval '5 minutes'
     or p_ends_at > now() + make_interval(days => (c_rules ->> 'max_duration_days')::int, hours => 1) then
    raise exception 'invalid_duration' using errcode = '22023',
      detail = format('A proposal runs %s to %s days.', c_rules ->> 'min_duration_days', c_rules ->> 'max_duration_days');
  end if;
  if v_balance < (c_rules ->> 'min_balance')::int or v_balance < c_cost then
    raise exception 'insufficient_balance' using errcode = 'P0001',
      detail = format('You need at least %s CUBE to create a proposal', c_rules ->> 'min_balance');
  end if;

  v_balance := public.post_ledger(v_uid, -c_cost, 'proposal', v_id::text, v_key);
  insert into public.proposals (id, author_id, author_name, title, description, category, ends_at)
  values (v_id, v_uid, coalesce((select username from public.profiles where user_id = v_uid), 'listener'), v_title, v_description,
          p_category, greatest(p_ends_at, now() + c_min))
  returning * into v_proposal;
  return json_build_object('proposal', to_json(v_proposal), 'balance', v_balance, 'repeated', false);
end
$$;

-- Delegates the caller's power to a user (by username) or, with null, to the community pool.
create or replace function public.delegate_voting_power(p_username text default null) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_delegate uuid;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  -- The same lock cast_vote takes: a vote by this user (or with their power) is not in flight.
  perform public.init_user_tokens();
  perform 1 from public.user_tokens where user_id = v_uid for update;
  if p_username is not null and btrim(p_username) <> '' then
    select user_id into v_delegate from public.profiles where username = btrim(p_username);
    if not found then
      raise exception 'unknown_user' using errcode = '22023', detail = format('There is no user named %s.', btrim(p_username));
    end if;
    if v_delegate = v_uid then
      raise exception 'self_delegation' using errcode = '22023', detail = 'You cannot delegate to yourself.';
    end if;
  end if;
  insert into public.delegations (delegator_id, delegate_id) values (v_uid, v_delegate)
  on conflict (delegator_id) do update set delegate_id = excluded.delegate_id, created_at = now();
  return public.governance_overview();
end
$$;

-- {balance, locked, trusted, own_power, delegated_power, voting_power, delegation, delegators,
--  active_count, voted_active}: the live figures, i.e. what the next proposal's snapshot would take.
create or replace function public.governance_overview() returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_delegation public.delegations;
  v_trust json;
  v_delegated bigint;
  v_own bigint;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  perform public.close_due_proposals();
  select * into v_delegation from public.delegations where delegator_id = v_uid;
  v_trust := public.trust_status(v_uid);
  v_own := public.governance_own_power(v_uid);
  select coalesce(sum(public.governance_own_power(d.delegator_id)), 0) into v_delegated
    from public.delegations d
   where d.delegate_id = v_uid;
  return json_build_object(
    'balance', coalesce((select balance from public.user_tokens where user_id = v_uid), 0),
    'locked', (v_trust ->> 'locked')::int,
    'trusted', (v_trust ->> 'trusted')::boolean,
    'own_power', v_own,
    'delegated_power', v_delegated,
    'voting_power', case when v_delegation.delegator_id is null then v_own + v_delegated else 0 end,
    'delegation', case when v_delegation.delegator_id is null then null else json_build_object(
      'delegate_id', v_delegation.delegate_id,
      'delegate_name', (select username from public.profiles where user_id = v_delegation.delegate_id),
      'since', v_delegation.created_at) end,
    'delegators', coalesce((
      select json_agg(json_build_object('username', coalesce(pr.username, 'listener'), 'power', public.governance_own_power(d.delegator_id),
                                        'since', d.created_at) order by d.created_at)
        from public.delegations d left join public.profiles pr on pr.user_id = d.delegator_id
       where d.delegate_id = v_uid), '[]'::json),
    'active_count', (select count(*) from public.proposals where status = 'active'),
    'voted_active', (select count(*) from public.votes v join public.proposals p on p.id = v.proposal_id
                      where v.user_id = v_uid and p.status = 'active')
  );
end
$$;

-- The live own power (what the next proposal's snapshot would take): floor(fraction x (balance - locked)).
create or replace function public.governance_own_power(p_user uuid) returns bigint
language sql stable security definer set search_path = '' as $$
  select coalesce((select floor((public.governance_rules() ->> 'power_fraction')::numeric * (a.balance - a.locked))::bigint
                     from public.account_trust(p_user) a), 0)
$$;

create or replace function public.governance_power_used(p_proposal_id uuid, p_user uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.votes v
                  where v.proposal_id = p_proposal_id and (v.user_id = p_user or p_user = any (v.delegators)))
$$;

create or replace function public.governance_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object(
    'proposal_cost', 100,
    'min_balance', 100,
    'power_fraction', 0.8,
    'quorum_share', 0.1,
    'min_duration_hours', 24,
    'min_duration_days', 1,
    'max_duration_days', 14,
    'categories', json_build_array('platform', 'tokenomics', 'features', 'community', 'other'),
    'max_title', 120,
    'max_description', 4000
  )
$$;

-- The caller's votes with their proposals (Your Voting History).
create or replace function public.my_votes() returns table (proposal_id uuid, title text, choice text, power bigint, voted_at
    timestamptz, status text, ends_at timestamptz)
language plpgsql security definer set search_path = '' as $$
begin
  if auth.uid() is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  perform public.close_due_proposals();
  return query
    select v.proposal_id, p.title, v.choice, v.power, v.created_at, p.status, p.ends_at
      from public.votes v join public.proposals p on p.id = v.proposal_id
     where v.user_id = auth.uid()
     order by v.created_at desc;
end
$$;

-- Writes the snapshot of one proposal and returns its total voting power.
create or replace function public.snapshot_proposal_power(p_proposal_id uuid) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  c_fraction constant numeric := (public.governance_rules() ->> 'power_fraction')::numeric;
  v_total bigint;
begin
  insert into public.proposal_power
    (proposal_id, user_id, balance, locked, own_power, delegated_power, delegated, delegate_id, voting_power)
  with a as (
    select t.user_id, t.balance, t.locked, greatest(floor(c_fraction * (t.balance - t.locked)), 0)::bigint as own
      from public.account_trust() t
  ), r as (
    -- What each delegate receives: the own power of its delegators (one level).
    select d.delegate_id, sum(a.own)::bigint as received
      from public.delegations d join a on a.user_id = d.delegator_id
     where d.delegate_id is not null
     group by d.delegate_id
  ), s as (
    select a.*, d.delegator_id is not null as delegated, d.delegate_id, coalesce(r.received, 0) as received
      from a
      left join public.delegations d on d.delegator_id = a.user_id
      left join r on r.delegate_id = a.user_id
  )
  select p_proposal_id, s.user_id, s.balance, s.locked, s.own, s.received, s.delegated, s.delegate_id,
         case when s.delegated then 0 else s.own + s.received end
    from s
  on conflict (proposal_id, user_id) do nothing;
  select coalesce(sum(voting_power), 0) into v_total from public.proposal_power where proposal_id = p_proposal_id;
  return v_total;
end
$$;

create or replace function public.undelegate_voting_power() returns json
language plpgsql security definer set search_path = '' as $$
begin
  if auth.uid() is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  perform 1 from public.user_tokens where user_id = auth.uid() for update;
  delete from public.delegations where delegator_id = auth.uid();
  return public.governance_overview();
end
$$;

-- init_user_tokens
CREATE OR REPLACE FUNCTION public.init_user_tokens()
 RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path TO '' AS $function$
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
  insert into public.user_tokens (user_id, balance) values (v_uid, 0)
  on conflict (user_id) do nothing;
  if found then
    perform public.post_ledger(v_uid, 100, 'welcome', 'welcome', 'welcome:' || v_uid::text);
  end if;
  select * into v_wallet from public.user_tokens where user_id = v_uid;
  return json_build_object(
    'balance', v_wallet.balance,
    'daily_earned', case when v_wallet.day = v_today then v_wallet.daily_earned else 0 end
  );
end
$function$;

-- What a creator's songs earned them, per song (own account only).
create or replace function public.my_creator_earnings() returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_day_start timestamptz := date_trunc('day', clock_timestamp() at time zone 'utc') at time zone 'utc';
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  return json_build_object(
    'total', (select coalesce(sum(amount), 0) from public.token_ledger where user_id = v_uid and reason = 'creator'),
    'today', (select coalesce(sum(amount), 0) from public.token_ledger
               where user_id = v_uid and reason = 'creator' and created_at >= v_day_start),
    'daily_cap', (public.reward_rules() -> 'creator' ->> 'daily_cap')::int,
    'per_listen', (public.reward_rules() -> 'creator' ->> 'reward')::int,
    'songs', coalesce((
      select json_agg(json_build_object('song_id', s.id, 'title', s.title, 'slug', s.slug, 'listens', coalesce(e.listens, 0),
                                        'cube', coalesce(e.cube, 0)) order by coalesce(e.cube, 0) desc, s.title)
        from public.songs s
        left join (select reference, count(*) as listens, sum(amount) as cube from public.token_ledger
                    where user_id = v_uid and reason = 'creator' group by reference) e on e.reference = s.id
       where s.owner_id = v_uid), '[]'::json)
  );
end
$$;

create or replace function public.post_ledger(p_user uuid, p_amount int, p_reason text, p_reference text, p_key text) returns int
language plpgsql security definer set search_path = '' as $$
declare
  v_balance int;
  v_listen constant boolean := p_reason = 'listen';
begin
  insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
  values (p_user, p_amount, p_reason, p_reference, p_key);
  update public.user_tokens
     set balance = balance + p_amount,
         updated_at = clock_timestamp(),
         listens_today = listens_today + case when v_listen then 1 else 0 end,
         daily_earned = daily_earned + case when v_listen then p_amount else 0 end
   where user_id = p_user
  returning balance into v_balance;
  if not found then
    raise exception 'no_wallet' using errcode = 'P0002', detail = 'The account has no wallet yet';
  end if;
  -- Callers check the balance first and answer in words; this is the floor under all of them.
  if v_balance < 0 then
    raise exception 'insufficient_balance' using errcode = 'P0001';
  end if;
  return v_balance;
end
$$;

create or replace function public.reward_rules() returns json
language sql stable as $$
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

-- spend_tokens
CREATE OR REPLACE FUNCTION public.spend_tokens(p_amount integer, p_reason text, p_ref text)
 RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path TO '' AS $function$
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

  v_balance := public.post_ledger(v_uid, -p_amount, p_reason, p_ref, v_key);
  return json_build_object('balance', v_balance);
end
$function$;

create or replace function public.listen_begin(p_song_id text, p_duration numeric, p_reward int, p_creator uuid, p_play_id text,
    p_interacted boolean)
returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_now timestamptz := clock_timestamp();
  v_session public.listening_sessions;
  v_previous public.listening_sessions;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
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
    perform public.listen_settle(v_previous.id, false, true);
  end if;
  insert into public.listening_sessions
    (user_id, play_key, song_id, duration_seconds, reward, creator_id, client_address, started_at, last_report_at)
  values (v_uid, p_play_id, p_song_id, p_duration, p_reward, p_creator, public.note_account_client(v_uid), v_now, v_now)
  returning * into v_session;
  return public.listen_answer(v_session);
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
  v_uid uuid := auth.uid();
  v_now timestamptz := clock_timestamp();
  v_song public.songs;
  v_id uuid;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
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
  v_uid uuid := auth.uid();
  v_session public.listening_sessions;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
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

create or replace function public.listener_linked_to_creator(p_listener uuid, p_creator uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
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
  v_uid uuid := auth.uid();
  v_session public.listening_sessions;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
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

create or replace function public.enabled_blockchains() returns json
language sql stable security definer set search_path = '' as $$
  select coalesce(json_agg(row_to_json(c) order by c.sort), '[]'::json)
  from public.blockchain_configs c
  where c.enabled
$$;

-- The royalty argument changes name and unit (percent), so the old signature goes.
create or replace function public.mint_begin(p_user uuid, p_client_key text, p_blockchain text, p_metadata jsonb,
                                  p_recipient text, p_royalties numeric, p_collection text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_cost constant int := (public.wallet_rules() ->> 'mint_cost')::int;
  v_balance int;
  v_request public.mint_requests;
begin
  select balance into v_balance from public.user_tokens where user_id = p_user for update;
  if not found then
    raise exception 'insufficient_balance' using errcode = 'P0001';
  end if;
  select * into v_request from public.mint_requests where user_id = p_user and client_key = p_client_key;
  if found then
    return json_build_object('request', row_to_json(v_request), 'created', false, 'balance', v_balance);
  end if;
  if v_balance < c_cost then
    raise exception 'insufficient_balance' using errcode = 'P0001';
  end if;
  insert into public.mint_requests (user_id, client_key, blockchain, metadata, recipient, royalties, collection)
  values (p_user, p_client_key, p_blockchain, p_metadata, p_recipient, p_royalties, nullif(btrim(p_collection), ''))
  returning * into v_request;
  v_balance := public.post_ledger(p_user, -c_cost, 'mint', v_request.id::text, 'mint:' || v_request.id::text);
  return json_build_object('request', row_to_json(v_request), 'created', true, 'balance', v_balance);
end
$$;

create or replace function public.mint_complete(p_request uuid, p_tx_hash text, p_token_id text, p_contract text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_request public.mint_requests;
begin
  update public.mint_requests
     set status = 'completed', transaction_id = p_tx_hash, token_id = p_token_id,
         contract_address = p_contract, updated_at = clock_timestamp()
   where id = p_request and status = 'pending'
  returning * into v_request;
  if not found then
    raise exception 'not_pending' using errcode = '22023';
  end if;
  insert into public.nfts (mint_request_id, blockchain, contract_address, token_id, transaction_id, metadata, owner_id, royalties)
  values (v_request.id, v_request.blockchain, p_contract, p_token_id, p_tx_hash, v_request.metadata, v_request.user_id,
          v_request.royalties);
  return row_to_json(v_request);
end
$$;

create or replace function public.mint_context(p_user uuid, p_blockchain text) returns json
language sql stable security definer set search_path = '' as $$
  select json_build_object(
    'config', (select row_to_json(c) from public.blockchain_configs c where c.name = p_blockchain and c.enabled),
    'linked_address', (select address from public.wallet_links where user_id = p_user)
  )
$$;

-- mint_fail
CREATE OR REPLACE FUNCTION public.mint_fail(p_request uuid, p_error text)
 RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path TO '' AS $function$
declare
  c_cost constant int := (public.wallet_rules() ->> 'mint_cost')::int;
  v_request public.mint_requests;
begin
  select * into v_request from public.mint_requests where id = p_request;
  if not found then
    raise exception 'not_found' using errcode = '22023';
  end if;
  perform 1 from public.user_tokens where user_id = v_request.user_id for update;
  update public.mint_requests set status = 'failed', error = left(p_error, 500), updated_at = clock_timestamp()
   where id = p_request and status = 'pending'
  returning * into v_request;
  if found then
    perform public.post_ledger(v_request.user_id, c_cost, 'mint_refund', v_request.id::text, 'mint_refund:' || v_request.id::text);
  end if;
  return row_to_json(v_request);
end
$function$;

-- The metadata a token's tokenURI serves (pending or completed requests; a failed one has no token).
create or replace function public.mint_metadata(p_request uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select metadata from public.mint_requests where id = p_request and status <> 'failed'
$$;

create or replace function public.add_notice(p_user uuid, p_kind text, p_title text, p_body text, p_link text) returns void
language sql security definer set search_path = '' as $$
  insert into public.notifications (user_id, kind, title, body, link)
  select p_user, p_kind, left(p_title, 120), left(p_body, 300), p_link
   where public.wants_notice(p_user, p_kind)
$$;

create or replace function public.notice_on_follow() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_today date := (now() at time zone 'utc')::date;
  v_name text;
begin
  insert into public.follow_notices (follower_id, following_id, day)
  values (new.follower_id, new.following_id, v_today)
  on conflict do nothing;
  if not found then
    return null;
  end if;
  -- Earlier days of this pair are no longer needed to decide anything.
  delete from public.follow_notices
   where follower_id = new.follower_id and following_id = new.following_id and day < v_today;
  select username into v_name from public.profiles where user_id = new.follower_id;
  perform public.add_notice(new.following_id, 'follower', 'New follower', coalesce(v_name, 'Someone') || ' followed you',
    case when v_name is null then null else '/user/' || v_name end);
  return null;
end
$$;

-- My mint is on the chain.
create or replace function public.notice_on_mint() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if old.status <> 'completed' and new.status = 'completed' then
    perform public.add_notice(new.user_id, 'mint_completed', 'Mint completed',
      '"' || left(coalesce(new.metadata ->> 'name', 'Your NFT'), 100) || '" is on ' || new.blockchain || ' as token #' ||
          coalesce(new.token_id, '?'), '/app/wallet');
  end if;
  return null;
end
$$;

-- A proposal I voted on has closed.
create or replace function public.notice_on_proposal_close() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if old.status = 'active' and new.status <> 'active' then
    perform public.add_notice(v.user_id, 'vote_closed', 'Proposal closed',
      '"' || left(new.title, 100) || '" ' || case new.status when 'passed' then 'passed' else 'was rejected' end, '/app/governance')
      from public.votes v where v.proposal_id = new.id;
  end if;
  return null;
end
$$;

-- A reply to my comment (not my own reply).
create or replace function public.notice_on_reply() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_parent public.comments;
  v_slug text;
begin
  if new.parent_id is null then
    return null;
  end if;
  select * into v_parent from public.comments where id = new.parent_id;
  if v_parent.user_id is null or v_parent.user_id = new.user_id then
    return null;
  end if;
  select slug into v_slug from public.songs where id = new.song_id;
  perform public.add_notice(v_parent.user_id, 'reply', 'New reply to your comment',
    new.username || ': ' || left(new.body, 120), '/song/' || coalesce(v_slug, new.song_id));
  return null;
end
$$;

create or replace function public.wants_notice(p_user uuid, p_kind text) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((select case p_kind when 'reply' then s.notify_replies when 'follower' then s.notify_followers
                                      when 'vote_closed' then s.notify_votes when 'mint_completed' then s.notify_mints end
                     from public.user_settings s where s.user_id = p_user), true)
$$;

create or replace function public.delete_my_account(p_confirm_username text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_name text;
  v_left int;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Sign in first.';
  end if;
  if not public.aal_satisfied() then
    raise exception 'insufficient_aal' using errcode = '42501', detail = 'Confirm your two-factor code first.';
  end if;
  select username into v_name from public.profiles where user_id = v_uid for update;
  if v_name is null or p_confirm_username is distinct from v_name then
    raise exception 'confirmation_mismatch' using errcode = '22023', detail = 'Type your username exactly to confirm.';
  end if;
  if exists (select 1 from public.administrators where user_id = v_uid)
     and not exists (select 1 from public.administrators where user_id <> v_uid) then
    raise exception 'last_admin' using errcode = '22023', detail =
        'The last administrator cannot delete their account: grant the role to someone else first.';
  end if;
  select count(*) into v_left from storage.objects where (storage.foldername(name))[1] = v_uid::text;
  if v_left > 0 then
    raise exception 'storage_not_empty' using errcode = '22023', detail =
        format('%s of your files are still stored; remove them first.', v_left);
  end if;

  -- Likes given go, and the counts they added with them.
  update public.comments c set like_count = greatest(c.like_count - 1, 0)
    from public.comment_likes l where l.comment_id = c.id and l.user_id = v_uid;
  -- Comments: those others replied to stay as 'comment deleted' without their author; the rest go.
  update public.comments c set body = '', deleted = true, username = 'deleted user'
   where c.user_id = v_uid and exists (select 1 from public.comments r where r.parent_id = c.id and r.user_id is distinct from v_uid);
  delete from public.comments where user_id = v_uid and not deleted;
  delete from public.comments c where c.user_id = v_uid and c.deleted
     and not exists (select 1 from public.comments r where r.parent_id = c.id and r.user_id is distinct from v_uid);
  -- Published songs leave the catalogue (listens and comments on them stay as history).
  delete from public.songs where owner_id = v_uid;
  delete from auth.users where id = v_uid;
  return json_build_object('deleted', true);
end
$$;

create or replace function public.check_profile_change() returns trigger
language plpgsql set search_path = '' as $$
declare
  r constant json := public.profile_rules();
  v_problem text;
begin
  if new.username is distinct from old.username then
    new.username := normalize(new.username, NFC);
    v_problem := public.username_rule_problem(new.username);
    if v_problem is not null then
      raise exception 'invalid_username' using errcode = '22023', detail = v_problem;
    end if;
  end if;
  if new.bio is distinct from old.bio and char_length(coalesce(new.bio, '')) > (r ->> 'bio_max')::int then
    raise exception 'bio_too_long' using errcode = '22023', detail = 'A bio is at most 300 characters.';
  end if;
  return new;
end
$$;

-- A name given at sign-up must follow the rule (the account is not created otherwise); without
-- one, the e-mail's local part is cleaned to fit it. A name taken meanwhile by a concurrent
-- sign-up gets a number, as before.
create or replace function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_given text := nullif(btrim(coalesce(new.raw_user_meta_data ->> 'username', '')), '');
  v_base text;
  v_candidate text;
  v_problem text;
  v_n int := 0;
begin
  if v_given is not null then
    v_base := normalize(v_given, NFC);
    v_problem := public.username_rule_problem(v_base);
    if v_problem is not null then
      raise exception 'invalid_username' using errcode = '22023', detail = v_problem;
    end if;
  else
    v_base := left(regexp_replace(normalize(split_part(coalesce(new.email, ''), '@', 1), NFC), '[^A-Za-z0-9._-]', '', 'g'), 24);
    if char_length(v_base) < 3 then
      v_base := 'listener';
    end if;
  end if;
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
    -- The number replaces the name's end when needed, so the result still fits 30 characters.
    v_candidate := left(v_base, 30 - char_length('-' || v_n::text)) || '-' || v_n::text;
  end loop;
end
$$;

create or replace function public.profile_is_public(p_user uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((select s.public_profile from public.user_settings s where s.user_id = p_user), true)
$$;

-- A renamed user's name follows everywhere it was copied: the artist of the
-- songs they published, the name on their comments (copied so a live event carries it) and on
-- their proposals. Before, those kept the old name for ever.
create or replace function public.profile_rename_follows() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.songs set artist = new.username where owner_id = new.user_id and artist is distinct from new.username;
  update public.comments set username = new.username where user_id = new.user_id and username is distinct from new.username;
  update public.proposals set author_name = new.username
   where author_id = new.user_id and author_name is distinct from new.username;
  return null;
end
$$;

create or replace function public.profile_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object(
    'username_min', 3,
    'username_max', 30,
    'username_pattern',
      '^[A-Za-z0-9._\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F\u0300-\u036F\u0386-\u03FF\u0400-\u052F\u0531-\u0587'
      || '\u05D0-\u05EA\u0620-\u0669\u066E-\u06D3\u06D5\u06F0-\u06FF\u0900-\u0D7F\u0E01-\u0E3A\u0E40-\u0E4E'
      || '\u10A0-\u10FF\u1100-\u11FF\u1E00-\u1EFF\u1F00-\u1FFF\u3041-\u3096\u30A1-\u30FA\u30FC\u3400-\u4DBF'
      || '\u4E00-\u9FFF\uAC00-\uD7A3-]+$',
    'username_message', 'A username is 3 to 30 letters (any alphabet), digits, ".", "-" or "_".',
    'username_taken_message', 'That username is taken. Try another one.',
    'password_min', 8,
    'bio_max', 300,
    'avatar_max_bytes', 2097152,
    'avatar_size_px', 256
  )
$$;

-- Plain SQL, invoker, no SET clause and no sub-select, so Postgres inlines it into each policy and
-- query (one row of a 10,000-song catalogue costs an expression, not a function call); every name
-- is schema-qualified instead of pinning search_path.
create or replace function public.profile_visible(p_owner uuid) returns boolean
language sql stable as $$
  -- coalesce: a visitor has no auth.uid(), and a predicate must answer false, never null.
  select coalesce(p_owner is null
                  or p_owner = auth.uid()
                  or public.profile_is_public(p_owner), false)
$$;

create or replace function public.public_profile_name(p_username text) returns json
language sql stable security definer set search_path = '' as $$
  select json_build_object('user_id', p.user_id, 'username', p.username, 'private', not public.profile_visible(p.user_id))
    from public.profiles p where p.username = p_username
$$;

-- What the sign-up form asks before it registers: the same words the rename answers with.
create or replace function public.username_problem(p_name text) returns text
language plpgsql stable security definer set search_path = '' as $$
declare
  v_name text := normalize(btrim(coalesce(p_name, '')), NFC);
  v_problem text := public.username_rule_problem(v_name);
begin
  if v_problem is not null then
    return v_problem;
  end if;
  if exists (select 1 from public.profiles where username = v_name) then
    return public.profile_rules() ->> 'username_taken_message';
  end if;
  return null;
end
$$;

-- Null when `p_name` (already NFC) follows the rule, else the rule's message.
create or replace function public.username_rule_problem(p_name text) returns text
language sql immutable set search_path = '' as $$
  select case
    when p_name is null
      or char_length(p_name) not between (r ->> 'username_min')::int and (r ->> 'username_max')::int
      or p_name !~ (r ->> 'username_pattern')
    then r ->> 'username_message'
  end
  from (select public.profile_rules() as r) rules
$$;

-- Sends {schema, table, type, pk, cols, commit_timestamp}: the primary key of the changed row and
-- the columns named in the trigger's arguments (those subscribers may filter on), never the whole
-- row (NOTIFY payloads are limited to 8000 bytes, and the row is re-read per subscriber anyway).
create or replace function cube_realtime.notify_change() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_row jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
  v_pk jsonb := '{}'::jsonb;
  v_cols jsonb := '{}'::jsonb;
  v_name text;
begin
  for v_name in
    select a.attname from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
     where i.indrelid = tg_relid and i.indisprimary
  loop
    v_pk := v_pk || jsonb_build_object(v_name, v_row -> v_name);
  end loop;
  if tg_nargs > 0 then
    foreach v_name in array tg_argv loop
      v_cols := v_cols || jsonb_build_object(v_name, v_row -> v_name);
    end loop;
  end if;
  perform pg_notify('cube_realtime', jsonb_build_object(
    'schema', tg_table_schema, 'table', tg_table_name, 'type', tg_op,
    'pk', v_pk, 'cols', v_cols, 'commit_timestamp', now()
  )::text);
  return null;
end
$$;

create or replace function public.open_share(p_token text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.share_rules();
  c_cap constant int := (c_rules ->> 'daily_cap')::int;
  v_uid uuid := auth.uid();
  v_address text := public.client_address();
  v_today date := (clock_timestamp() at time zone 'utc')::date;
  v_link public.share_links;
  v_amount int;
  v_reason text;
  -- Hashed: the table never holds a visitor's address.
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

  if v_uid is not null and v_uid = v_link.user_id then
    v_reason := 'own_link';
  elsif v_address is null or cardinality(v_link.sharer_addresses) = 0 then
    v_reason := 'unknown_client';
  elsif v_address = any (v_link.sharer_addresses)
        -- ... or any address the sharer listened or published from lately (their phone, their other browser).
        or exists (select 1 from public.account_clients c
                    where c.user_id = v_link.user_id and c.client_address = v_address
                      and c.last_seen > now() - make_interval(days => (public.reward_rules() -> 'creator' ->> 'link_days')::int)) then
    v_reason := 'same_client';
  elsif v_uid is not null and public.listener_linked_to_creator(v_uid, v_link.user_id) then
    -- A signed-in opener linked to the sharer (the creator rule's test: a shared address, or an
    -- account under a day old) is the sharer's own, not someone else.
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

-- Makes (or gives back) the caller's link for one item on one platform. Pays nothing.
create or replace function public.share_create(p_item_type text, p_item_id text, p_platform text) returns json
language plpgsql security definer set search_path = '' as $$
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

create or replace function public.storage_object_visible(p_name text) returns boolean
language sql stable as $$
  select public.profile_visible(
           case when (storage.foldername(p_name))[1] ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                then ((storage.foldername(p_name))[1])::uuid end)
$$;

create or replace function public.record_remix_source(p_song_id text, p_remix_id uuid) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_song public.songs;
  v_remix public.remixes;
  v_source text;
begin
  if v_uid is null then
    raise exception 'Sign in to record where a remix comes from.' using errcode = '42501';
  end if;
  select * into v_song from public.songs where id = p_song_id for update;
  if not found or v_song.owner_id is distinct from v_uid then
    raise exception 'Only the creator of a published song can say which remix it is.' using errcode = '42501';
  end if;
  -- Locked: two publications racing for one remix take turns (the second is refused below).
  select * into v_remix from public.remixes where id = p_remix_id and user_id = v_uid for update;
  if not found then
    raise exception 'This is not one of your remixes.' using errcode = '42501';
  end if;
  if v_remix.status <> 'rendered' then
    raise exception 'Only a finished remix can be published as one (this one is %).', v_remix.status using errcode = '22023';
  end if;
  -- Once: the same pair again answers the same, anything else is refused.
  if v_song.remix_id is not null then
    if v_song.remix_id = p_remix_id then
      return json_build_object('remix_of', v_song.remix_of, 'recorded', false);
    end if;
    raise exception 'This song is already published as another remix.' using errcode = '22023';
  end if;
  if exists (select 1 from public.songs where remix_id = p_remix_id) then
    raise exception 'This remix is already published as another song.' using errcode = '22023';
  end if;
  select id into v_source from public.songs where id = v_remix.source_ref and id <> p_song_id;
  update public.songs set remix_id = p_remix_id, remix_of = v_source where id = p_song_id;
  return json_build_object('remix_of', v_source, 'recorded', true);
end
$$;

-- remix_burn
CREATE OR REPLACE FUNCTION public.remix_burn(p_source text, p_attempt_key text)
 RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path TO '' AS $function$
declare
  v_uid uuid := auth.uid();
  v_cost int := ((public.remix_rules()) ->> 'cost')::int;
  v_balance int;
  v_remix public.remixes;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_source is null or char_length(p_source) not between 1 and 200 then
    raise exception 'invalid_reference' using errcode = '22023';
  end if;
  if p_attempt_key is null or char_length(p_attempt_key) not between 8 and 100 then
    raise exception 'invalid_attempt_key' using errcode = '22023';
  end if;

  -- The wallet row lock serialises every burn of this user (two tabs, double clicks).
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  if not found then
    raise exception 'insufficient_balance';
  end if;

  select * into v_remix from public.remixes where user_id = v_uid and attempt_key = p_attempt_key;
  if found then
    if v_remix.source_ref <> p_source then
      raise exception 'attempt_key_reused' using errcode = '22023';
    end if;
    return json_build_object('remix_id', v_remix.id, 'status', v_remix.status, 'balance', v_balance, 'charged', false);
  end if;

  if v_balance < v_cost then
    raise exception 'insufficient_balance';
  end if;

  insert into public.remixes (user_id, attempt_key, source_ref, cost)
  values (v_uid, p_attempt_key, p_source, v_cost)
  returning * into v_remix;
  v_balance := public.post_ledger(v_uid, -v_cost, 'remix', p_source, 'remix:' || v_uid::text || ':' || p_attempt_key);
  return json_build_object('remix_id', v_remix.id, 'status', v_remix.status, 'balance', v_balance, 'charged', true);
end
$function$;

create or replace function public.remix_complete(p_remix_id uuid) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_remix public.remixes;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select * into v_remix from public.remixes where id = p_remix_id and user_id = v_uid for update;
  if not found then
    raise exception 'remix_not_found' using errcode = '22023';
  end if;
  if v_remix.status = 'refunded' then
    raise exception 'remix_refunded' using errcode = '22023';
  end if;
  update public.remixes set status = 'rendered', updated_at = clock_timestamp() where id = p_remix_id;
  return json_build_object('remix_id', p_remix_id, 'status', 'rendered');
end
$$;

-- remix_refund
CREATE OR REPLACE FUNCTION public.remix_refund(p_remix_id uuid)
 RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path TO '' AS $function$
declare
  v_uid uuid := auth.uid();
  v_remix public.remixes;
  v_balance int;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  -- Same lock order as remix_burn (wallet first), then the attempt.
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  select * into v_remix from public.remixes where id = p_remix_id and user_id = v_uid for update;
  if not found then
    raise exception 'remix_not_found' using errcode = '22023';
  end if;
  if v_remix.status = 'rendered' then
    raise exception 'remix_rendered' using errcode = '22023';
  end if;
  if v_remix.status = 'refunded' then
    return json_build_object('remix_id', p_remix_id, 'status', 'refunded', 'balance', v_balance, 'refunded', false);
  end if;
  v_balance := public.post_ledger(v_uid, v_remix.cost, 'remix_refund', v_remix.source_ref, 'remix_refund:' || v_uid::text || ':' ||
      v_remix.attempt_key);
  update public.remixes set status = 'refunded', updated_at = clock_timestamp() where id = p_remix_id;
  return json_build_object('remix_id', p_remix_id, 'status', 'refunded', 'balance', v_balance, 'refunded', true);
end
$function$;

create or replace function public.remix_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object('cost', 50)
$$;

-- Every wallet (or, with p_user, one) with its trust facts. The only place the rule is computed:
-- trust_status, wallet_claim and the governance snapshot all read it.
create or replace function public.account_trust(p_user uuid default null)
returns table (user_id uuid, balance int, listening_days int, distinct_songs int, welcome int, trusted boolean, locked int)
language sql stable security definer set search_path = '' as $$
  with r as (
    select (public.trust_rules() ->> 'needed_days')::int as days,
           (public.trust_rules() ->> 'needed_songs')::int as songs,
           public.trust_rules() ->> 'listen_reason' as listen,
           array(select json_array_elements_text(public.trust_rules() -> 'welcome_reasons')) as welcome
  ), f as (
    select t.user_id, t.balance, l.days, l.songs, w.welcome,
           l.days >= r.days and l.songs >= r.songs as trusted
      from public.user_tokens t
     cross join r
     cross join lateral (
       select count(distinct (x.created_at at time zone 'utc')::date)::int as days, count(distinct x.reference)::int as songs
         from public.token_ledger x
        where x.user_id = t.user_id and x.reason = r.listen and x.amount > 0
     ) l
     cross join lateral (
       select coalesce(sum(x.amount), 0)::int as welcome
         from public.token_ledger x
        where x.user_id = t.user_id and x.reason = any (r.welcome) and x.amount > 0
     ) w
     where p_user is null or t.user_id = p_user
  )
  select f.user_id, f.balance, f.days, f.songs, f.welcome, f.trusted,
         case when f.trusted then 0 else greatest(least(f.balance, f.welcome), 0) end
    from f
$$;

-- The caller's trust status (the wallet page shows the locked part and what unlocks it).
create or replace function public.my_trust_status() returns json
language plpgsql stable security definer set search_path = '' as $$
begin
  if auth.uid() is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  return public.trust_status(auth.uid());
end
$$;

create or replace function public.trust_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object(
    'needed_days', 3,
    'needed_songs', 10,
    'listen_reason', 'listen',
    'welcome_reasons', json_build_array('welcome', 'wallet_welcome')
  )
$$;

-- {trusted, listening_days, distinct_songs, needed_days, needed_songs, welcome, locked, balance} of one account.
create or replace function public.trust_status(p_user uuid) returns json
language sql stable security definer set search_path = '' as $$
  select json_build_object(
    'trusted', coalesce(a.trusted, false),
    'listening_days', coalesce(a.listening_days, 0),
    'distinct_songs', coalesce(a.distinct_songs, 0),
    'needed_days', (public.trust_rules() ->> 'needed_days')::int,
    'needed_songs', (public.trust_rules() ->> 'needed_songs')::int,
    'welcome', coalesce(a.welcome, 0),
    'locked', coalesce(a.locked, 0),
    'balance', coalesce(a.balance, 0)
  )
    from (select 1) one
    left join public.account_trust(p_user) a on true
$$;

-- wallet_claim (last defined in 20261125140000_one_ledger_posting.sql): refused until trusted.
-- Its pot is still wallet_claim_status()'s answer; only the gate is new.
create or replace function public.wallet_claim() returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_status json;
  v_trust json;
  v_amount int;
  v_balance int;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  perform public.init_user_tokens();
  -- Concurrent claims of one user wait here; the second sees the pot already emptied.
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  v_trust := public.trust_status(v_uid);
  if not (v_trust ->> 'trusted')::boolean then
    raise exception 'not_trusted' using errcode = '22023',
      detail = format('Claiming unlocks once you have listened on %s different days (%s so far) and to %s different songs (%s so far).',
        v_trust ->> 'needed_days', v_trust ->> 'listening_days', v_trust ->> 'needed_songs', v_trust ->> 'distinct_songs');
  end if;
  v_status := public.wallet_claim_status();
  v_amount := (v_status ->> 'claimable')::int;
  if v_amount > 0 then
    v_balance := public.post_ledger(v_uid, v_amount, 'claim', 'listening',
      'claim:' || v_uid::text || ':' || ((v_status ->> 'claimed')::bigint + v_amount)::text);
  end if;
  return json_build_object('claimed', v_amount, 'balance', v_balance);
end
$$;

-- The hourly pot from the server-measured sessions: earning seconds of credited listens only.
create or replace function public.wallet_claim_status() returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  c_rules constant json := public.wallet_rules();
  c_hour constant int := (c_rules ->> 'claim_hour_seconds')::int;
  c_per_hour constant int := (c_rules ->> 'claim_per_hour')::int;
  c_day constant bigint := (c_rules ->> 'claim_day_seconds')::bigint;
  v_uid uuid := auth.uid();
  v_seconds bigint;
  v_claimed bigint;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select coalesce(sum(least(d.seconds, c_day)), 0) into v_seconds
    from (select floor(sum(s.earning_seconds))::bigint as seconds from public.listening_sessions s
           where s.user_id = v_uid and s.credited > 0 group by (s.started_at at time zone 'utc')::date) d;
  select coalesce(sum(amount), 0) into v_claimed from public.token_ledger where user_id = v_uid and reason = 'claim' and amount > 0;
  return json_build_object(
    'listened_seconds', v_seconds,
    'hours', v_seconds / c_hour,
    'claimable', greatest((v_seconds / c_hour) * c_per_hour - v_claimed, 0),
    'claimed', v_claimed,
    'hour_progress', round((v_seconds % c_hour)::numeric / c_hour, 4)
  );
end
$$;

create or replace function public.wallet_issue_nonce() returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_nonce text := replace(gen_random_uuid()::text, '-', '') || substr(replace(gen_random_uuid()::text, '-', ''), 1, 8);
  v_expires timestamptz := clock_timestamp() + make_interval(secs => (public.wallet_rules() ->> 'nonce_ttl_seconds')::int);
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  -- Old nonces of this user are of no use any more.
  delete from public.siwe_nonces where user_id = v_uid and (used_at is not null or expires_at < clock_timestamp());
  insert into public.siwe_nonces (nonce, user_id, expires_at) values (v_nonce, v_uid, v_expires);
  return json_build_object('nonce', v_nonce, 'expires_at', v_expires);
end
$$;

-- wallet_link
CREATE OR REPLACE FUNCTION public.wallet_link(p_user uuid, p_address text, p_nonce text, p_chain_id integer)
 RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path TO '' AS $function$
declare
  c_welcome constant int := (public.wallet_rules() ->> 'welcome_tokens')::int;
  v_nonce public.siwe_nonces;
  v_owner uuid;
  v_granted int := 0;
  v_balance int;
begin
  if p_user is null or p_address is null or p_address !~ '^0x[0-9a-fA-F]{40}$' then
    raise exception 'invalid_address' using errcode = '22023';
  end if;
  select * into v_nonce from public.siwe_nonces where nonce = p_nonce for update;
  if not found or v_nonce.user_id <> p_user then
    raise exception 'invalid_nonce' using errcode = '22023';
  end if;
  if v_nonce.used_at is not null then
    raise exception 'nonce_used' using errcode = '22023';
  end if;
  if v_nonce.expires_at < clock_timestamp() then
    raise exception 'nonce_expired' using errcode = '22023';
  end if;
  update public.siwe_nonces set used_at = clock_timestamp() where nonce = p_nonce;

  -- The wallet row (created by init_user_tokens) is every CUBE movement's lock.
  select balance into v_balance from public.user_tokens where user_id = p_user for update;
  if not found then
    raise exception 'no_wallet' using errcode = '22023';
  end if;

  select user_id into v_owner from public.wallet_links where lower(address) = lower(p_address);
  if found and v_owner <> p_user then
    raise exception 'address_taken' using errcode = '23505';
  end if;
  insert into public.wallet_links (user_id, address, chain_id) values (p_user, p_address, p_chain_id)
  on conflict (user_id) do update set address = excluded.address, chain_id = excluded.chain_id, linked_at = now();

  insert into public.wallet_welcomes (user_id, address) values (p_user, lower(p_address))
  on conflict do nothing;
  if found then
    v_granted := c_welcome;
    v_balance := public.post_ledger(p_user, c_welcome, 'wallet_welcome', p_address, 'wallet_welcome:' || p_user::text);
  end if;
  return json_build_object('address', p_address, 'welcome', v_granted, 'balance', v_balance);
end
$function$;

-- Links the caller's custodial address, creating it from the key the edge function drew when the
-- account has none yet (a concurrent call's key wins, the other is dropped: one address per
-- account). The wallet welcome is granted once per account, as for a proven wallet.
create or replace function public.wallet_link_custodial(p_user uuid, p_address text, p_private_key text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_welcome constant int := (public.wallet_rules() ->> 'welcome_tokens')::int;
  v_address text;
  v_granted int := 0;
  v_balance int;
begin
  if p_user is null or p_address is null or p_address !~ '^0x[0-9a-fA-F]{40}$' then
    raise exception 'invalid_address' using errcode = '22023';
  end if;
  -- The wallet row (created by init_user_tokens) is every CUBE movement's lock.
  select balance into v_balance from public.user_tokens where user_id = p_user for update;
  if not found then
    raise exception 'no_wallet' using errcode = '22023';
  end if;
  insert into public.custodial_wallets (user_id, address, private_key) values (p_user, p_address, lower(p_private_key))
  on conflict (user_id) do nothing;
  select address into v_address from public.custodial_wallets where user_id = p_user;

  insert into public.wallet_links (user_id, address, chain_id, custodial) values (p_user, v_address, null, true)
  on conflict (user_id) do update set address = excluded.address, chain_id = null, custodial = true, linked_at = now();

  insert into public.wallet_welcomes (user_id, address) values (p_user, lower(v_address))
  on conflict do nothing;
  if found then
    v_granted := c_welcome;
    v_balance := public.post_ledger(p_user, c_welcome, 'wallet_welcome', v_address, 'wallet_welcome:' || p_user::text);
  end if;
  return json_build_object('address', v_address, 'welcome', v_granted, 'balance', v_balance, 'custodial', true);
end
$$;

-- The rules gain the per-day ceiling, derived from the rules it follows from.
create or replace function public.wallet_rules() returns json
language sql stable set search_path = '' as $$
  select json_build_object(
    'welcome_tokens', 50,
    'claim_per_hour', 5,
    'claim_hour_seconds', 3600,
    -- At most this many listening seconds per UTC day count towards the pot.
    'claim_day_seconds', (public.reward_rules() -> 'listen' ->> 'daily_cap')::int * (public.publishing_rules() ->> 'max_seconds')::int,
    'mint_cost', 100,
    'nonce_ttl_seconds', 300,
    'max_royalty_percent', 50
  )
$$;

-- 'Remove this address from my account'.
create or replace function public.wallet_unlink() returns json
language plpgsql security definer set search_path = '' as $$
begin
  if auth.uid() is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  delete from public.wallet_links where user_id = auth.uid();
  return json_build_object('unlinked', found);
end
$$;

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

CREATE TABLE public.administrators (
    user_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT administrators_pkey PRIMARY KEY (user_id),
    CONSTRAINT administrators_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

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
    CONSTRAINT site_settings_api_timeout_ms_check CHECK ((((api_timeout_ms >= 1000) AND (api_timeout_ms <= 600000)) AND
        ((api_timeout_ms % 1000) = 0))),
    CONSTRAINT site_settings_id_check CHECK (id),
    CONSTRAINT site_settings_max_free_songs_check CHECK (((max_free_songs >= 0) AND (max_free_songs <= 1000))),
    CONSTRAINT site_settings_max_retries_check CHECK (((max_retries >= 0) AND (max_retries <= 10))),
    CONSTRAINT site_settings_primary_color_check CHECK (((primary_color IS NULL) OR (primary_color ~ '^#[0-9a-fA-F]{6}$'::text))),
    CONSTRAINT site_settings_site_title_check CHECK (((char_length(btrim(site_title)) >= 1) AND (char_length(btrim(site_title)) <= 80))),
    CONSTRAINT site_settings_pkey PRIMARY KEY (id),
    CONSTRAINT site_settings_updated_by_fkey FOREIGN KEY (updated_by) REFERENCES auth.users(id) ON DELETE SET NULL
);

-- ---------------------------------------------------------------------------------------------
-- AI providers, one row per category.
-- ---------------------------------------------------------------------------------------------
CREATE TABLE public.ai_provider_settings (
    category text NOT NULL,
    provider text NOT NULL,
    model text NOT NULL,
    base_url text,
    api_key_mask text,
    updated_by uuid,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT ai_provider_settings_base_url_check CHECK (((base_url IS NULL) OR ((char_length(base_url) <= 500) AND (base_url ~
        '^https?://[^\s/?#]+([/?#]\S*)?$'::text)))),
    CONSTRAINT ai_provider_settings_category_check CHECK ((category = ANY (ARRAY['image'::text, 'text'::text, 'music'::text,
        'inference'::text]))),
    CONSTRAINT ai_provider_settings_model_check CHECK (((char_length(model) >= 1) AND (char_length(model) <= 60))),
    CONSTRAINT ai_provider_settings_provider_check CHECK (((char_length(provider) >= 1) AND (char_length(provider) <= 60))),
    CONSTRAINT ai_provider_settings_pkey PRIMARY KEY (category),
    CONSTRAINT ai_provider_settings_updated_by_fkey FOREIGN KEY (updated_by) REFERENCES auth.users(id) ON DELETE SET NULL
);

-- ai-text makes the server call the administrator's paid provider, so it is
-- metered: a daily quota per user and one for the whole site (UTC days), counted atomically in
-- SQL by public.ai_text_take(), which only the server (service role) calls, before the provider.
CREATE TABLE public.ai_text_quota (
    id boolean DEFAULT true NOT NULL,
    per_user_daily integer DEFAULT 30 NOT NULL,
    global_daily integer DEFAULT 1000 NOT NULL,
    CONSTRAINT ai_text_quota_global_daily_check CHECK (((global_daily >= 0) AND (global_daily <= 10000000))),
    CONSTRAINT ai_text_quota_id_check CHECK (id),
    CONSTRAINT ai_text_quota_per_user_daily_check CHECK (((per_user_daily >= 0) AND (per_user_daily <= 100000))),
    CONSTRAINT ai_text_quota_pkey PRIMARY KEY (id)
);

CREATE TABLE public.ai_text_usage (
    day date NOT NULL,
    user_id uuid NOT NULL,
    calls integer NOT NULL,
    CONSTRAINT ai_text_usage_calls_check CHECK ((calls >= 0)),
    CONSTRAINT ai_text_usage_pkey PRIMARY KEY (day, user_id),
    CONSTRAINT ai_text_usage_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

CREATE TABLE public.ai_text_usage_total (
    day date NOT NULL,
    calls integer NOT NULL,
    CONSTRAINT ai_text_usage_total_calls_check CHECK ((calls >= 0)),
    CONSTRAINT ai_text_usage_total_pkey PRIMARY KEY (day)
);

-- ---------------------------------------------------------------------------------------------
-- Knowledge base.
-- ---------------------------------------------------------------------------------------------
CREATE TABLE public.knowledge_base (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    title text NOT NULL,
    content text NOT NULL,
    created_by uuid DEFAULT auth.uid(),
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT knowledge_base_content_check CHECK (((char_length(btrim(content)) >= 1) AND (char_length(btrim(content)) <= 20000))),
    CONSTRAINT knowledge_base_title_check CHECK (((char_length(btrim(title)) >= 1) AND (char_length(btrim(title)) <= 200))),
    CONSTRAINT knowledge_base_pkey PRIMARY KEY (id),
    CONSTRAINT knowledge_base_created_by_fkey FOREIGN KEY (created_by) REFERENCES auth.users(id) ON DELETE SET NULL
);

-- Client addresses an account was seen at (listening, publishing): the creator rule's "same client".
CREATE TABLE public.account_clients (
    user_id uuid NOT NULL,
    client_address text NOT NULL,
    last_seen timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT account_clients_pkey PRIMARY KEY (user_id, client_address),
    CONSTRAINT account_clients_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

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

-- Every publication, kept when the song is unpublished: the per-day limit counts these, so
-- publishing and unpublishing in a loop does not reset it. Written only by publish_song().
CREATE TABLE public.song_publications (
    id bigint NOT NULL,
    user_id uuid NOT NULL,
    song_id text NOT NULL,
    published_at timestamp with time zone DEFAULT now() NOT NULL,
    attempt_key text,
    CONSTRAINT song_publications_attempt_key_check CHECK (((attempt_key IS NULL) OR ((char_length(attempt_key) >= 8) AND
        (char_length(attempt_key) <= 100)))),
    CONSTRAINT song_publications_pkey PRIMARY KEY (id),
    CONSTRAINT song_publications_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

CREATE TABLE public.remixes (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    attempt_key text NOT NULL,
    source_ref text NOT NULL,
    cost integer NOT NULL,
    status text DEFAULT 'burned'::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT remixes_attempt_key_check CHECK (((char_length(attempt_key) >= 8) AND (char_length(attempt_key) <= 100))),
    CONSTRAINT remixes_cost_check CHECK ((cost > 0)),
    CONSTRAINT remixes_source_ref_check CHECK (((char_length(source_ref) >= 1) AND (char_length(source_ref) <= 200))),
    CONSTRAINT remixes_status_check CHECK ((status = ANY (ARRAY['burned'::text, 'rendered'::text, 'refunded'::text]))),
    CONSTRAINT remixes_pkey PRIMARY KEY (id),
    CONSTRAINT remixes_user_id_attempt_key_key UNIQUE (user_id, attempt_key),
    CONSTRAINT remixes_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

CREATE TABLE public.songs (
    id text NOT NULL,
    title text NOT NULL,
    artist text NOT NULL,
    duration_seconds numeric(8,3) NOT NULL,
    reward integer DEFAULT (((public.reward_rules() -> 'listen'::text) ->> 'default_reward'::text))::integer NOT NULL,
    slug text NOT NULL,
    genre text,
    owner_id uuid,
    cover_url text,
    audio_url text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    loudness_lufs real,
    true_peak_dbtp real,
    remix_id uuid,
    remix_of text,
    CONSTRAINT songs_audio_url_check CHECK (((audio_url IS NULL) OR (char_length(audio_url) <= 2048))),
    CONSTRAINT songs_cover_url_check CHECK (((cover_url IS NULL) OR (char_length(cover_url) <= 2048))),
    CONSTRAINT songs_duration_seconds_check CHECK ((duration_seconds > (0)::numeric)),
    CONSTRAINT songs_genre_check CHECK (((genre IS NULL) OR (genre ~ '^[a-z][a-z0-9-]{0,30}$'::text))),
    CONSTRAINT songs_loudness_lufs_range CHECK (((loudness_lufs IS NULL) OR ((loudness_lufs >= ('-70'::integer)::double precision)
        AND (loudness_lufs <= (3)::double precision)))),
    CONSTRAINT songs_reward_check CHECK ((reward > 0)),
    CONSTRAINT songs_slug_format CHECK (((slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'::text) AND (char_length(slug) <= 120))),
    CONSTRAINT songs_true_peak_dbtp_range CHECK (((true_peak_dbtp IS NULL) OR ((true_peak_dbtp >= ('-100'::integer)::double
        precision) AND (true_peak_dbtp <= (12)::double precision)))),
    CONSTRAINT songs_pkey PRIMARY KEY (id),
    CONSTRAINT songs_remix_id_key UNIQUE (remix_id),
    CONSTRAINT songs_slug_key UNIQUE (slug),
    CONSTRAINT songs_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES auth.users(id) ON DELETE SET NULL,
    CONSTRAINT songs_remix_id_fkey FOREIGN KEY (remix_id) REFERENCES public.remixes(id) ON DELETE SET NULL,
    CONSTRAINT songs_remix_of_fkey FOREIGN KEY (remix_of) REFERENCES public.songs(id) ON DELETE SET NULL
);

CREATE TABLE public.favourites (
    user_id uuid DEFAULT auth.uid() NOT NULL,
    song_id text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT favourites_song_id_check CHECK (((char_length(song_id) >= 1) AND (char_length(song_id) <= 200))),
    CONSTRAINT favourites_pkey PRIMARY KEY (user_id, song_id),
    CONSTRAINT favourites_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

CREATE TABLE public.playlists (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid DEFAULT auth.uid() NOT NULL,
    name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    is_public boolean DEFAULT false NOT NULL,
    CONSTRAINT playlists_name_check CHECK (((char_length(btrim(name)) >= 1) AND (char_length(btrim(name)) <= 100))),
    CONSTRAINT playlists_name_length CHECK ((((char_length(btrim(name)) >= 1) AND (char_length(btrim(name)) <= 80)) AND
        (char_length(name) <= 80))),
    CONSTRAINT playlists_pkey PRIMARY KEY (id),
    CONSTRAINT playlists_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

-- song_id is not a foreign key: playlists may hold the user's own recordings, which live only in
-- the browser's IndexedDB ('idb:<id>').
CREATE TABLE public.playlist_songs (
    playlist_id uuid NOT NULL,
    song_id text NOT NULL,
    "position" integer DEFAULT 0 NOT NULL,
    added_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT playlist_songs_song_id_check CHECK (((char_length(song_id) >= 1) AND (char_length(song_id) <= 200))),
    CONSTRAINT playlist_songs_pkey PRIMARY KEY (playlist_id, song_id),
    CONSTRAINT playlist_songs_playlist_id_fkey FOREIGN KEY (playlist_id) REFERENCES public.playlists(id) ON DELETE CASCADE
);

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
CREATE TABLE public.comments (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    song_id text NOT NULL,
    user_id uuid,
    username text NOT NULL,
    parent_id uuid,
    body text NOT NULL,
    like_count integer DEFAULT 0 NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    edited_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    at_seconds numeric(8,3),
    CONSTRAINT comments_at_seconds_range CHECK (((at_seconds IS NULL) OR (at_seconds >= (0)::numeric))),
    CONSTRAINT comments_body_check CHECK ((char_length(body) <= 2000)),
    CONSTRAINT comments_body_present CHECK ((deleted OR (char_length(btrim(body)) > 0))),
    CONSTRAINT comments_like_count_check CHECK ((like_count >= 0)),
    CONSTRAINT comments_not_own_parent CHECK (((parent_id IS NULL) OR (parent_id <> id))),
    CONSTRAINT comments_pkey PRIMARY KEY (id),
    CONSTRAINT comments_parent_id_fkey FOREIGN KEY (parent_id) REFERENCES public.comments(id) ON DELETE CASCADE,
    CONSTRAINT comments_song_id_fkey FOREIGN KEY (song_id) REFERENCES public.songs(id) ON DELETE CASCADE,
    CONSTRAINT comments_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE SET NULL
);

CREATE TABLE public.comment_likes (
    comment_id uuid NOT NULL,
    user_id uuid NOT NULL,
    song_id text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT comment_likes_pkey PRIMARY KEY (comment_id, user_id),
    CONSTRAINT comment_likes_comment_id_fkey FOREIGN KEY (comment_id) REFERENCES public.comments(id) ON DELETE CASCADE,
    CONSTRAINT comment_likes_song_id_fkey FOREIGN KEY (song_id) REFERENCES public.songs(id) ON DELETE CASCADE,
    CONSTRAINT comment_likes_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

CREATE TABLE public.delegations (
    delegator_id uuid NOT NULL,
    delegate_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT delegations_not_self CHECK (((delegate_id IS NULL) OR (delegate_id <> delegator_id))),
    CONSTRAINT delegations_pkey PRIMARY KEY (delegator_id),
    CONSTRAINT delegations_delegate_id_fkey FOREIGN KEY (delegate_id) REFERENCES auth.users(id) ON DELETE CASCADE,
    CONSTRAINT delegations_delegator_id_fkey FOREIGN KEY (delegator_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

CREATE TABLE public.proposals (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    author_id uuid,
    author_name text NOT NULL,
    title text NOT NULL,
    description text NOT NULL,
    category text NOT NULL,
    status text DEFAULT 'active'::text NOT NULL,
    votes_for bigint DEFAULT 0 NOT NULL,
    votes_against bigint DEFAULT 0 NOT NULL,
    voter_count integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    ends_at timestamp with time zone NOT NULL,
    closed_at timestamp with time zone,
    snapshot_power bigint DEFAULT 0 NOT NULL,
    quorum_power bigint DEFAULT 0 NOT NULL,
    CONSTRAINT proposals_category_check CHECK ((category = ANY (ARRAY['platform'::text, 'tokenomics'::text, 'features'::text,
        'community'::text, 'other'::text]))),
    CONSTRAINT proposals_deleted_author_anonymous CHECK (((author_id IS NOT NULL) OR (author_name = 'Deleted account'::text))),
    CONSTRAINT proposals_description_check CHECK (((char_length(btrim(description)) >= 1) AND (char_length(btrim(description)) <= 4000))),
    CONSTRAINT proposals_ends_after_start CHECK ((ends_at > created_at)),
    CONSTRAINT proposals_quorum_power_check CHECK ((quorum_power >= 0)),
    CONSTRAINT proposals_snapshot_power_check CHECK ((snapshot_power >= 0)),
    CONSTRAINT proposals_status_check CHECK ((status = ANY (ARRAY['active'::text, 'passed'::text, 'rejected'::text]))),
    CONSTRAINT proposals_title_check CHECK (((char_length(btrim(title)) >= 1) AND (char_length(btrim(title)) <= 120))),
    CONSTRAINT proposals_voter_count_check CHECK ((voter_count >= 0)),
    CONSTRAINT proposals_votes_against_check CHECK ((votes_against >= 0)),
    CONSTRAINT proposals_votes_for_check CHECK ((votes_for >= 0)),
    CONSTRAINT proposals_pkey PRIMARY KEY (id),
    CONSTRAINT proposals_author_id_fkey FOREIGN KEY (author_id) REFERENCES auth.users(id) ON DELETE SET NULL
);

CREATE TABLE public.proposal_power (
    proposal_id uuid NOT NULL,
    user_id uuid NOT NULL,
    balance integer NOT NULL,
    locked integer NOT NULL,
    own_power bigint NOT NULL,
    delegated_power bigint NOT NULL,
    delegated boolean NOT NULL,
    delegate_id uuid,
    voting_power bigint NOT NULL,
    CONSTRAINT proposal_power_delegated_power_check CHECK ((delegated_power >= 0)),
    CONSTRAINT proposal_power_locked_check CHECK ((locked >= 0)),
    CONSTRAINT proposal_power_own_power_check CHECK ((own_power >= 0)),
    CONSTRAINT proposal_power_voting_power_check CHECK ((voting_power >= 0)),
    CONSTRAINT proposal_power_pkey PRIMARY KEY (proposal_id, user_id),
    CONSTRAINT proposal_power_delegate_id_fkey FOREIGN KEY (delegate_id) REFERENCES auth.users(id) ON DELETE SET NULL,
    CONSTRAINT proposal_power_proposal_id_fkey FOREIGN KEY (proposal_id) REFERENCES public.proposals(id) ON DELETE CASCADE
        DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT proposal_power_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

CREATE TABLE public.votes (
    proposal_id uuid NOT NULL,
    user_id uuid NOT NULL,
    choice text NOT NULL,
    power bigint NOT NULL,
    delegators uuid[] DEFAULT '{}'::uuid[] NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT votes_choice_check CHECK ((choice = ANY (ARRAY['for'::text, 'against'::text]))),
    CONSTRAINT votes_power_check CHECK ((power > 0)),
    CONSTRAINT votes_pkey PRIMARY KEY (proposal_id, user_id),
    CONSTRAINT votes_proposal_id_fkey FOREIGN KEY (proposal_id) REFERENCES public.proposals(id) ON DELETE CASCADE,
    CONSTRAINT votes_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

-- The ledger's reasons become rows of a table instead of a check constraint's list.
--
-- Each feature that moves CUBE for a new reason (a refund, a welcome bonus, a daily-goal bonus)
-- adds its reason with one insert in its own migration, instead of every feature redefining the
-- same constraint (and the last migration silently dropping the reasons of the others).
-- Readable by everyone (the Activity tab names them); written only by migrations.
CREATE TABLE public.ledger_reasons (
    reason text NOT NULL,
    kind text NOT NULL,
    description text NOT NULL,
    CONSTRAINT ledger_reasons_kind_check CHECK ((kind = ANY (ARRAY['earn'::text, 'spend'::text, 'refund'::text]))),
    CONSTRAINT ledger_reasons_reason_check CHECK ((reason ~ '^[a-z][a-z_]{1,39}$'::text)),
    CONSTRAINT ledger_reasons_pkey PRIMARY KEY (reason)
);

CREATE TABLE public.token_ledger (
    id bigint NOT NULL,
    user_id uuid,
    amount integer NOT NULL,
    reason text NOT NULL,
    reference text,
    idempotency_key text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT token_ledger_amount_check CHECK ((amount <> 0)),
    CONSTRAINT token_ledger_idempotency_key_key UNIQUE (idempotency_key),
    CONSTRAINT token_ledger_pkey PRIMARY KEY (id),
    CONSTRAINT token_ledger_reason_fkey FOREIGN KEY (reason) REFERENCES public.ledger_reasons(reason),
    CONSTRAINT token_ledger_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE SET NULL
);

CREATE TABLE public.user_tokens (
    user_id uuid NOT NULL,
    balance integer DEFAULT 0 NOT NULL,
    daily_earned integer DEFAULT 0 NOT NULL,
    listens_today integer DEFAULT 0 NOT NULL,
    day date DEFAULT ((now() AT TIME ZONE 'utc'::text))::date NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    last_interaction_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT user_tokens_balance_check CHECK ((balance >= 0)),
    CONSTRAINT user_tokens_daily_earned_check CHECK ((daily_earned >= 0)),
    CONSTRAINT user_tokens_listens_today_check CHECK (((listens_today >= 0) AND (listens_today <= 20))),
    CONSTRAINT user_tokens_pkey PRIMARY KEY (user_id),
    CONSTRAINT user_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

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

CREATE TABLE public.blockchain_configs (
    name text NOT NULL,
    display_name text NOT NULL,
    native_token text NOT NULL,
    chain_id integer,
    testnet_rpc_url text,
    explorer_url text,
    contract_address text,
    testnet boolean DEFAULT true NOT NULL,
    enabled boolean DEFAULT true NOT NULL,
    sort integer DEFAULT 0 NOT NULL,
    mainnet_rpc_url text,
    icon text,
    embedded boolean DEFAULT false NOT NULL,
    CONSTRAINT blockchain_configs_contract_address_check CHECK (((contract_address IS NULL) OR (contract_address ~
        '^0x[0-9a-fA-F]{40}$'::text))),
    CONSTRAINT blockchain_configs_name_check CHECK ((name ~ '^[a-z][a-z0-9_-]{1,30}$'::text)),
    CONSTRAINT blockchain_configs_pkey PRIMARY KEY (name)
);

CREATE TABLE public.mint_requests (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    client_key text NOT NULL,
    blockchain text NOT NULL,
    metadata jsonb NOT NULL,
    recipient text NOT NULL,
    royalties numeric(4,2) NOT NULL,
    collection text,
    status text DEFAULT 'pending'::text NOT NULL,
    transaction_id text,
    token_id text,
    contract_address text,
    error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT mint_requests_client_key_check CHECK (((char_length(client_key) >= 8) AND (char_length(client_key) <= 100))),
    CONSTRAINT mint_requests_collection_check CHECK (((collection IS NULL) OR (char_length(collection) <= 100))),
    CONSTRAINT mint_requests_recipient_check CHECK ((recipient ~ '^0x[0-9a-fA-F]{40}$'::text)),
    CONSTRAINT mint_requests_royalties_check CHECK (((royalties >= (0)::numeric) AND (royalties <= (50)::numeric))),
    CONSTRAINT mint_requests_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'completed'::text, 'failed'::text]))),
    CONSTRAINT mint_requests_transaction_id_check CHECK (((transaction_id IS NULL) OR (transaction_id ~ '^0x[0-9a-f]{64}$'::text))),
    CONSTRAINT mint_requests_pkey PRIMARY KEY (id),
    CONSTRAINT mint_requests_user_id_client_key_key UNIQUE (user_id, client_key),
    CONSTRAINT mint_requests_blockchain_fkey FOREIGN KEY (blockchain) REFERENCES public.blockchain_configs(name),
    CONSTRAINT mint_requests_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

CREATE TABLE public.nfts (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    mint_request_id uuid NOT NULL,
    blockchain text NOT NULL,
    contract_address text NOT NULL,
    token_id text NOT NULL,
    transaction_id text NOT NULL,
    metadata jsonb NOT NULL,
    owner_id uuid NOT NULL,
    minted_at timestamp with time zone DEFAULT now() NOT NULL,
    royalties numeric(4,2) NOT NULL,
    CONSTRAINT nfts_royalties_check CHECK (((royalties >= (0)::numeric) AND (royalties <= (50)::numeric))),
    CONSTRAINT nfts_blockchain_contract_address_token_id_key UNIQUE (blockchain, contract_address, token_id),
    CONSTRAINT nfts_mint_request_id_key UNIQUE (mint_request_id),
    CONSTRAINT nfts_pkey PRIMARY KEY (id),
    CONSTRAINT nfts_blockchain_fkey FOREIGN KEY (blockchain) REFERENCES public.blockchain_configs(name),
    CONSTRAINT nfts_mint_request_id_fkey FOREIGN KEY (mint_request_id) REFERENCES public.mint_requests(id) ON DELETE CASCADE,
    CONSTRAINT nfts_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

-- One 'New follower' notice per (follower, followed) pair per UTC day.
--
-- notice_on_follow (20261124150300_notifications.sql) wrote a notice on every insert into
-- public.follows, so following and unfollowing in a loop flooded the followed user. The pair's
-- last noticed day is now a row of public.follow_notices; the trigger notifies only when it can
-- claim today's row. Its primary key decides between concurrent follows of the same pair (the
-- second waits for the first, then finds the day taken), so no race gets a second notice.
-- Only the trigger writes the table; nobody reads it through the API.
CREATE TABLE public.follow_notices (
    follower_id uuid NOT NULL,
    following_id uuid NOT NULL,
    day date NOT NULL,
    CONSTRAINT follow_notices_pkey PRIMARY KEY (follower_id, following_id, day),
    CONSTRAINT follow_notices_follower_id_fkey FOREIGN KEY (follower_id) REFERENCES auth.users(id) ON DELETE CASCADE,
    CONSTRAINT follow_notices_following_id_fkey FOREIGN KEY (following_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

-- Live notifications (Settings › Notifications): the server writes one row per event the user
-- asked to hear about, and Realtime delivers it to their open app, which shows it as a toast.
-- Events: a reply to my comment, a new follower, a proposal I voted on closing, my mint completed.
-- The preferences (public.user_settings, default on) are applied here, on the server, when the
-- event happens; the client only shows what arrives. Rows are the user's own, read-only for them.
CREATE TABLE public.notifications (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    kind text NOT NULL,
    title text NOT NULL,
    body text NOT NULL,
    link text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT notifications_body_check CHECK ((char_length(body) <= 300)),
    CONSTRAINT notifications_kind_check CHECK ((kind = ANY (ARRAY['reply'::text, 'follower'::text, 'vote_closed'::text,
        'mint_completed'::text]))),
    CONSTRAINT notifications_link_check CHECK (((link IS NULL) OR ((link ~ '^/'::text) AND (char_length(link) <= 300)))),
    CONSTRAINT notifications_title_check CHECK ((char_length(title) <= 120)),
    CONSTRAINT notifications_pkey PRIMARY KEY (id),
    CONSTRAINT notifications_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

-- Who follows whom: the public profile's Follow/Unfollow, its follower counts, and discovery's
-- artist affinity. Public to read (follower lists are public on /user/{username}); a user can only
-- add or remove follows of their own (follower_id = themselves), never make someone else follow.
CREATE TABLE public.follows (
    follower_id uuid NOT NULL,
    following_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT follows_not_self CHECK ((follower_id <> following_id)),
    CONSTRAINT follows_pkey PRIMARY KEY (follower_id, following_id),
    CONSTRAINT follows_follower_id_fkey FOREIGN KEY (follower_id) REFERENCES auth.users(id) ON DELETE CASCADE,
    CONSTRAINT follows_following_id_fkey FOREIGN KEY (following_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
CREATE TABLE public.profiles (
    user_id uuid NOT NULL,
    username text NOT NULL,
    avatar_url text,
    bio text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT profiles_avatar_url_check CHECK (((avatar_url IS NULL) OR (char_length(avatar_url) <= 2048))),
    CONSTRAINT profiles_bio_check CHECK (((bio IS NULL) OR (char_length(bio) <= 1000))),
    CONSTRAINT profiles_username_check CHECK (((char_length(username) >= 1) AND (char_length(username) <= 40))),
    CONSTRAINT profiles_pkey PRIMARY KEY (user_id),
    CONSTRAINT profiles_username_key UNIQUE (username),
    CONSTRAINT profiles_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

-- ---------------------------------------------------------------------------------------------
-- Preferences: one row per user, theirs alone. Notifications say which live toasts they want;
-- privacy whether their profile and listening activity are public.
-- ---------------------------------------------------------------------------------------------
CREATE TABLE public.user_settings (
    user_id uuid DEFAULT auth.uid() NOT NULL,
    notify_replies boolean DEFAULT true NOT NULL,
    notify_followers boolean DEFAULT true NOT NULL,
    notify_votes boolean DEFAULT true NOT NULL,
    notify_mints boolean DEFAULT true NOT NULL,
    public_profile boolean DEFAULT true NOT NULL,
    show_activity boolean DEFAULT true NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT user_settings_pkey PRIMARY KEY (user_id),
    CONSTRAINT user_settings_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

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
    CONSTRAINT share_links_amount_check CHECK ((amount > 0)),
    CONSTRAINT share_links_item_id_check CHECK (((char_length(item_id) >= 1) AND (char_length(item_id) <= 200))),
    CONSTRAINT share_links_item_type_check CHECK ((item_type = ANY (ARRAY['user'::text, 'song'::text, 'track'::text]))),
    CONSTRAINT share_links_platform_check CHECK ((platform = ANY (ARRAY['twitter'::text, 'facebook'::text, 'copy_link'::text,
        'qr'::text, 'share_now'::text]))),
    CONSTRAINT share_links_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'credited'::text]))),
    CONSTRAINT share_links_token_check CHECK ((token ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT share_links_pkey PRIMARY KEY (id),
    CONSTRAINT share_links_token_key UNIQUE (token),
    CONSTRAINT share_links_user_id_item_type_item_id_platform_key UNIQUE (user_id, item_type, item_id, platform),
    CONSTRAINT share_links_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

CREATE TABLE public.share_open_payers (
    sharer_id uuid NOT NULL,
    day date NOT NULL,
    visitor_key text NOT NULL,
    CONSTRAINT share_open_payers_pkey PRIMARY KEY (sharer_id, day, visitor_key),
    CONSTRAINT share_open_payers_sharer_id_fkey FOREIGN KEY (sharer_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

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

-- Music Studio projects listed in the account. Only metadata lives here: the mix and its audio
-- stay in the browser's IndexedDB (src/lib/project-db.ts), and `id` is that local project's id, so
-- a browser can tell whether it holds a listed project's audio.
CREATE TABLE public.studio_projects (
    id uuid NOT NULL,
    user_id uuid DEFAULT auth.uid() NOT NULL,
    name text NOT NULL,
    track_count integer DEFAULT 0 NOT NULL,
    duration_seconds numeric DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    audio_uploaded_at timestamp with time zone,
    CONSTRAINT studio_projects_duration_seconds_check CHECK ((duration_seconds >= (0)::numeric)),
    CONSTRAINT studio_projects_name_check CHECK ((((char_length(btrim(name)) >= 1) AND (char_length(btrim(name)) <= 120)) AND
        (char_length(name) <= 120))),
    CONSTRAINT studio_projects_track_count_check CHECK ((track_count >= 0)),
    CONSTRAINT studio_projects_pkey PRIMARY KEY (id),
    CONSTRAINT studio_projects_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

-- Social login in the wallet: a user without a browser wallet uses their CUBE
-- account as the wallet. The server makes the account an Ethereum key of its own once (the edge
-- function wallet-verify, { custodial: true }), keeps the private key where no API role can read
-- it, and links the address like a proven one: Rewards, Claim and the NFT tab open, and a mint
-- without a recipient goes to it. Connecting a browser wallet later replaces the link; the
-- custodial key stays, so Social login links the same address again.
CREATE TABLE public.custodial_wallets (
    user_id uuid NOT NULL,
    address text NOT NULL,
    private_key text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT custodial_wallets_address_check CHECK ((address ~ '^0x[0-9a-fA-F]{40}$'::text)),
    CONSTRAINT custodial_wallets_private_key_check CHECK ((private_key ~ '^0x[0-9a-f]{64}$'::text)),
    CONSTRAINT custodial_wallets_address_key UNIQUE (address),
    CONSTRAINT custodial_wallets_pkey PRIMARY KEY (user_id),
    CONSTRAINT custodial_wallets_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

CREATE TABLE public.siwe_nonces (
    nonce text NOT NULL,
    user_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    CONSTRAINT siwe_nonces_nonce_check CHECK ((nonce ~ '^[A-Za-z0-9]{16,64}$'::text)),
    CONSTRAINT siwe_nonces_pkey PRIMARY KEY (nonce),
    CONSTRAINT siwe_nonces_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

CREATE TABLE public.wallet_links (
    user_id uuid NOT NULL,
    address text NOT NULL,
    chain_id integer,
    linked_at timestamp with time zone DEFAULT now() NOT NULL,
    custodial boolean DEFAULT false NOT NULL,
    CONSTRAINT wallet_links_address_check CHECK ((address ~ '^0x[0-9a-fA-F]{40}$'::text)),
    CONSTRAINT wallet_links_address_key UNIQUE (address),
    CONSTRAINT wallet_links_pkey PRIMARY KEY (user_id),
    CONSTRAINT wallet_links_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

-- One welcome per account and per address, across accounts (both unique).
CREATE TABLE public.wallet_welcomes (
    user_id uuid,
    address text NOT NULL,
    granted_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT wallet_welcomes_address_key UNIQUE (address),
    CONSTRAINT wallet_welcomes_user_id_key UNIQUE (user_id),
    CONSTRAINT wallet_welcomes_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE SET NULL
);

ALTER TABLE public.admin_audit ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.admin_audit_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

ALTER TABLE public.song_publications ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.song_publications_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

ALTER TABLE public.token_ledger ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.token_ledger_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

ALTER TABLE public.user_listening_history ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.user_listening_history_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

create or replace function public.admin_audit_write(p_area text, p_field text, p_old text, p_new text) returns void
language sql security definer set search_path = '' as $$
  insert into public.admin_audit (actor_id, actor_email, area, field, old_value, new_value)
  select auth.uid(), (select email from auth.users where id = auth.uid()), p_area, p_field, p_old, p_new
   where p_old is distinct from p_new
$$;

create or replace function public.search_knowledge(p_query text) returns setof public.knowledge_base
language sql stable set search_path = '' as $$
  select * from public.knowledge_base
   where coalesce(btrim(p_query), '') = ''
      or to_tsvector('simple', title || ' ' || content) @@ plainto_tsquery('simple', p_query)
      or title ilike '%' || p_query || '%' or content ilike '%' || p_query || '%'
   order by updated_at desc
   limit 200
$$;

-- A song inserted without a slug gets its id as the slug (ids are already slug-shaped), so server
-- code and tests that insert catalogue rows by id keep working; publishing sets its own slug.
create or replace function public.songs_default_slug() returns trigger
language plpgsql set search_path = '' as $$
begin
  if new.slug is null then
    new.slug := new.id;
  end if;
  return new;
end
$$;

-- A publisher is seen at the address they published from.
create or replace function public.songs_note_owner_client() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform public.note_account_client(new.owner_id);
  return new;
end
$$;

-- Proposals (all, newest first) after closing due ones: the list every page reads.
create or replace function public.governance_proposals() returns setof public.proposals
language plpgsql security definer set search_path = '' as $$
begin
  perform public.close_due_proposals();
  return query select * from public.proposals order by created_at desc;
end
$$;

create or replace function public.proposals_anonymise_author() returns trigger
language plpgsql set search_path = '' as $$
begin
  if new.author_id is null then
    new.author_name := 'Deleted account';
  end if;
  return new;
end
$$;

create or replace function public.proposals_snapshot() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  new.snapshot_power := public.snapshot_proposal_power(new.id);
  new.quorum_power := greatest(ceil((public.governance_rules() ->> 'quorum_share')::numeric * new.snapshot_power), 1)::bigint;
  return new;
end
$$;

create or replace function public.token_ledger_append_only() returns trigger
language plpgsql set search_path = '' as $$
begin
  if tg_op = 'DELETE' and pg_trigger_depth() > 1 then
    return old;
  end if;
  if tg_op = 'UPDATE' and pg_trigger_depth() > 1 and old.user_id is not null and new.user_id is null
     and new.id = old.id and new.amount = old.amount and new.reason = old.reason
     and new.reference is not distinct from old.reference and new.idempotency_key = old.idempotency_key
     and new.created_at = old.created_at then
    return new;
  end if;
  raise exception 'token_ledger is append-only' using errcode = '42501';
end
$$;

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
  if v_s.credited > 0 or v_s.outcome in ('own_song', 'song_limit', 'daily_cap', 'cube_cap') or v_heard < v_threshold then
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
        perform public.post_ledger(v_s.creator_id, (c_creator ->> 'reward')::int, 'creator', v_s.song_id, 'creator:' || v_s.id::text);
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

-- A proven browser wallet replaces a custodial link (wallet_link's upsert keeps the column): mark it.
create or replace function public.wallet_links_proven() returns trigger
language plpgsql set search_path = '' as $$
begin
  if tg_op = 'UPDATE' and new.address is distinct from old.address and new.custodial = old.custodial and old.custodial then
    new.custodial := false;
  end if;
  return new;
end
$$;

CREATE INDEX admin_audit_created_idx ON public.admin_audit USING btree (created_at DESC);

CREATE INDEX knowledge_base_search_idx ON public.knowledge_base USING gin (to_tsvector('simple'::regconfig, ((title || ' '::text)
    || content)));

CREATE INDEX account_clients_address_idx ON public.account_clients USING btree (client_address, last_seen DESC);

CREATE UNIQUE INDEX song_publications_attempt_key ON public.song_publications USING btree (user_id, attempt_key);

CREATE INDEX song_publications_user_idx ON public.song_publications USING btree (user_id, published_at DESC);

CREATE UNIQUE INDEX songs_audio_url_key ON public.songs USING btree (audio_url) WHERE (owner_id IS NOT NULL);

CREATE INDEX songs_genre_idx ON public.songs USING btree (genre);

CREATE INDEX songs_owner_idx ON public.songs USING btree (owner_id) WHERE (owner_id IS NOT NULL);

CREATE INDEX songs_remix_of_idx ON public.songs USING btree (remix_of) WHERE (remix_of IS NOT NULL);

CREATE INDEX playlists_user_idx ON public.playlists USING btree (user_id);

CREATE INDEX comment_likes_song_idx ON public.comment_likes USING btree (song_id);

CREATE INDEX comment_likes_user_idx ON public.comment_likes USING btree (user_id);

CREATE INDEX comments_parent_idx ON public.comments USING btree (parent_id) WHERE (parent_id IS NOT NULL);

CREATE INDEX comments_song_idx ON public.comments USING btree (song_id, created_at DESC);

CREATE INDEX comments_user_idx ON public.comments USING btree (user_id, created_at DESC);

CREATE INDEX delegations_delegate_idx ON public.delegations USING btree (delegate_id);

CREATE INDEX proposal_power_delegate_idx ON public.proposal_power USING btree (proposal_id, delegate_id);

CREATE INDEX proposal_power_user_idx ON public.proposal_power USING btree (user_id);

CREATE INDEX proposals_status_idx ON public.proposals USING btree (status, ends_at);

CREATE INDEX votes_user_idx ON public.votes USING btree (user_id, created_at DESC);

CREATE INDEX token_ledger_user_created_idx ON public.token_ledger USING btree (user_id, created_at DESC);

CREATE INDEX listening_sessions_client_idx ON public.listening_sessions USING btree (client_address, started_at DESC);

CREATE UNIQUE INDEX listening_sessions_one_active ON public.listening_sessions USING btree (user_id) WHERE (ended_at IS NULL);

CREATE INDEX listening_sessions_user_started_idx ON public.listening_sessions USING btree (user_id, started_at DESC);

CREATE INDEX user_listening_history_song_recent_idx ON public.user_listening_history USING btree (listened_at, song_id);

CREATE INDEX user_listening_history_user_idx ON public.user_listening_history USING btree (user_id, listened_at DESC);

CREATE INDEX mint_requests_user_idx ON public.mint_requests USING btree (user_id, created_at DESC);

CREATE INDEX nfts_owner_idx ON public.nfts USING btree (owner_id, minted_at DESC);

CREATE INDEX notifications_user_idx ON public.notifications USING btree (user_id, created_at DESC);

CREATE INDEX follows_following_idx ON public.follows USING btree (following_id);

CREATE INDEX page_views_owner_idx ON public.page_views USING btree (owner_id, day) WHERE (owner_id IS NOT NULL);

CREATE INDEX share_links_user_idx ON public.share_links USING btree (user_id, shared_at DESC);

CREATE INDEX shares_user_day_idx ON public.shares USING btree (user_id, day);

CREATE INDEX remixes_user_created_idx ON public.remixes USING btree (user_id, created_at DESC);

CREATE INDEX studio_projects_user_idx ON public.studio_projects USING btree (user_id);

CREATE INDEX siwe_nonces_user_idx ON public.siwe_nonces USING btree (user_id, created_at DESC);

CREATE TRIGGER songs_default_slug BEFORE INSERT ON public.songs FOR EACH ROW EXECUTE FUNCTION public.songs_default_slug();

CREATE TRIGGER songs_note_owner_client AFTER INSERT ON public.songs FOR EACH ROW WHEN ((new.owner_id IS NOT NULL)) EXECUTE FUNCTION
    public.songs_note_owner_client();

CREATE TRIGGER comment_likes_realtime AFTER INSERT OR DELETE OR UPDATE ON public.comment_likes FOR EACH ROW EXECUTE FUNCTION
    cube_realtime.notify_change('song_id', 'comment_id');

CREATE TRIGGER comments_notice_reply AFTER INSERT ON public.comments FOR EACH ROW EXECUTE FUNCTION public.notice_on_reply();

CREATE TRIGGER comments_realtime AFTER INSERT OR DELETE OR UPDATE ON public.comments FOR EACH ROW EXECUTE FUNCTION
    cube_realtime.notify_change('song_id', 'user_id');

CREATE TRIGGER proposals_anonymise_author BEFORE INSERT OR UPDATE ON public.proposals FOR EACH ROW EXECUTE FUNCTION
    public.proposals_anonymise_author();

CREATE TRIGGER proposals_notice_close AFTER UPDATE OF status ON public.proposals FOR EACH ROW EXECUTE FUNCTION
    public.notice_on_proposal_close();

CREATE TRIGGER proposals_realtime AFTER INSERT OR DELETE OR UPDATE ON public.proposals FOR EACH ROW EXECUTE FUNCTION
    cube_realtime.notify_change('status');

CREATE TRIGGER proposals_snapshot BEFORE INSERT ON public.proposals FOR EACH ROW EXECUTE FUNCTION public.proposals_snapshot();

-- No DELETE events for votes: a DELETE reaches subscribers without an RLS check (the row is gone)
-- and its key names the voter, which only the voter may see.
CREATE TRIGGER votes_realtime AFTER INSERT OR UPDATE ON public.votes FOR EACH ROW EXECUTE FUNCTION
    cube_realtime.notify_change('proposal_id', 'user_id');

CREATE TRIGGER token_ledger_append_only BEFORE DELETE OR UPDATE ON public.token_ledger FOR EACH ROW EXECUTE FUNCTION
    public.token_ledger_append_only();

CREATE TRIGGER mint_requests_notice AFTER UPDATE OF status ON public.mint_requests FOR EACH ROW EXECUTE FUNCTION public.notice_on_mint();

CREATE TRIGGER notifications_realtime AFTER INSERT ON public.notifications FOR EACH ROW EXECUTE FUNCTION
    cube_realtime.notify_change('user_id');

CREATE TRIGGER on_auth_user_created AFTER INSERT ON auth.users FOR EACH ROW EXECUTE FUNCTION public.handle_new_user();

CREATE TRIGGER follows_notice AFTER INSERT ON public.follows FOR EACH ROW EXECUTE FUNCTION public.notice_on_follow();

CREATE TRIGGER profiles_check_change BEFORE UPDATE ON public.profiles FOR EACH ROW EXECUTE FUNCTION public.check_profile_change();

CREATE TRIGGER profiles_rename_follows AFTER UPDATE OF username ON public.profiles FOR EACH ROW WHEN ((new.username IS DISTINCT
    FROM old.username)) EXECUTE FUNCTION public.profile_rename_follows();

CREATE TRIGGER share_links_realtime AFTER INSERT OR UPDATE ON public.share_links FOR EACH ROW EXECUTE FUNCTION
    cube_realtime.notify_change('user_id');

CREATE TRIGGER wallet_links_proven BEFORE UPDATE ON public.wallet_links FOR EACH ROW EXECUTE FUNCTION public.wallet_links_proven();

ALTER TABLE public.admin_audit ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.admin_secrets ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.administrators ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.site_settings ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ai_provider_settings ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ai_text_quota ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ai_text_usage ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ai_text_usage_total ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.knowledge_base ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.account_clients ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.client_rate_limits ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.song_publications ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.songs ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.favourites ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.playlist_songs ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.playlists ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.comment_likes ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.comments ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.delegations ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.proposal_power ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.proposals ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.votes ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.ledger_reasons ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.token_ledger ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.user_tokens ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.listening_sessions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.user_listening_history ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.blockchain_configs ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.mint_requests ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.nfts ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.follow_notices ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.notifications ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.follows ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.profiles ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.user_settings ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.page_views ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.share_links ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.share_open_payers ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.shares ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.remixes ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.studio_projects ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.custodial_wallets ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.siwe_nonces ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.wallet_links ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.wallet_welcomes ENABLE ROW LEVEL SECURITY;

CREATE POLICY "admins read the audit" ON public.admin_audit FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS is_admin));

CREATE POLICY "administrators see their own row" ON public.administrators FOR SELECT TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));

CREATE POLICY "admins read site settings" ON public.site_settings FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS
    is_admin));

CREATE POLICY "admins read ai settings" ON public.ai_provider_settings FOR SELECT TO authenticated USING (( SELECT
    public.is_admin() AS is_admin));

CREATE POLICY "admins add knowledge" ON public.knowledge_base FOR INSERT TO authenticated WITH CHECK (( SELECT public.is_admin() AS
    is_admin));

CREATE POLICY "admins delete knowledge" ON public.knowledge_base FOR DELETE TO authenticated USING (( SELECT public.is_admin() AS
    is_admin));

CREATE POLICY "admins edit knowledge" ON public.knowledge_base FOR UPDATE TO authenticated USING (( SELECT public.is_admin() AS
    is_admin)) WITH CHECK (( SELECT public.is_admin() AS is_admin));

CREATE POLICY "admins read knowledge" ON public.knowledge_base FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS is_admin));

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

CREATE POLICY song_publications_read_own ON public.song_publications FOR SELECT TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));

CREATE POLICY "songs: visible unless the creator is private" ON public.songs FOR SELECT TO anon, authenticated USING
    (public.profile_visible(owner_id));

CREATE POLICY "owners manage their favourites" ON public.favourites TO authenticated USING ((user_id = ( SELECT auth.uid() AS
    uid))) WITH CHECK ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY "owners manage their playlist songs" ON public.playlist_songs TO authenticated USING ((EXISTS ( SELECT 1
   FROM public.playlists p
  WHERE ((p.id = playlist_songs.playlist_id) AND (p.user_id = ( SELECT auth.uid() AS uid)))))) WITH CHECK ((EXISTS ( SELECT 1
   FROM public.playlists p
  WHERE ((p.id = playlist_songs.playlist_id) AND (p.user_id = ( SELECT auth.uid() AS uid))))));

CREATE POLICY "owners manage their playlists" ON public.playlists TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)))
    WITH CHECK ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY comment_likes_read ON public.comment_likes FOR SELECT TO anon, authenticated USING ((public.profile_visible(user_id)
    AND (EXISTS ( SELECT 1
   FROM public.songs s
  WHERE (s.id = comment_likes.song_id)))));

-- A comment is visible where its song is (the songs policy above, applied to the caller).
CREATE POLICY comments_read ON public.comments FOR SELECT TO anon, authenticated USING ((EXISTS ( SELECT 1
   FROM public.songs s
  WHERE (s.id = comments.song_id))));

CREATE POLICY delegations_read_own ON public.delegations FOR SELECT TO authenticated USING (((delegator_id = ( SELECT auth.uid() AS
    uid)) OR (delegate_id = ( SELECT auth.uid() AS uid))));

-- An account reads its own power on each proposal; the public sees only the proposal's totals.
CREATE POLICY proposal_power_read_own ON public.proposal_power FOR SELECT TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)));

-- Proposals and their tallies are public; a vote is seen by its voter; a delegation by both ends.
CREATE POLICY proposals_read ON public.proposals FOR SELECT TO anon, authenticated USING (true);

CREATE POLICY votes_read_own ON public.votes FOR SELECT TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY ledger_reasons_read ON public.ledger_reasons FOR SELECT TO anon, authenticated USING (true);

CREATE POLICY "owners read their ledger" ON public.token_ledger FOR SELECT TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY "owners read their wallet" ON public.user_tokens FOR SELECT TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY listening_sessions_own ON public.listening_sessions FOR SELECT TO authenticated USING ((user_id = ( SELECT auth.uid()
    AS uid)));

CREATE POLICY "owners read their history" ON public.user_listening_history FOR SELECT TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));

CREATE POLICY "chains are public" ON public.blockchain_configs FOR SELECT TO anon, authenticated USING (true);

CREATE POLICY "owners read their mint requests" ON public.mint_requests FOR SELECT TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));

CREATE POLICY "nfts: visible unless the owner is private" ON public.nfts FOR SELECT TO anon, authenticated USING
    (public.profile_visible(owner_id));

CREATE POLICY "notifications: owner dismisses" ON public.notifications FOR DELETE TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));

CREATE POLICY "notifications: owner reads" ON public.notifications FOR SELECT TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));

CREATE POLICY follows_delete_own ON public.follows FOR DELETE TO authenticated USING ((follower_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY follows_insert_own ON public.follows FOR INSERT TO authenticated WITH CHECK ((follower_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY follows_read ON public.follows FOR SELECT TO anon, authenticated USING (((follower_id = ( SELECT auth.uid() AS uid))
    OR (following_id = ( SELECT auth.uid() AS uid)) OR (public.profile_visible(follower_id) AND public.profile_visible(following_id))));

CREATE POLICY "owners edit their profile" ON public.profiles FOR UPDATE TO authenticated USING ((user_id = ( SELECT auth.uid() AS
    uid))) WITH CHECK ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY "profiles: visible unless private" ON public.profiles FOR SELECT TO anon, authenticated USING
    (public.profile_visible(user_id));

CREATE POLICY "user settings: owner changes" ON public.user_settings FOR UPDATE TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid))) WITH CHECK ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY "user settings: owner creates" ON public.user_settings FOR INSERT TO authenticated WITH CHECK ((user_id = ( SELECT
    auth.uid() AS uid)));

CREATE POLICY "user settings: owner reads" ON public.user_settings FOR SELECT TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));

CREATE POLICY share_links_read_own ON public.share_links FOR SELECT TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY shares_read_own ON public.shares FOR SELECT TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY "avatars: owners delete" ON storage.objects FOR DELETE TO authenticated USING (((bucket_id = 'avatars'::text) AND
    ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

CREATE POLICY "avatars: owners overwrite" ON storage.objects FOR UPDATE TO authenticated USING (((bucket_id = 'avatars'::text) AND
    ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text))) WITH CHECK (((bucket_id = 'avatars'::text) AND
    ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

CREATE POLICY "avatars: owners upload" ON storage.objects FOR INSERT TO authenticated WITH CHECK (((bucket_id = 'avatars'::text)
    AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

CREATE POLICY "avatars: visible with the profile" ON storage.objects FOR SELECT TO anon, authenticated USING (((bucket_id =
    'avatars'::text) AND public.storage_object_visible(name)));

CREATE POLICY "profile banners: owners delete" ON storage.objects FOR DELETE TO authenticated USING (((bucket_id =
    'profile-banners'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

CREATE POLICY "profile banners: owners overwrite" ON storage.objects FOR UPDATE TO authenticated USING (((bucket_id =
    'profile-banners'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text))) WITH CHECK (((bucket_id =
    'profile-banners'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

-- Writes only by the owner, only inside their own folder (the first folder is their user id).
CREATE POLICY "profile banners: owners upload" ON storage.objects FOR INSERT TO authenticated WITH CHECK (((bucket_id =
    'profile-banners'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

CREATE POLICY "profile banners: visible with the profile" ON storage.objects FOR SELECT TO anon, authenticated USING (((bucket_id =
    'profile-banners'::text) AND public.storage_object_visible(name)));

CREATE POLICY "published: owners delete" ON storage.objects FOR DELETE TO authenticated USING (((bucket_id = ANY
    (ARRAY['published-audio'::text, 'published-covers'::text])) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

CREATE POLICY "published: owners upload" ON storage.objects FOR INSERT TO authenticated WITH CHECK (((bucket_id = ANY
    (ARRAY['published-audio'::text, 'published-covers'::text])) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

CREATE POLICY "published: visible with the profile" ON storage.objects FOR SELECT TO anon, authenticated USING (((bucket_id = ANY
    (ARRAY['published-audio'::text, 'published-covers'::text])) AND public.storage_object_visible(name)));

CREATE POLICY "studio audio: owners delete" ON storage.objects FOR DELETE TO authenticated USING (((bucket_id =
    'studio-audio'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

CREATE POLICY "studio audio: owners overwrite" ON storage.objects FOR UPDATE TO authenticated USING (((bucket_id =
    'studio-audio'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text))) WITH CHECK (((bucket_id =
    'studio-audio'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

-- Signed-in users read and write only their own folder (the first folder of the name is their
-- user id); visitors get nothing. (select auth.uid()) is evaluated once per statement.
CREATE POLICY "studio audio: owners read" ON storage.objects FOR SELECT TO authenticated USING (((bucket_id = 'studio-audio'::text)
    AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

CREATE POLICY "studio audio: owners upload" ON storage.objects FOR INSERT TO authenticated WITH CHECK (((bucket_id =
    'studio-audio'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

CREATE POLICY remixes_read_own ON public.remixes FOR SELECT TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)));

-- An upsert of another user's id fails the with-check (it cannot take over their row), and the
-- using clause hides other users' rows from select, update and delete.
CREATE POLICY "owners manage their studio projects" ON public.studio_projects TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid))) WITH CHECK ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY "owners read their wallet link" ON public.wallet_links FOR SELECT TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));

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

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.ai_provider_settings, public.ai_text_quota, public.ai_text_usage, public.ai_text_usage_total,
    public.knowledge_base FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON TABLE public.ai_provider_settings, public.ai_text_quota, public.ai_text_usage, public.ai_text_usage_total,
    public.knowledge_base TO service_role;

GRANT DELETE, INSERT, SELECT, UPDATE ON TABLE public.knowledge_base TO authenticated;

GRANT SELECT ON TABLE public.ai_provider_settings TO authenticated;

REVOKE ALL ON FUNCTION public.ai_provider_for_call(p_category text), public.ai_text_take(p_user uuid),
    public.search_knowledge(p_query text) FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.search_knowledge(p_query text) TO authenticated, service_role;

GRANT ALL ON FUNCTION public.ai_provider_for_call(p_category text), public.ai_text_take(p_user uuid) TO service_role;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.account_clients, public.client_rate_limits FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON TABLE public.account_clients, public.client_rate_limits TO service_role;

REVOKE ALL ON FUNCTION public.aal_satisfied(), public.add_mfa_policy(p_table text), public.check_request(),
    public.client_address(), public.client_rate_take(p_bucket text, p_client text, p_limit integer, p_window_seconds integer),
    public.note_account_client(p_user uuid) FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.aal_satisfied(), public.check_request() TO anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.add_mfa_policy(p_table text), public.client_address(), public.client_rate_take(p_bucket text, p_client
    text, p_limit integer, p_window_seconds integer), public.note_account_client(p_user uuid) TO service_role;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.song_publications, public.songs FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON TABLE public.song_publications, public.songs TO service_role;

GRANT SELECT ON TABLE public.songs TO anon, authenticated;

GRANT SELECT ON TABLE public.song_publications TO authenticated;

REVOKE ALL ON SEQUENCE public.song_publications_id_seq FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON SEQUENCE public.song_publications_id_seq TO anon, authenticated, service_role;

REVOKE ALL ON FUNCTION public.publish_song(p_title text, p_genre text, p_audio_path text, p_duration_seconds numeric, p_cover_path
    text, p_attempt_key text), public.publishing_rules(), public.recommend_songs(p_mode text, p_salt integer, p_limit integer),
    public.record_song_loudness(p_song_id text, p_loudness_lufs real, p_true_peak_dbtp real), public.slugify(p_text text),
    public.songs_default_slug(), public.songs_note_owner_client(), public.unpublish_song(p_song_id text) FROM PUBLIC, anon,
    authenticated, service_role;

GRANT ALL ON FUNCTION public.slugify(p_text text), public.songs_note_owner_client() TO anon, authenticated, public, service_role;

GRANT ALL ON FUNCTION public.publishing_rules(), public.recommend_songs(p_mode text, p_salt integer, p_limit integer) TO anon,
    authenticated, service_role;

GRANT ALL ON FUNCTION public.publish_song(p_title text, p_genre text, p_audio_path text, p_duration_seconds numeric, p_cover_path
    text, p_attempt_key text), public.record_song_loudness(p_song_id text, p_loudness_lufs real, p_true_peak_dbtp real),
    public.unpublish_song(p_song_id text) TO authenticated, service_role;

GRANT ALL ON FUNCTION public.songs_default_slug() TO service_role;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.favourites, public.playlist_songs, public.playlists FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON TABLE public.favourites, public.playlist_songs, public.playlists TO service_role;

GRANT DELETE, INSERT, SELECT, UPDATE ON TABLE public.favourites, public.playlist_songs, public.playlists TO authenticated;

REVOKE ALL ON FUNCTION public.public_playlists(p_user_id uuid) FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.public_playlists(p_user_id uuid) TO anon, authenticated, service_role;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.comment_likes, public.comments FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON TABLE public.comment_likes, public.comments TO service_role;

GRANT SELECT ON TABLE public.comment_likes, public.comments TO anon, authenticated;

REVOKE ALL ON FUNCTION public.comment_credit(p_user uuid, p_amount integer, p_reason text, p_ref text, p_key text, p_key_prefix
    text, p_cap integer), public.comment_json(p_id uuid), public.comment_lock_wallets(p_users uuid[]), public.comment_rules(),
    public.delete_comment(p_comment_id uuid), public.edit_comment(p_comment_id uuid, p_body text), public.my_comment_stats(),
    public.post_comment(p_song_id text, p_body text, p_parent_id uuid, p_at_seconds numeric), public.set_comment_like(p_comment_id
    uuid, p_liked boolean) FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.comment_rules() TO anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.delete_comment(p_comment_id uuid), public.edit_comment(p_comment_id uuid, p_body text),
    public.my_comment_stats(), public.post_comment(p_song_id text, p_body text, p_parent_id uuid, p_at_seconds numeric),
    public.set_comment_like(p_comment_id uuid, p_liked boolean) TO authenticated, service_role;

GRANT ALL ON FUNCTION public.comment_credit(p_user uuid, p_amount integer, p_reason text, p_ref text, p_key text, p_key_prefix
    text, p_cap integer), public.comment_json(p_id uuid), public.comment_lock_wallets(p_users uuid[]) TO service_role;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.delegations, public.proposal_power, public.proposals, public.votes FROM PUBLIC, anon, authenticated,
    service_role;

GRANT ALL ON TABLE public.delegations, public.proposal_power, public.proposals, public.votes TO service_role;

GRANT SELECT ON TABLE public.proposals TO anon, authenticated;

GRANT SELECT ON TABLE public.delegations, public.proposal_power, public.votes TO authenticated;

REVOKE ALL ON FUNCTION public.cast_vote(p_proposal_id uuid, p_choice text), public.close_due_proposals(),
    public.create_proposal(p_title text, p_description text, p_category text, p_ends_at timestamp with time zone, p_attempt_key
    text), public.delegate_voting_power(p_username text), public.governance_overview(), public.governance_own_power(p_user uuid),
    public.governance_power_used(p_proposal_id uuid, p_user uuid), public.governance_proposals(), public.governance_rules(),
    public.my_votes(), public.proposals_anonymise_author(), public.proposals_snapshot(),
    public.snapshot_proposal_power(p_proposal_id uuid), public.undelegate_voting_power() FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.governance_proposals(), public.governance_rules() TO anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.cast_vote(p_proposal_id uuid, p_choice text), public.create_proposal(p_title text, p_description text,
    p_category text, p_ends_at timestamp with time zone, p_attempt_key text), public.delegate_voting_power(p_username text),
    public.governance_overview(), public.my_votes(), public.undelegate_voting_power() TO authenticated, service_role;

GRANT ALL ON FUNCTION public.close_due_proposals(), public.governance_own_power(p_user uuid),
    public.governance_power_used(p_proposal_id uuid, p_user uuid), public.proposals_anonymise_author() TO service_role;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.ledger_reasons, public.token_ledger, public.user_tokens FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON TABLE public.ledger_reasons, public.token_ledger, public.user_tokens TO service_role;

GRANT SELECT ON TABLE public.ledger_reasons TO anon, authenticated;

GRANT SELECT ON TABLE public.token_ledger, public.user_tokens TO authenticated;

REVOKE ALL ON SEQUENCE public.token_ledger_id_seq FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON SEQUENCE public.token_ledger_id_seq TO service_role;

REVOKE ALL ON FUNCTION public.init_user_tokens(), public.my_creator_earnings(), public.post_ledger(p_user uuid, p_amount integer,
    p_reason text, p_reference text, p_key text), public.reward_rules(), public.spend_tokens(p_amount integer, p_reason text, p_ref
    text), public.token_ledger_append_only() FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.reward_rules() TO anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.init_user_tokens(), public.my_creator_earnings(), public.spend_tokens(p_amount integer, p_reason text,
    p_ref text) TO authenticated, service_role;

GRANT ALL ON FUNCTION public.token_ledger_append_only() TO service_role;

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

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.blockchain_configs, public.mint_requests, public.nfts FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON TABLE public.blockchain_configs, public.mint_requests, public.nfts TO service_role;

GRANT SELECT ON TABLE public.blockchain_configs, public.nfts TO anon, authenticated;

GRANT SELECT ON TABLE public.mint_requests TO authenticated;

REVOKE ALL ON FUNCTION public.enabled_blockchains(), public.mint_begin(p_user uuid, p_client_key text, p_blockchain text,
    p_metadata jsonb, p_recipient text, p_royalties numeric, p_collection text), public.mint_complete(p_request uuid, p_tx_hash
    text, p_token_id text, p_contract text), public.mint_context(p_user uuid, p_blockchain text), public.mint_fail(p_request uuid,
    p_error text), public.mint_metadata(p_request uuid) FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.enabled_blockchains(), public.mint_begin(p_user uuid, p_client_key text, p_blockchain text, p_metadata
    jsonb, p_recipient text, p_royalties numeric, p_collection text), public.mint_complete(p_request uuid, p_tx_hash text,
    p_token_id text, p_contract text), public.mint_context(p_user uuid, p_blockchain text), public.mint_fail(p_request uuid,
    p_error text), public.mint_metadata(p_request uuid) TO service_role;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.follow_notices, public.notifications FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON TABLE public.follow_notices, public.notifications TO service_role;

GRANT DELETE, SELECT ON TABLE public.notifications TO authenticated;

REVOKE ALL ON FUNCTION public.add_notice(p_user uuid, p_kind text, p_title text, p_body text, p_link text),
    public.notice_on_follow(), public.notice_on_mint(), public.notice_on_proposal_close(), public.notice_on_reply(),
    public.wants_notice(p_user uuid, p_kind text) FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.add_notice(p_user uuid, p_kind text, p_title text, p_body text, p_link text),
    public.notice_on_follow(), public.notice_on_mint(), public.notice_on_proposal_close(), public.notice_on_reply(),
    public.wants_notice(p_user uuid, p_kind text) TO service_role;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON FUNCTION public.delete_my_account(p_confirm_username text) FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.delete_my_account(p_confirm_username text) TO authenticated, service_role;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.follows, public.profiles, public.user_settings FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON TABLE public.follows, public.profiles, public.user_settings TO service_role;

GRANT DELETE, SELECT ON TABLE public.follows TO authenticated;

GRANT INSERT, SELECT, UPDATE ON TABLE public.user_settings TO authenticated;

GRANT SELECT ON TABLE public.profiles TO anon, authenticated;

GRANT SELECT ON TABLE public.follows TO anon;

GRANT INSERT (follower_id, following_id) ON TABLE public.follows TO authenticated;

GRANT UPDATE (avatar_url, bio, username) ON TABLE public.profiles TO authenticated;

REVOKE ALL ON FUNCTION public.check_profile_change(), public.handle_new_user(), public.profile_is_public(p_user uuid),
    public.profile_rename_follows(), public.profile_rules(), public.profile_visible(p_owner uuid),
    public.public_profile_name(p_username text), public.username_problem(p_name text), public.username_rule_problem(p_name text)
    FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.check_profile_change(), public.profile_rules(), public.username_rule_problem(p_name text) TO anon,
    authenticated, public, service_role;

GRANT ALL ON FUNCTION public.profile_is_public(p_user uuid), public.profile_visible(p_owner uuid),
    public.public_profile_name(p_username text), public.username_problem(p_name text) TO anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.handle_new_user(), public.profile_rename_follows() TO service_role;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON FUNCTION cube_realtime.notify_change() FROM PUBLIC, anon, authenticated, service_role;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.page_views, public.share_links, public.share_open_payers, public.shares FROM PUBLIC, anon,
    authenticated, service_role;

GRANT ALL ON TABLE public.page_views, public.share_links, public.share_open_payers, public.shares TO service_role;

GRANT SELECT ON TABLE public.share_links, public.shares TO authenticated;

REVOKE ALL ON FUNCTION public.open_share(p_token text), public.record_view(p_kind text, p_item_id text, p_visitor text),
    public.share_analytics(), public.share_create(p_item_type text, p_item_id text, p_platform text), public.share_rules() FROM
    PUBLIC, anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.open_share(p_token text), public.record_view(p_kind text, p_item_id text, p_visitor text),
    public.share_rules() TO anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.share_analytics(), public.share_create(p_item_type text, p_item_id text, p_platform text) TO
    authenticated, service_role;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON FUNCTION public.storage_object_visible(p_name text) FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.storage_object_visible(p_name text) TO anon, authenticated, service_role;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.remixes, public.studio_projects FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON TABLE public.remixes, public.studio_projects TO service_role;

GRANT DELETE, INSERT, SELECT, UPDATE ON TABLE public.studio_projects TO authenticated;

GRANT SELECT ON TABLE public.remixes TO authenticated;

REVOKE ALL ON FUNCTION public.record_remix_source(p_song_id text, p_remix_id uuid), public.remix_burn(p_source text, p_attempt_key
    text), public.remix_complete(p_remix_id uuid), public.remix_refund(p_remix_id uuid), public.remix_rules() FROM PUBLIC, anon,
    authenticated, service_role;

GRANT ALL ON FUNCTION public.remix_rules() TO anon, authenticated, public, service_role;

GRANT ALL ON FUNCTION public.record_remix_source(p_song_id text, p_remix_id uuid), public.remix_burn(p_source text, p_attempt_key
    text), public.remix_complete(p_remix_id uuid), public.remix_refund(p_remix_id uuid) TO authenticated, service_role;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON FUNCTION public.account_trust(p_user uuid), public.my_trust_status(), public.trust_rules(),
    public.trust_status(p_user uuid) FROM PUBLIC, anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.trust_rules() TO anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.my_trust_status() TO authenticated, service_role;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.custodial_wallets, public.siwe_nonces, public.wallet_links, public.wallet_welcomes FROM PUBLIC, anon,
    authenticated, service_role;

GRANT ALL ON TABLE public.custodial_wallets, public.siwe_nonces, public.wallet_links, public.wallet_welcomes TO service_role;

GRANT SELECT ON TABLE public.wallet_links TO authenticated;

REVOKE ALL ON FUNCTION public.wallet_claim_status(), public.wallet_claim(), public.wallet_issue_nonce(),
    public.wallet_link_custodial(p_user uuid, p_address text, p_private_key text), public.wallet_link(p_user uuid, p_address text,
    p_nonce text, p_chain_id integer), public.wallet_links_proven(), public.wallet_rules(), public.wallet_unlink() FROM PUBLIC,
    anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.wallet_links_proven() TO anon, authenticated, public, service_role;

GRANT ALL ON FUNCTION public.wallet_rules() TO anon, authenticated, service_role;

GRANT ALL ON FUNCTION public.wallet_claim_status(), public.wallet_claim(), public.wallet_issue_nonce(), public.wallet_unlink() TO
    authenticated, service_role;

GRANT ALL ON FUNCTION public.wallet_link_custodial(p_user uuid, p_address text, p_private_key text), public.wallet_link(p_user
    uuid, p_address text, p_nonce text, p_chain_id integer) TO service_role;

COMMENT ON COLUMN public.songs.loudness_lufs IS 'Integrated loudness, LUFS (BS.1770-4, gated); null = not measured.';

COMMENT ON COLUMN public.songs.true_peak_dbtp IS 'True peak, dBTP (BS.1770-4 Annex 2, 4x oversampled); null = not measured.';

COMMENT ON COLUMN public.songs.remix_id IS 'The remix (public.remixes) this published song was rendered from; null for any other song.';

COMMENT ON COLUMN public.songs.remix_of IS
    'The song the remix was made from (remixes.source_ref, when that is a song here); null when unknown or not a remix.';

COMMENT ON COLUMN public.blockchain_configs.name IS
    'The chain''s key (ethereum, polygon, …): mint_requests.blockchain and nfts.blockchain name it.';

COMMENT ON COLUMN public.blockchain_configs.chain_id IS
    'EIP-155 chain id of the network in use (testnet or mainnet); null for non-EVM chains.';

COMMENT ON COLUMN public.blockchain_configs.testnet_rpc_url IS
    'JSON-RPC URL of the test network: an https URL on a hosted project; for an embedded row, the local server''s '
    '<origin>/chain/rpc; null when the server has no provider for it.';

COMMENT ON COLUMN public.blockchain_configs.contract_address IS 'The CubeMusicNFT deployment on the network in use.';

COMMENT ON COLUMN public.blockchain_configs.testnet IS
    'Mint on the test network (testnet_rpc_url) rather than the main one (mainnet_rpc_url).';

COMMENT ON COLUMN public.blockchain_configs.mainnet_rpc_url IS 'JSON-RPC URL of the main network (https), used when testnet is false.';

COMMENT ON COLUMN public.blockchain_configs.embedded IS
    'Backed by the local backend''s in-process chain: its RPC URL is the local server''s /chain/rpc, written when the server starts '
    'the chain (''embedded'' until then). Always false on a hosted project.';

COMMENT ON COLUMN public.mint_requests.royalties IS
    'Royalty share in percent, 0 to 50 (the token''s ERC-2981 royalty is round(royalties * 100) basis points).';

COMMENT ON COLUMN public.mint_requests.transaction_id IS 'The mint transaction''s hash (0x and 64 hex digits) once completed.';

COMMENT ON COLUMN public.nfts.royalties IS 'Royalty share in percent, 0 to 50, as minted (ERC-2981: round(royalties * 100) basis points).';

insert into public.site_settings (id, site_title, max_free_songs, api_timeout_ms, max_retries) values
  ('true', 'CUBE Music', '1', '5000', '3');

insert into public.ai_provider_settings (category, provider, model) values
  ('image', 'Stable Diffusion XL', 'Stable Diffusion XL'),
  ('inference', 'OpenAI API', 'OpenAI API'),
  ('music', 'On-device (built in)', 'On-device (built in)'),
  ('text', 'On-device (built in)', 'On-device (built in)');

insert into public.ai_text_quota (id, per_user_daily, global_daily) values
  ('true', '30', '1000');

insert into public.ledger_reasons (reason, kind, description) values
  ('claim', 'earn', 'Claimed listening rewards'),
  ('comment', 'earn', 'A comment'),
  ('comment_goal', 'earn', 'Daily comment goal bonus'),
  ('creator', 'earn', 'A listen of a song you published'),
  ('like', 'earn', 'A like given'),
  ('listen', 'earn', 'A qualifying listen'),
  ('mint', 'spend', 'An NFT mint'),
  ('mint_refund', 'refund', 'An NFT mint that failed on chain, given back'),
  ('proposal', 'spend', 'A governance proposal'),
  ('remix', 'spend', 'A remix'),
  ('remix_refund', 'refund', 'A remix that could not be produced, given back'),
  ('reply', 'earn', 'A reply'),
  ('share', 'earn', 'A share'),
  ('wallet_welcome', 'earn', 'Welcome tokens for the first verified wallet'),
  ('welcome', 'earn', 'Welcome tokens of a new account');

insert into public.blockchain_configs (name, display_name, native_token, chain_id, testnet_rpc_url, testnet, enabled, sort, icon,
    embedded) values
  ('avalanche', 'Avalanche', 'AVAX', NULL, NULL, 'true', 'true', '6', '▲', 'false'),
  ('binance', 'BNB Chain', 'BNB', NULL, NULL, 'true', 'true', '5', '◆', 'false'),
  ('bitcoin', 'Bitcoin', 'BTC', NULL, NULL, 'true', 'true', '3', '₿', 'false'),
  ('ethereum', 'Ethereum', 'ETH', '31337', 'embedded', 'true', 'true', '1', 'Ξ', 'true'),
  ('polygon', 'Polygon', 'MATIC', '31337', 'embedded', 'true', 'true', '4', '⬡', 'true'),
  ('solana', 'Solana', 'SOL', NULL, NULL, 'true', 'true', '2', '◎', 'false');

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
  ('avatars', 'avatars', 'false', '2097152', '{image/png,image/jpeg,image/webp}'),
  ('profile-banners', 'profile-banners', 'false', '2097152', '{image/png,image/jpeg,image/webp}'),
  ('published-audio', 'published-audio', 'true', '10485760', '{audio/webm,audio/ogg,audio/mpeg}'),
  ('published-covers', 'published-covers', 'true', '2097152', '{image/png,image/jpeg,image/webp}'),
  ('studio-audio', 'studio-audio', 'false', '268435456', '{audio/wav,application/json}')
on conflict (id) do nothing;

-- The tables whose changes a hosted project streams to subscribed clients (the local backend
-- streams them with cube_realtime.notify_change triggers instead; it has no publication).
do $$
begin
  if exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    alter publication supabase_realtime add table public.comment_likes, public.comments, public.notifications, public.proposals,
        public.share_links, public.votes;
  end if;
end
$$;

reset check_function_bodies;

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
notify pgrst, 'reload config';
