-- Songs: the built-in catalogue’s table, slugs, publishing, loudness and recommendations.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

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
CREATE TABLE public.audio_durations (
    object_id uuid NOT NULL,
    owner_id uuid NOT NULL,
    bucket_id text NOT NULL,
    name text NOT NULL,
    object_version text,
    object_updated_at timestamp with time zone NOT NULL,
    duration_seconds numeric(8,3) NOT NULL,
    measured_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT audio_durations_duration_seconds_check CHECK ((duration_seconds > (0)::numeric)),
    CONSTRAINT audio_durations_pkey PRIMARY KEY (object_id),
    CONSTRAINT audio_durations_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX audio_durations_owner_idx ON public.audio_durations USING btree (owner_id);
ALTER TABLE public.audio_durations ENABLE ROW LEVEL SECURITY;

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
ALTER TABLE public.song_publications ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.song_publications_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
CREATE UNIQUE INDEX song_publications_attempt_key ON public.song_publications USING btree (user_id, attempt_key);
CREATE INDEX song_publications_user_idx ON public.song_publications USING btree (user_id, published_at DESC);
ALTER TABLE public.song_publications ENABLE ROW LEVEL SECURITY;
CREATE POLICY song_publications_read_own ON public.song_publications FOR SELECT TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));

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
CREATE UNIQUE INDEX songs_audio_url_key ON public.songs USING btree (audio_url) WHERE (owner_id IS NOT NULL);
CREATE INDEX songs_genre_idx ON public.songs USING btree (genre);
CREATE INDEX songs_owner_idx ON public.songs USING btree (owner_id) WHERE (owner_id IS NOT NULL);
CREATE INDEX songs_remix_of_idx ON public.songs USING btree (remix_of) WHERE (remix_of IS NOT NULL);
ALTER TABLE public.songs ENABLE ROW LEVEL SECURITY;
CREATE POLICY "songs: visible unless the creator is private" ON public.songs FOR SELECT TO anon, authenticated USING
    (public.profile_visible(owner_id));
CREATE TRIGGER songs_default_slug BEFORE INSERT ON public.songs FOR EACH ROW EXECUTE FUNCTION public.songs_default_slug();
CREATE TRIGGER songs_note_owner_client AFTER INSERT ON public.songs FOR EACH ROW WHEN ((new.owner_id IS NOT NULL)) EXECUTE FUNCTION
    public.songs_note_owner_client();
COMMENT ON COLUMN public.songs.loudness_lufs IS 'Integrated loudness, LUFS (BS.1770-4, gated); null = not measured.';
COMMENT ON COLUMN public.songs.true_peak_dbtp IS 'True peak, dBTP (BS.1770-4 Annex 2, 4x oversampled); null = not measured.';
COMMENT ON COLUMN public.songs.remix_id IS 'The remix (public.remixes) this published song was rendered from; null for any other song.';
COMMENT ON COLUMN public.songs.remix_of IS
    'The song the remix was made from (remixes.source_ref, when that is a song here); null when unknown or not a remix.';

-- song_id, plays (distinct trusted listener-days) and listeners (distinct trusted listeners) of every
-- song that reaches the threshold. Internal: it reads everyone's listening.
create or replace function public.chart_plays()
returns table (song_id text, plays int, listeners int)
language sql stable security definer set search_path = '' as $$
  with r as (
    select (public.chart_rules() ->> 'min_listeners')::int as min_listeners,
           make_interval(days => (public.chart_rules() ->> 'window_days')::int) as window_len
  ), heard as (
    select distinct h.song_id, h.user_id, (h.listened_at at time zone 'utc')::date as day
      from public.user_listening_history h
      join public.songs s on s.id = h.song_id
     cross join r
     where h.listened_at > clock_timestamp() - r.window_len
       and s.owner_id is distinct from h.user_id
  ), trusted as (
    select l.user_id
      from (select distinct user_id from heard) l
     cross join lateral public.account_trust(l.user_id) t
     where t.trusted
  )
  select h.song_id, count(*)::int, count(distinct h.user_id)::int
    from heard h
   where h.user_id in (select user_id from trusted)
   group by h.song_id
  having count(distinct h.user_id) >= (select min_listeners from r)
$$;

create or replace function public.chart_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object('min_listeners', 10, 'window_days', 7, 'per', 'listener, song and UTC day')
$$;

