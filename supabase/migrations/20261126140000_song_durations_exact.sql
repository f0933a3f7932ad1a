-- Durations agree everywhere (issue 24): every song's length is its decoded audio file's, kept to
-- the millisecond, not rounded to whole seconds. The catalogue's durations are generated from the
-- shipped MP3s (scripts/catalogue-codegen.ts, the next *_catalogue_seed.sql writes them exactly); a
-- published song keeps the length its creator's browser decoded (publish_song rounded it to whole
-- seconds, so its page said 1:02 where the player, counting the file, said 1:01).
-- numeric(8,3): up to 99999.999 s, far beyond publishing_rules().max_seconds. Every function that
-- reads songs.duration_seconds already takes it as numeric (listen_begin, credit_listen).

alter table public.songs alter column duration_seconds type numeric(8, 3) using duration_seconds::numeric(8, 3);

-- publish_song as in 20261125100400_publish_attempts.sql, storing the declared length to the millisecond.
create or replace function public.publish_song(
  p_title text,
  p_genre text,
  p_audio_path text,
  p_duration_seconds numeric,
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
revoke execute on function public.publish_song(text, text, text, numeric, text, text) from public, anon;
grant execute on function public.publish_song(text, text, text, numeric, text, text) to authenticated, service_role;
