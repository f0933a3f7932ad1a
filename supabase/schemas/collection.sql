-- Favourites and playlists.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

CREATE TABLE public.favourites (
    user_id uuid DEFAULT auth.uid() NOT NULL,
    song_id text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT favourites_song_id_check CHECK (((char_length(song_id) >= 1) AND (char_length(song_id) <= 200))),
    CONSTRAINT favourites_pkey PRIMARY KEY (user_id, song_id),
    CONSTRAINT favourites_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
ALTER TABLE public.favourites ENABLE ROW LEVEL SECURITY;
CREATE POLICY "owners manage their favourites" ON public.favourites TO authenticated USING ((user_id = ( SELECT auth.uid() AS
    uid))) WITH CHECK ((user_id = ( SELECT auth.uid() AS uid)));

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
ALTER TABLE public.playlist_songs ENABLE ROW LEVEL SECURITY;
CREATE POLICY "owners manage their playlist songs" ON public.playlist_songs TO authenticated USING ((EXISTS ( SELECT 1
   FROM public.playlists p
  WHERE ((p.id = playlist_songs.playlist_id) AND (p.user_id = ( SELECT auth.uid() AS uid)))))) WITH CHECK ((EXISTS ( SELECT 1
   FROM public.playlists p
  WHERE ((p.id = playlist_songs.playlist_id) AND (p.user_id = ( SELECT auth.uid() AS uid))))));

CREATE TABLE public.playlists (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid DEFAULT auth.uid() NOT NULL,
    name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    is_public boolean DEFAULT false NOT NULL,
    CONSTRAINT playlists_name_check CHECK (((char_length(btrim(name)) >= 1) AND (char_length(btrim(name)) <= 100))),
    CONSTRAINT playlists_name_length CHECK (((char_length(btrim(name)) >= 1) AND (char_length(btrim(name)) <= 80) AND
        (char_length(name) <= 80))),
    CONSTRAINT playlists_pkey PRIMARY KEY (id),
    CONSTRAINT playlists_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX playlists_user_idx ON public.playlists USING btree (user_id);
ALTER TABLE public.playlists ENABLE ROW LEVEL SECURITY;
CREATE POLICY "owners manage their playlists" ON public.playlists TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)))
    WITH CHECK ((user_id = ( SELECT auth.uid() AS uid)));

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

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.favourites, public.playlist_songs, public.playlists FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON TABLE public.favourites, public.playlist_songs, public.playlists TO service_role;
GRANT DELETE, INSERT, SELECT, UPDATE ON TABLE public.favourites, public.playlist_songs, public.playlists TO authenticated;
REVOKE ALL ON FUNCTION public.public_playlists(p_user_id uuid) FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.public_playlists(p_user_id uuid) TO anon, authenticated, service_role;
