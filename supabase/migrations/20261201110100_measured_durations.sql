-- A published track's length is the server's reading of the stored file, never the publisher's.
--
-- publish_song() stored the length the publisher's browser declared, and listening credits count a
-- share of that length: a 60 s track declared 5 s long credited two sybils after 2.8 s. Now the
-- edge function measure-audio reads the uploaded file with the service role, parses it (WebM,
-- Ogg, MP3 or WAV, music-metadata) and records its length here through record_audio_duration(),
-- which only the service role may call. The row names the storage object by id, version and
-- update time, so a file replaced after it was measured is not the one that was measured.
-- publish_song() no longer takes a length: it reads this row for the very object it publishes and
-- refuses, in words, a file the server has not measured.

create table public.audio_durations (
  object_id uuid primary key,
  owner_id uuid not null references auth.users (id) on delete cascade,
  bucket_id text not null,
  name text not null,
  object_version text,
  object_updated_at timestamptz not null,
  duration_seconds numeric(8, 3) not null check (duration_seconds > 0),
  measured_at timestamptz not null default now()
);
create index audio_durations_owner_idx on public.audio_durations (owner_id);
alter table public.audio_durations enable row level security;
revoke all on table public.audio_durations from anon, authenticated;
grant all on table public.audio_durations to service_role;

-- Called by measure-audio only (service role): the length of the caller's uploaded file as the
-- server parsed it. p_size is the number of bytes the function read: a file that changed while it
-- was being read is refused.
create function public.record_audio_duration(p_path text, p_size bigint, p_seconds numeric) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_rules constant json := public.publishing_rules();
  v_object record;
  v_owner uuid;
begin
  select o.id, o.name, o.metadata, o.version, o.updated_at into v_object from storage.objects o
   where o.bucket_id = c_rules ->> 'audio_bucket' and o.name = p_path;
  if not found then
    raise exception 'Upload the audio to your own folder of % first.', c_rules ->> 'audio_bucket' using errcode = '22023';
  end if;
  begin
    v_owner := ((storage.foldername(v_object.name))[1])::uuid;
  exception when invalid_text_representation then
    v_owner := null;
  end;
  if v_owner is null or not exists (select 1 from auth.users where id = v_owner) then
    raise exception 'The audio is not in a user''s folder.' using errcode = '22023';
  end if;
  if coalesce((v_object.metadata ->> 'size')::bigint, -1) <> p_size then
    raise exception 'The audio file changed while the server read it; publish again.' using errcode = '22023';
  end if;
  if p_seconds is null or p_seconds <= 0 or p_seconds > 99999 then
    raise exception 'The audio file''s length could not be read.' using errcode = '22023';
  end if;
  insert into public.audio_durations (object_id, owner_id, bucket_id, name, object_version, object_updated_at, duration_seconds)
  values (v_object.id, v_owner, c_rules ->> 'audio_bucket', v_object.name, v_object.version, v_object.updated_at, round(p_seconds, 3))
  on conflict (object_id) do update
    set object_version = excluded.object_version, object_updated_at = excluded.object_updated_at,
        duration_seconds = excluded.duration_seconds, measured_at = now();
  return json_build_object('duration_seconds', round(p_seconds, 3));
end
$$;
revoke execute on function public.record_audio_duration(text, bigint, numeric) from public, anon, authenticated;
grant execute on function public.record_audio_duration(text, bigint, numeric) to service_role;

-- publish_song as in 20261126140000_song_durations_exact.sql, with the length the server measured.
drop function public.publish_song(text, text, text, numeric, text, text);

create function public.publish_song(
  p_title text,
  p_genre text,
  p_audio_path text,
  p_cover_path text default null,
  p_attempt_key text default null
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
  v_first public.song_publications;
  v_first_slug text;
  v_seconds numeric;
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
  select o.id, o.name, o.metadata, o.version, o.updated_at into v_audio from storage.objects o
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
  -- The length is the server's own reading of this very file (measure-audio), never the publisher's.
  select d.duration_seconds into v_seconds from public.audio_durations d
   where d.object_id = v_audio.id and d.object_version is not distinct from v_audio.version
     and d.object_updated_at = v_audio.updated_at;
  if v_seconds is null then
    raise exception using errcode = '22023',
      message = 'The server has not measured this audio file yet (or it changed since): '
        || 'measure it with the measure-audio function, then publish.';
  end if;
  if v_seconds < (c_rules ->> 'min_seconds')::numeric or v_seconds > (c_rules ->> 'max_seconds')::numeric then
    raise exception 'A published track must last % s to % minutes; this one lasts % s.',
      c_rules ->> 'min_seconds', (c_rules ->> 'max_seconds')::int / 60, round(v_seconds) using errcode = '22023';
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
  values (v_id, v_title, v_username, round(v_seconds, 3), v_slug, p_genre, v_uid,
          v_cover_url, '/storage/v1/object/public/' || (c_rules ->> 'audio_bucket') || '/' || p_audio_path);
  insert into public.song_publications (user_id, song_id, attempt_key) values (v_uid, v_id, p_attempt_key);
  return json_build_object('id', v_id, 'slug', v_slug, 'repeated', false);
end
$$;
revoke execute on function public.publish_song(text, text, text, text, text) from public, anon;
grant execute on function public.publish_song(text, text, text, text, text) to authenticated, service_role;
