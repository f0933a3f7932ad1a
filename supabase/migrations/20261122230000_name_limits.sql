-- Playlist names: 1–80 characters (issue 15: long names broke the layout). The client refuses
-- longer names (src/features/playlists/playlist-store.ts, MAX_PLAYLIST_NAME); this holds the same
-- limit against any client. Existing longer names are cut first so the constraint applies.
-- (studio_projects.name already checks 1–120 in 20261122000000_studio_projects.sql.)
update public.playlists
   set name = left(btrim(name), 80)
 where char_length(name) > 80;

alter table public.playlists
  add constraint playlists_name_length check (char_length(btrim(name)) between 1 and 80 and char_length(name) <= 80);
