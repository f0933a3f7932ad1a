-- Settings that really change the account (issue 14): the profile's rules, the avatar bucket, and
-- the user's notification and privacy preferences.

-- ---------------------------------------------------------------------------------------------
-- Profile rules, for every client: a username the user chooses is 3–30 letters, digits, '-' or
-- '_' (unique, as before); a bio at most 300 characters. Checked when the value changes, so names
-- given at sign-up before this rule keep working until their owner changes them.
-- ---------------------------------------------------------------------------------------------
create function public.profile_rules() returns json
language sql
immutable
set search_path = ''
as $$
  select json_build_object(
    'username_min', 3,
    'username_max', 30,
    'username_pattern', '^[A-Za-z0-9_-]+$',
    'bio_max', 300,
    'avatar_max_bytes', 2097152,
    'avatar_size_px', 256
  )
$$;
grant execute on function public.profile_rules() to anon, authenticated, service_role;

create function public.check_profile_change() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  r constant json := public.profile_rules();
begin
  if new.username is distinct from old.username then
    if char_length(new.username) not between (r ->> 'username_min')::int and (r ->> 'username_max')::int
       or new.username !~ (r ->> 'username_pattern') then
      raise exception 'invalid_username' using errcode = '22023',
        detail = 'A username is 3 to 30 letters, digits, - or _.';
    end if;
  end if;
  if new.bio is distinct from old.bio and char_length(coalesce(new.bio, '')) > (r ->> 'bio_max')::int then
    raise exception 'bio_too_long' using errcode = '22023', detail = 'A bio is at most 300 characters.';
  end if;
  return new;
end
$$;
create trigger profiles_check_change before update on public.profiles
  for each row execute function public.check_profile_change();

-- ---------------------------------------------------------------------------------------------
-- Avatars: the public bucket `avatars`, one object per user at `<user id>/avatar` (PNG, JPEG or
-- WebP, at most 2 MiB, enforced by Storage); profiles.avatar_url points at it.
-- ---------------------------------------------------------------------------------------------
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('avatars', 'avatars', true, 2097152, array['image/png', 'image/jpeg', 'image/webp'])
on conflict (id) do update
  set name = excluded.name, public = excluded.public,
      file_size_limit = excluded.file_size_limit, allowed_mime_types = excluded.allowed_mime_types;

create policy "avatars: everyone reads" on storage.objects
  for select to anon, authenticated
  using (bucket_id = 'avatars');
create policy "avatars: owners upload" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy "avatars: owners overwrite" on storage.objects
  for update to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy "avatars: owners delete" on storage.objects
  for delete to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);

-- ---------------------------------------------------------------------------------------------
-- Preferences: one row per user, theirs alone. Notifications say which live toasts they want;
-- privacy whether their profile and listening activity are public.
-- ---------------------------------------------------------------------------------------------
create table public.user_settings (
  user_id uuid primary key default auth.uid() references auth.users (id) on delete cascade,
  notify_replies boolean not null default true,
  notify_followers boolean not null default true,
  notify_votes boolean not null default true,
  notify_mints boolean not null default true,
  public_profile boolean not null default true,
  show_activity boolean not null default true,
  updated_at timestamptz not null default now()
);

alter table public.user_settings enable row level security;
create policy "user settings: owner reads" on public.user_settings
  for select to authenticated using (user_id = (select auth.uid()));
create policy "user settings: owner creates" on public.user_settings
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy "user settings: owner changes" on public.user_settings
  for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

revoke all on table public.user_settings from anon, authenticated;
grant select, insert, update on public.user_settings to authenticated;
grant all on table public.user_settings to service_role;
