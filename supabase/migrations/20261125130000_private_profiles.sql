-- Private profiles, hidden through every API (issue 22, item 7).
--
-- 20261124150400_privacy.sql hid a private profile's row, tracks, playlists and listening from the
-- tables' RLS, but definer functions (recommend_songs, public_playlists) read past RLS, follows,
-- comments, comment likes and NFTs stayed readable by anyone, and the avatar and banner lived in
-- public buckets served by URL without RLS. Here one predicate, public.profile_visible(owner),
-- decides for every policy and definer function that shows another user's data:
--   * true for the owner themselves, for rows with no owner (the built-in catalogue), and for
--     others only while the profile is public; administrators get no exception;
--   * hidden from others: the profile row (bio, avatar_url), published tracks (catalogue,
--     recommendations, other people's public playlists, song pages) and the comments on them, the
--     user's playlists and listening, follows in both directions (each side of a follow still
--     sees that one row), comment likes, NFTs, and the Storage objects in the user's folders
--     (avatar, banner, published audio and covers: download through RLS and listing);
--   * still shown: the username (public_profile_name: a page can say "this profile is private"),
--     comments the user wrote on other people's public songs (under the username; a thread must
--     stay readable), governance proposals (civic record).
-- Realtime re-reads every changed row as the subscriber, so these policies decide there too.
--
-- Storage: avatars and banners move to non-public buckets. A public bucket is served at
-- /object/public/... without RLS (hosted Supabase does the same), so no policy could hide a
-- private user's avatar there; the app now downloads them through the API (RLS applies) and
-- shows a blob. Published audio and covers stay in public buckets (players stream them by URL):
-- their names hold a random UUID, the song rows that carry the URL are hidden, and listing and
-- authenticated downloads follow the policy below; a URL someone saved while the track was public
-- keeps working, as a downloaded copy would.

-- Plain SQL, invoker, no SET clause and no sub-select, so Postgres inlines it into each policy and
-- query (one row of a 10,000-song catalogue costs an expression, not a function call); every name
-- is schema-qualified instead of pinning search_path.
create function public.profile_visible(p_owner uuid) returns boolean
language sql
stable
as $$
  -- coalesce: a visitor has no auth.uid(), and a predicate must answer false, never null.
  select coalesce(p_owner is null
                  or p_owner = auth.uid()
                  or public.profile_is_public(p_owner), false)
$$;
revoke execute on function public.profile_visible(uuid) from public;
grant execute on function public.profile_visible(uuid) to anon, authenticated, service_role;

/** Storage objects of users live under a first folder named by their id; anything else has no owner. */
create function public.storage_object_visible(p_name text) returns boolean
language sql
stable
as $$
  select public.profile_visible(
           case when (storage.foldername(p_name))[1] ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                then ((storage.foldername(p_name))[1])::uuid end)
$$;
revoke execute on function public.storage_object_visible(text) from public;
grant execute on function public.storage_object_visible(text) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Tables read directly (REST, Realtime)
-- ---------------------------------------------------------------------------------------------

drop policy "profiles are public unless private" on public.profiles;
create policy "profiles: visible unless private" on public.profiles
  for select to anon, authenticated
  using (public.profile_visible(user_id));

drop policy "catalogue is public, private creators' tracks excepted" on public.songs;
create policy "songs: visible unless the creator is private" on public.songs
  for select to anon, authenticated
  using (public.profile_visible(owner_id));

drop policy follows_read on public.follows;
create policy follows_read on public.follows
  for select to anon, authenticated
  using (follower_id = (select auth.uid()) or following_id = (select auth.uid())
         or (public.profile_visible(follower_id) and public.profile_visible(following_id)));

-- A comment is visible where its song is (the songs policy above, applied to the caller).
drop policy comments_read on public.comments;
create policy comments_read on public.comments
  for select to anon, authenticated
  using (exists (select 1 from public.songs s where s.id = song_id));

