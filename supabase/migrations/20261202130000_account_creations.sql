-- account creations: written by `npm run db:diff` (then the trigger moved after its function, and the
-- bucket row and its storage policies added by hand, which the tool does not write) from the difference between the migrations and
-- supabase/schemas/ (where each object's comment says why it is so).

set check_function_bodies = off;

CREATE TABLE public.creations (
    user_id uuid DEFAULT auth.uid() NOT NULL,
    id text NOT NULL,
    kind text NOT NULL,
    title text NOT NULL,
    artist text NOT NULL,
    image text NOT NULL,
    seconds numeric DEFAULT 0 NOT NULL,
    genre text,
    mood text,
    remix_id text,
    content_type text NOT NULL,
    byte_size bigint NOT NULL,
    part_count integer NOT NULL,
    uploaded_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT creations_artist_check CHECK (((char_length(artist) >= 1) AND (char_length(artist) <= 200))),
    CONSTRAINT creations_byte_size_check CHECK ((byte_size > 0)),
    CONSTRAINT creations_content_type_check CHECK ((content_type ~ '^audio/[A-Za-z0-9.+-]{1,60}(;[ A-Za-z0-9=.+-]{0,60})?$'::text)),
    CONSTRAINT creations_genre_check CHECK ((char_length(genre) <= 60)),
    CONSTRAINT creations_id_check CHECK ((id ~ '^[A-Za-z0-9._-]{1,128}$'::text)),
    CONSTRAINT creations_image_check CHECK (((image ~ '^/[A-Za-z0-9._/-]+$'::text) AND (char_length(image) <= 300))),
    CONSTRAINT creations_kind_check CHECK ((kind = ANY (ARRAY['generated'::text, 'recording'::text, 'upload'::text,
        'export'::text, 'remix'::text]))),
    CONSTRAINT creations_mood_check CHECK ((char_length(mood) <= 60)),
    CONSTRAINT creations_part_count_check CHECK (((part_count >= 1) AND (part_count <= 1000))),
    CONSTRAINT creations_remix_id_check CHECK ((char_length(remix_id) <= 100)),
    CONSTRAINT creations_seconds_check CHECK (((seconds >= (0)::numeric) AND (seconds <= (86400)::numeric))),
    CONSTRAINT creations_title_check CHECK (((char_length(btrim(title)) >= 1) AND (char_length(title) <= 200))),
    CONSTRAINT creations_pkey PRIMARY KEY (user_id, id),
    CONSTRAINT creations_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

ALTER TABLE public.creations ENABLE ROW LEVEL SECURITY;

CREATE POLICY "owners manage their creations" ON public.creations TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)))
    WITH CHECK ((user_id = ( SELECT auth.uid() AS uid)));


revoke all on table public.creations from public, anon, authenticated, service_role;

grant INSERT, SELECT, UPDATE, DELETE on table public.creations to authenticated;

grant INSERT, SELECT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER on table public.creations to service_role;

CREATE TABLE public.storage_quotas (
    user_id uuid NOT NULL,
    limit_bytes bigint NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT storage_quotas_limit_bytes_check CHECK ((limit_bytes >= 0)),
    CONSTRAINT storage_quotas_pkey PRIMARY KEY (user_id),
    CONSTRAINT storage_quotas_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

ALTER TABLE public.storage_quotas ENABLE ROW LEVEL SECURITY;

CREATE POLICY "owners read their storage quota" ON public.storage_quotas FOR SELECT TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));

revoke all on table public.storage_quotas from public, anon, authenticated, service_role;

grant SELECT on table public.storage_quotas to authenticated;

grant INSERT, SELECT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER on table public.storage_quotas to service_role;

create or replace function public.account_storage() returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
begin
  if v_uid is null then
    raise exception 'Sign in to see your account storage.' using errcode = '42501';
  end if;
  return json_build_object(
    'used_bytes', public.storage_used_bytes(v_uid),
    'limit_bytes', public.storage_quota_limit(v_uid),
    'items', (select count(*) from public.creations c where c.user_id = v_uid and c.uploaded_at is not null)
  );
end
$$;

revoke all on function public.account_storage() from public, anon, authenticated, service_role;

grant EXECUTE on function public.account_storage() to authenticated;

grant EXECUTE on function public.account_storage() to service_role;

create or replace function public.storage_quota_allows(p_bucket text, p_name text, p_metadata jsonb) returns boolean
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_size bigint := coalesce((p_metadata ->> 'size')::bigint, 0);
begin
  if not (p_bucket = any (public.storage_quota_buckets())) then
    return true;
  end if;
  if v_uid is null then
    return false;
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('storage_quota:' || v_uid::text, 0));
  perform public.storage_quota_check(v_uid, public.storage_used_bytes(v_uid, p_bucket, p_name), v_size);
  return true;
