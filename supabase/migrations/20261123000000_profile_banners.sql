-- Uploaded profile banners: the public Storage bucket `profile-banners`, one object per user at
-- `<user id>/banner` (PNG, JPEG or WebP, at most 2 MiB). A user without that object shows the
-- generated banner (src/features/account/profile/banner-pattern.ts). The object's name is fixed,
-- so no profile column is needed and the profiles table and its RLS stay as they are.

-- 2 MiB and three image types, enforced by Storage itself (413 / 415), whatever the client says.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('profile-banners', 'profile-banners', true, 2097152, array['image/png', 'image/jpeg', 'image/webp'])
on conflict (id) do update
  set name = excluded.name,
      public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- A banner is part of a public profile: everyone may read it, visitors included.
drop policy if exists "profile banners: everyone reads" on storage.objects;
create policy "profile banners: everyone reads" on storage.objects
  for select to anon, authenticated
  using (bucket_id = 'profile-banners');

-- Writes only by the owner, only inside their own folder (the first folder is their user id).
drop policy if exists "profile banners: owners upload" on storage.objects;
create policy "profile banners: owners upload" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'profile-banners' and (storage.foldername(name))[1] = (select auth.uid())::text);

drop policy if exists "profile banners: owners overwrite" on storage.objects;
create policy "profile banners: owners overwrite" on storage.objects
  for update to authenticated
  using (bucket_id = 'profile-banners' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (bucket_id = 'profile-banners' and (storage.foldername(name))[1] = (select auth.uid())::text);

drop policy if exists "profile banners: owners delete" on storage.objects;
create policy "profile banners: owners delete" on storage.objects
  for delete to authenticated
  using (bucket_id = 'profile-banners' and (storage.foldername(name))[1] = (select auth.uid())::text);
