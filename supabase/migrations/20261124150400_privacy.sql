-- Privacy (Settings › Privacy), enforced by RLS so no client can read around it:
--   * a private profile (user_settings.public_profile = false) is visible only to its owner; to
--     everyone else /user/{username} resolves through public_profile_name() to the username alone
--     (no bio, avatar, tracks or playlists);
--   * the tracks a private user published are hidden from everyone else (catalogue, search, pages);
--   * listening activity is shown on a public profile only while show_activity is on.

create function public.profile_is_public(p_user uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select s.public_profile from public.user_settings s where s.user_id = p_user), true)
$$;
revoke execute on function public.profile_is_public(uuid) from public;
grant execute on function public.profile_is_public(uuid) to anon, authenticated, service_role;

drop policy "profiles are public" on public.profiles;
create policy "profiles are public unless private" on public.profiles
  for select to anon, authenticated
  using (user_id = (select auth.uid()) or public.profile_is_public(user_id));

drop policy "catalogue is public" on public.songs;
create policy "catalogue is public, private creators' tracks excepted" on public.songs
  for select to anon, authenticated
  using (owner_id is null or owner_id = (select auth.uid()) or public.profile_is_public(owner_id));

/** What anyone may know of a profile whatever its privacy: that the name exists, and whether it is private. */
create function public.public_profile_name(p_username text) returns json
language sql
stable
security definer
set search_path = ''
as $$
  select json_build_object('user_id', p.user_id, 'username', p.username,
                           'private', not (coalesce(p.user_id = auth.uid(), false) or public.profile_is_public(p.user_id)))
    from public.profiles p where p.username = p_username
$$;
revoke execute on function public.public_profile_name(text) from public;
grant execute on function public.public_profile_name(text) to anon, authenticated, service_role;

-- public_playlists (20261124120200) again, answering nothing for a private profile.
create or replace function public.public_playlists(p_user_id uuid) returns json
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
     and (p_user_id = auth.uid() or public.profile_is_public(p_user_id))
$$;

/** A public profile's recently played songs (distinct, newest first), while its owner shows them. */
create function public.recent_listens(p_user_id uuid, p_limit int default 5) returns table (song_id text, title text, artist text, slug text, listened_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select s.id, s.title, s.artist, s.slug, h.last
    from (select song_id, max(listened_at) as last from public.user_listening_history where user_id = p_user_id group by song_id) h
    join public.songs s on s.id = h.song_id
   where (p_user_id = auth.uid()
          or (public.profile_is_public(p_user_id)
              and coalesce((select st.show_activity from public.user_settings st where st.user_id = p_user_id), true)))
     and (s.owner_id is null or s.owner_id = auth.uid() or public.profile_is_public(s.owner_id))
   order by h.last desc
   limit least(greatest(coalesce(p_limit, 5), 1), 20)
$$;
revoke execute on function public.recent_listens(uuid, int) from public;
grant execute on function public.recent_listens(uuid, int) to anon, authenticated, service_role;