drop policy comment_likes_read on public.comment_likes;
create policy comment_likes_read on public.comment_likes
  for select to anon, authenticated
  using (public.profile_visible(user_id) and exists (select 1 from public.songs s where s.id = song_id));

drop policy "nfts are a public collection" on public.nfts;
create policy "nfts: visible unless the owner is private" on public.nfts
  for select to anon, authenticated
  using (public.profile_visible(owner_id));

-- ---------------------------------------------------------------------------------------------
-- Storage
-- ---------------------------------------------------------------------------------------------

update storage.buckets set public = false where id in ('avatars', 'profile-banners');
-- Stored avatar addresses name the object; the public route no longer serves it.
update public.profiles
   set avatar_url = replace(avatar_url, '/storage/v1/object/public/avatars/', '/storage/v1/object/authenticated/avatars/')
 where avatar_url like '%/storage/v1/object/public/avatars/%';

drop policy "avatars: everyone reads" on storage.objects;
create policy "avatars: visible with the profile" on storage.objects
  for select to anon, authenticated
  using (bucket_id = 'avatars' and public.storage_object_visible(name));

drop policy "profile banners: everyone reads" on storage.objects;
create policy "profile banners: visible with the profile" on storage.objects
  for select to anon, authenticated
  using (bucket_id = 'profile-banners' and public.storage_object_visible(name));

drop policy "published: anyone reads" on storage.objects;
create policy "published: visible with the profile" on storage.objects
  for select to anon, authenticated
  using (bucket_id in ('published-audio', 'published-covers') and public.storage_object_visible(name));

-- ---------------------------------------------------------------------------------------------
-- Definer functions that show other users' data: the same predicate
-- ---------------------------------------------------------------------------------------------

create or replace function public.public_profile_name(p_username text) returns json
language sql
stable
security definer
set search_path = ''
as $$
  select json_build_object('user_id', p.user_id, 'username', p.username, 'private', not public.profile_visible(p.user_id))
    from public.profiles p where p.username = p_username
$$;

-- A user's public playlists; only songs the caller may see, counted and listed.
create or replace function public.public_playlists(p_user_id uuid) returns json
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(json_agg(json_build_object(
           'id', p.id,
           'name', p.name,
           'track_count', (select count(*) from public.playlist_songs ps join public.songs s on s.id = ps.song_id
                            where ps.playlist_id = p.id and public.profile_visible(s.owner_id)),
           'songs', coalesce((select json_agg(json_build_object('id', s.id, 'title', s.title, 'artist', s.artist, 'slug', s.slug) order by ps.position, ps.added_at)
                                from public.playlist_songs ps join public.songs s on s.id = ps.song_id
                               where ps.playlist_id = p.id and public.profile_visible(s.owner_id)), '[]'::json)
         ) order by p.created_at), '[]'::json)
    from public.playlists p
   where p.user_id = p_user_id and p.is_public and public.profile_visible(p_user_id)
$$;

create or replace function public.recent_listens(p_user_id uuid, p_limit int default 5) returns table (song_id text, title text, artist text, slug text, listened_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select s.id, s.title, s.artist, s.slug, h.last
    from (select song_id, max(listened_at) as last from public.user_listening_history where user_id = p_user_id group by song_id) h
    join public.songs s on s.id = h.song_id
   where public.profile_visible(p_user_id)
     and (p_user_id = auth.uid() or coalesce((select st.show_activity from public.user_settings st where st.user_id = p_user_id), true))
     and public.profile_visible(s.owner_id)
   order by h.last desc
   limit least(greatest(coalesce(p_limit, 5), 1), 20)
$$;

-- recommend_songs (20261124130100_discovery.sql) again, offering only songs the caller may see.
create or replace function public.recommend_songs(p_mode text default 'daily', p_salt int default 0, p_limit int default 10) returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
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
                       when unheard then 'new' else 'popular' end) order by case when p_mode = 'daily' then -score else 0 end, k1, k2, id), '[]'::json)
    into v_result
    from picked;
  return v_result;
end
$$;

