-- Who follows whom: the public profile's Follow/Unfollow, its follower counts, and discovery's
-- artist affinity. Public to read (follower lists are public on /user/{username}); a user can only
-- add or remove follows of their own (follower_id = themselves), never make someone else follow.

create table public.follows (
  follower_id uuid not null references auth.users (id) on delete cascade,
  following_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (follower_id, following_id),
  constraint follows_not_self check (follower_id <> following_id)
);
create index follows_following_idx on public.follows (following_id);

alter table public.follows enable row level security;
create policy follows_read on public.follows for select to anon, authenticated using (true);
create policy follows_insert_own on public.follows for insert to authenticated
  with check (follower_id = (select auth.uid()));
create policy follows_delete_own on public.follows for delete to authenticated
  using (follower_id = (select auth.uid()));

revoke all on table public.follows from anon, authenticated;
grant select on public.follows to anon, authenticated;
grant insert (follower_id, following_id), delete on public.follows to authenticated;
grant all on table public.follows to service_role;