-- Publishes a song (idempotent per attempt key) with the length the server measured from the stored
-- file (audio_durations), never a length the publisher declares.
create or replace function public.publish_song(
  p_title text,
  p_genre text,
  p_audio_path text,
  p_cover_path text default null,
  p_attempt_key text default null
) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.publishing_rules();
  v_uid uuid := public.require_uid('Sign in to publish a track.');
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

-- recommend_songs again, its plays from chart_plays().
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
    -- Visitors: the chart (chart_plays); discover: a daily sample of the rest.
    select coalesce(json_agg(r order by r.rank), '[]'::json) into v_result from (
      select s.id, s.slug, s.title, s.artist, s.genre, s.duration_seconds, s.reward, s.cover_url, s.audio_url, s.owner_id,
             coalesce(p.plays, 0) as plays, 'popular' as why,
             row_number() over (order by
               case when p_mode = 'daily' then -coalesce(p.plays, 0) else 0 end,
               case when p_mode = 'discover' then hashtext(v_seed || s.id) else 0 end, s.title) as rank
        from public.songs s
        left join public.chart_plays() p on p.song_id = s.id
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
  popular as (select song_id, plays::float8 as plays from public.chart_plays()),
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
                       when unheard then 'new' else 'popular' end)
           order by case when p_mode = 'daily' then -score else 0 end, k1, k2, id), '[]'::json)
    into v_result
    from picked;
  return v_result;
end
$$;

-- Called by measure-audio only (service role): the length of the caller's uploaded file as the
-- server parsed it. p_size is the number of bytes the function read: a file that changed while it
-- was being read is refused.
create or replace function public.record_audio_duration(p_path text, p_size bigint, p_seconds numeric) returns json
language plpgsql security definer set search_path = '' as $$
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

-- Answers true when the values were recorded, false when the song already had a measurement.
create or replace function public.record_song_loudness(p_song_id text, p_loudness_lufs real, p_true_peak_dbtp real)
returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid('Sign in to record a song''s loudness.');
  v_owner uuid;
  v_measured boolean;
begin
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

-- Removes the caller's own song; answers the Storage paths its client then removes.
create or replace function public.unpublish_song(p_song_id text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.publishing_rules();
  v_uid uuid := public.require_uid('Sign in to unpublish a track.');
  v_song public.songs;
  v_prefix text;
begin
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

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.audio_durations, public.song_publications, public.songs FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON TABLE public.audio_durations, public.song_publications, public.songs TO service_role;
GRANT SELECT ON TABLE public.songs TO anon, authenticated;
GRANT SELECT ON TABLE public.song_publications TO authenticated;
REVOKE ALL ON SEQUENCE public.song_publications_id_seq FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON SEQUENCE public.song_publications_id_seq TO anon, authenticated, service_role;
REVOKE ALL ON FUNCTION public.chart_plays(), public.chart_rules(), public.publish_song(p_title text, p_genre text, p_audio_path
    text, p_cover_path text, p_attempt_key text), public.publishing_rules(), public.recommend_songs(p_mode text, p_salt integer,
    p_limit integer), public.record_audio_duration(p_path text, p_size bigint, p_seconds numeric),
    public.record_song_loudness(p_song_id text, p_loudness_lufs real, p_true_peak_dbtp real), public.slugify(p_text text),
    public.songs_default_slug(), public.songs_note_owner_client(), public.unpublish_song(p_song_id text) FROM PUBLIC, anon,
    authenticated, service_role;
GRANT ALL ON FUNCTION public.slugify(p_text text), public.songs_note_owner_client() TO anon, authenticated, public, service_role;
GRANT ALL ON FUNCTION public.chart_rules(), public.publishing_rules(), public.recommend_songs(p_mode text, p_salt integer, p_limit
    integer) TO anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.publish_song(p_title text, p_genre text, p_audio_path text, p_cover_path text, p_attempt_key text),
    public.record_song_loudness(p_song_id text, p_loudness_lufs real, p_true_peak_dbtp real), public.unpublish_song(p_song_id text)
    TO authenticated, service_role;
GRANT ALL ON FUNCTION public.record_audio_duration(p_path text, p_size bigint, p_seconds numeric), public.songs_default_slug() TO
    service_role;
