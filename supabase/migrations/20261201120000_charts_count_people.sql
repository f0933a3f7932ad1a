-- Charts count people. Discovery's play counts (the visitors' chart, and the popularity part of a
-- listener's recommendations) counted every row of user_listening_history: one fresh account put a
-- track nobody had heard at #1 of the chart with 50 reported offline plays in one second.
--
-- The rule (public.chart_rules(), one source):
--   * a play counts once per listener, song and UTC day, offline plays included under the same rule
--     (they are rows of user_listening_history like any other play);
--   * only trusted listeners count: public.account_trust(...).trusted, the one trust rule, called
--     here and never restated;
--   * over the last 7 days; a song heard by fewer than 10 distinct trusted listeners in that window
--     counts 0, so no chart position moves with fewer than 10 people behind it;
--   * the song's owner's own plays do not count for it.
-- recommend_songs (20261125130000_private_profiles.sql) is redefined to read its plays here.

create function public.chart_rules() returns json
language sql
immutable
set search_path = ''
as $$
  select json_build_object('min_listeners', 10, 'window_days', 7, 'per', 'listener, song and UTC day')
$$;
revoke execute on function public.chart_rules() from public;
grant execute on function public.chart_rules() to anon, authenticated, service_role;

-- song_id, plays (distinct trusted listener-days) and listeners (distinct trusted listeners) of every
-- song that reaches the threshold. Internal: it reads everyone's listening.
create function public.chart_plays()
returns table (song_id text, plays int, listeners int)
language sql
stable
security definer
set search_path = ''
as $$
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
revoke execute on function public.chart_plays() from public, anon, authenticated, service_role;

-- recommend_songs again, its plays from chart_plays().
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

