-- Public playlists on /user/{username}: the owner marks a playlist public (is_public, written by
-- the owner under the existing "owners manage their playlists" policy); anyone reads public ones
-- through public_playlists(), which answers only those and only catalogue songs in them (a
-- private recording's id in a playlist never leaves the account). The tables' own RLS and grants
-- are unchanged: others still read no playlist rows directly.

alter table public.playlists add column is_public boolean not null default false;

create function public.public_playlists(p_user_id uuid) returns json
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(json_agg(json_build_object(
           'id', p.id,
           'name', p.name,
           'track_count', (select count(*) from public.playlist_songs ps join public.songs s on s.id = ps.song_id where ps.playlist_id = p.id),
           'songs', coalesce((select json_agg(json_build_object('id', s.id, 'title', s.title, 'artist', s.artist, 'slug', s.slug) order by ps.position, ps.added_at)
                                from public.playlist_songs ps join public.songs s on s.id = ps.song_id
                               where ps.playlist_id = p.id), '[]'::json)
         ) order by p.created_at), '[]'::json)
    from public.playlists p
   where p.user_id = p_user_id and p.is_public
$$;
revoke execute on function public.public_playlists(uuid) from public;
grant execute on function public.public_playlists(uuid) to anon, authenticated, service_role;
