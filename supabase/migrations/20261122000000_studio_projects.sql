-- Music Studio projects listed in the account. Only metadata lives here: the mix and its audio
-- stay in the browser's IndexedDB (src/lib/project-db.ts), and `id` is that local project's id, so
-- a browser can tell whether it holds a listed project's audio.

create table public.studio_projects (
  id uuid primary key,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 120 and char_length(name) <= 120),
  track_count int not null default 0 check (track_count >= 0),
  duration_seconds numeric not null default 0 check (duration_seconds >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index studio_projects_user_idx on public.studio_projects (user_id);

revoke all on table public.studio_projects from anon, authenticated;
grant select, insert, update, delete on public.studio_projects to authenticated;
grant all on table public.studio_projects to service_role;

alter table public.studio_projects enable row level security;

-- An upsert of another user's id fails the with-check (it cannot take over their row), and the
-- using clause hides other users' rows from select, update and delete.
create policy "owners manage their studio projects" on public.studio_projects
  for all to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
