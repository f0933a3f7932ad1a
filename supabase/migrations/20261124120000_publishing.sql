-- Publishing: a creator's track becomes a public song.
--
-- The client encodes the audio (Opus in WebM, publishing_rules() -> 'bitrate_kbps', in a worker),
-- uploads it to the public bucket `published-audio` under `<user id>/…` (and a cover image to
-- `published-covers`), then calls publish_song(), which checks every limit against the stored
-- object (not against what the client says about it) and inserts the `songs` row owned by the
-- caller. unpublish_song() removes the row (only its owner's) and answers the object paths, which
-- the owner's client removes through the Storage API (the delete policies below). Listening
-- history, favourites and comments keep the song id (no foreign keys): they stay as history.
--
-- publishing_rules() is the one place the limits are written; the client reads it through rpc.

create function public.publishing_rules() returns json
language sql immutable
set search_path = ''
as $$
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
revoke execute on function public.publishing_rules() from public;
grant execute on function public.publishing_rules() to anon, authenticated, service_role;

-- The buckets: public (anyone reads /storage/v1/object/public/…), size and type limits enforced
-- by Storage itself before publish_song() looks again.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('published-audio', 'published-audio', true, 10485760, array['audio/webm', 'audio/ogg', 'audio/mpeg']),
  ('published-covers', 'published-covers', true, 2097152, array['image/png', 'image/jpeg', 'image/webp'])
on conflict (id) do update
  set name = excluded.name,
      public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- Signed-in users upload into and delete from their own folder only; reading is public.
drop policy if exists "published: anyone reads" on storage.objects;
create policy "published: anyone reads" on storage.objects
  for select to anon, authenticated
  using (bucket_id in ('published-audio', 'published-covers'));

drop policy if exists "published: owners upload" on storage.objects;
create policy "published: owners upload" on storage.objects
  for insert to authenticated
  with check (bucket_id in ('published-audio', 'published-covers') and (storage.foldername(name))[1] = (select auth.uid())::text);

drop policy if exists "published: owners delete" on storage.objects;
create policy "published: owners delete" on storage.objects
  for delete to authenticated
  using (bucket_id in ('published-audio', 'published-covers') and (storage.foldername(name))[1] = (select auth.uid())::text);

-- Every publication, kept when the song is unpublished: the per-day limit counts these, so
-- publishing and unpublishing in a loop does not reset it. Written only by publish_song().
create table public.song_publications (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  song_id text not null,
  published_at timestamptz not null default now()
);
create index song_publications_user_idx on public.song_publications (user_id, published_at desc);
alter table public.song_publications enable row level security;
create policy song_publications_read_own on public.song_publications for select to authenticated
  using (user_id = (select auth.uid()));
revoke all on table public.song_publications from anon, authenticated;
grant select on public.song_publications to authenticated;
grant all on table public.song_publications to service_role;

create unique index songs_audio_url_key on public.songs (audio_url) where owner_id is not null;

-- 'My Track!' -> 'my-track'; never empty, at most 60 characters.
create function public.slugify(p_text text) returns text
language sql immutable
set search_path = ''
as $$
  select coalesce(nullif(left(trim(both '-' from regexp_replace(lower(coalesce(p_text, '')), '[^a-z0-9]+', '-', 'g')), 60), ''), 'song')
$$;
grant execute on function public.slugify(text) to anon, authenticated, service_role;

create function public.publish_song(
  p_title text,
  p_genre text,
  p_audio_path text,
  p_duration_seconds numeric,
  p_cover_path text default null
) returns json
language plpgsql
security definer
set search_path = ''
as $$
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
begin
  if v_uid is null then
    raise exception 'Sign in to publish a track.' using errcode = '42501';
  end if;
  -- One publication at a time per user: the per-day count below cannot be raced.
  select username into v_username from public.profiles where user_id = v_uid for update;
  if v_username is null then
    raise exception 'Your profile is missing; sign in again.' using errcode = '42501';
  end if;

  if char_length(v_title) = 0 or char_length(v_title) > (c_rules ->> 'title_max')::int then
    raise exception 'The title must be 1 to % characters.', c_rules ->> 'title_max' using errcode = '22023';
  end if;
  if p_genre is null or not exists (select 1 from json_array_elements_text(c_rules -> 'genres') g where g = p_genre) then
    raise exception 'Unknown genre "%".', coalesce(p_genre, '') using errcode = '22023';
  end if;
  if p_duration_seconds is null or p_duration_seconds < (c_rules ->> 'min_seconds')::numeric or p_duration_seconds > (c_rules ->> 'max_seconds')::numeric then
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
  if not exists (select 1 from json_array_elements_text(c_rules -> 'audio_types') t where t = split_part(v_audio.metadata ->> 'mimetype', ';', 1)) then
    raise exception 'The audio must be Opus/WebM, Ogg or MP3, not %.', coalesce(v_audio.metadata ->> 'mimetype', 'unknown') using errcode = '22023';
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

  if exists (select 1 from public.songs where audio_url = '/storage/v1/object/public/' || (c_rules ->> 'audio_bucket') || '/' || p_audio_path) then
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
  values (v_id, v_title, v_username, greatest(1, round(p_duration_seconds)::int), v_slug, p_genre, v_uid,
          v_cover_url, '/storage/v1/object/public/' || (c_rules ->> 'audio_bucket') || '/' || p_audio_path);
  insert into public.song_publications (user_id, song_id) values (v_uid, v_id);
  return json_build_object('id', v_id, 'slug', v_slug);
end
$$;
revoke execute on function public.publish_song(text, text, text, numeric, text) from public, anon;
grant execute on function public.publish_song(text, text, text, numeric, text) to authenticated, service_role;

-- Removes the caller's own song; answers the Storage paths its client then removes.
create function public.unpublish_song(p_song_id text) returns json
language plpgsql
security definer
set search_path = ''
as $$
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
revoke execute on function public.unpublish_song(text) from public, anon;
grant execute on function public.unpublish_song(text) to authenticated, service_role;