end
$$;

revoke all on function public.storage_quota_allows(text,text,jsonb) from public, anon, authenticated, service_role;

grant EXECUTE on function public.storage_quota_allows(text,text,jsonb) to anon;

grant EXECUTE on function public.storage_quota_allows(text,text,jsonb) to authenticated;

grant EXECUTE on function public.storage_quota_allows(text,text,jsonb) to service_role;

create or replace function public.storage_quota_buckets() returns text[]
language sql immutable set search_path = '' as $$
  select array['creations', 'studio-audio']
$$;

revoke all on function public.storage_quota_buckets() from public, anon, authenticated, service_role;

grant EXECUTE on function public.storage_quota_buckets() to anon;

grant EXECUTE on function public.storage_quota_buckets() to authenticated;

grant EXECUTE on function public.storage_quota_buckets() to service_role;

create or replace function public.storage_quota_check(p_user_id uuid, p_used bigint, p_adding bigint) returns void
language plpgsql stable security definer set search_path = '' as $$
declare
  v_limit bigint := public.storage_quota_limit(p_user_id);
begin
  if p_used + p_adding > v_limit then
    raise exception 'Your account storage is full: % of % used, and this needs % more. Delete something you made to make room.',
      pg_catalog.pg_size_pretty(p_used), pg_catalog.pg_size_pretty(v_limit), pg_catalog.pg_size_pretty(p_adding)
      using errcode = 'PT413';
  end if;
end
$$;

revoke all on function public.storage_quota_check(uuid,bigint,bigint) from public, anon, authenticated, service_role;

grant EXECUTE on function public.storage_quota_check(uuid,bigint,bigint) to service_role;

create or replace function public.storage_quota_limit(p_user_id uuid) returns bigint
language sql stable security definer set search_path = '' as $$
  select coalesce((select q.limit_bytes from public.storage_quotas q where q.user_id = p_user_id), 524288000::bigint)
$$;

revoke all on function public.storage_quota_limit(uuid) from public, anon, authenticated, service_role;

grant EXECUTE on function public.storage_quota_limit(uuid) to service_role;

create or replace function public.storage_quota_on_creation() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform public.storage_quota_check(new.user_id, public.storage_used_bytes(new.user_id), new.byte_size);
  return new;
end
$$;

revoke all on function public.storage_quota_on_creation() from public, anon, authenticated, service_role;

grant EXECUTE on function public.storage_quota_on_creation() to service_role;

create or replace function public.storage_used_bytes(p_user_id uuid, p_except_bucket text default null, p_except_name text default null)
returns bigint
language sql stable security definer set search_path = '' as $$
  select coalesce(sum(coalesce((o.metadata ->> 'size')::bigint, 0)), 0)::bigint
    from storage.objects o
   where o.bucket_id = any (public.storage_quota_buckets())
     and (storage.foldername(o.name))[1] = p_user_id::text
     and not (o.bucket_id is not distinct from p_except_bucket and o.name is not distinct from p_except_name)
$$;

revoke all on function public.storage_used_bytes(uuid,text,text) from public, anon, authenticated, service_role;

grant EXECUTE on function public.storage_used_bytes(uuid,text,text) to service_role;

drop policy if exists "quota: overwrites fit the account" on storage.objects;

CREATE POLICY "quota: overwrites fit the account" ON storage.objects AS RESTRICTIVE FOR UPDATE TO authenticated USING (true) WITH
    CHECK (public.storage_quota_allows(bucket_id, name, metadata));

drop policy if exists "quota: uploads fit the account" on storage.objects;

CREATE POLICY "quota: uploads fit the account" ON storage.objects AS RESTRICTIVE FOR INSERT TO authenticated WITH CHECK
    (public.storage_quota_allows(bucket_id, name, metadata));

CREATE TRIGGER creations_fit_quota BEFORE INSERT ON public.creations FOR EACH ROW EXECUTE FUNCTION public.storage_quota_on_creation();

CREATE POLICY "creations: owners delete" ON storage.objects FOR DELETE TO authenticated USING (((bucket_id = 'creations'::text) AND
    ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

CREATE POLICY "creations: owners overwrite" ON storage.objects FOR UPDATE TO authenticated USING (((bucket_id = 'creations'::text)
    AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text))) WITH CHECK (((bucket_id = 'creations'::text) AND
    ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

CREATE POLICY "creations: owners read" ON storage.objects FOR SELECT TO authenticated USING (((bucket_id = 'creations'::text) AND
    ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

CREATE POLICY "creations: owners upload" ON storage.objects FOR INSERT TO authenticated WITH CHECK (((bucket_id =
    'creations'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
  ('creations', 'creations', 'false', '4194304', '{application/octet-stream}')
on conflict (id) do nothing;

reset check_function_bodies;
