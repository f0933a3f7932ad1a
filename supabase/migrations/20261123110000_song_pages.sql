-- What every song needs to be found, shown and linked to, whoever made it.
--
-- The catalogue grows from the built-in samples to creators' published tracks. Each song gets a
-- slug (its page /song/{slug}: the slugified title, made unique), a genre (discovery ranks by it),
-- its cover and audio locations, an owner (null for the built-in catalogue) and when it appeared.
-- Publishing (insert/delete by creators) comes with its own migration and definer functions;
-- this one only adds the columns and fills them for the built-in songs.

alter table public.songs
  add column slug text,
  add column genre text check (genre is null or genre ~ '^[a-z][a-z0-9-]{0,30}$'),
  add column owner_id uuid references auth.users (id) on delete set null,
  add column cover_url text check (cover_url is null or char_length(cover_url) <= 2048),
  add column audio_url text check (audio_url is null or char_length(audio_url) <= 2048),
  add column created_at timestamptz not null default now();

update public.songs s
   set slug = s.id,
       genre = v.genre,
       cover_url = '/images/covers/' || s.id || '.svg',
       audio_url = '/audio/samples/' || s.id || '.mp3'
  from (values
    ('neon-drift', 'synthwave'),
    ('low-tide-memory', 'chillwave'),
    ('circuit-breaker', 'electronic'),
    ('rainy-terminal', 'lofi'),
    ('orbital-haze', 'ambient')
  ) as v (id, genre)
 where v.id = s.id;
update public.songs set slug = id where slug is null;

alter table public.songs alter column slug set not null;
alter table public.songs add constraint songs_slug_key unique (slug);
alter table public.songs add constraint songs_slug_format check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 120);
create index songs_owner_idx on public.songs (owner_id) where owner_id is not null;
create index songs_genre_idx on public.songs (genre);
