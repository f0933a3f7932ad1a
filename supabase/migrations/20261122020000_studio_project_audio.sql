-- A full copy of a Music Studio project in the account: its project.json and one WAV per audio
-- clip in the private Storage bucket `studio-audio`, under `<user id>/<project id>/`, beside the
-- metadata row in studio_projects. Valid on a hosted project too, where the storage schema
-- exists already (the local backend's bootstrap.sql provides the same tables and function).

-- When the account last received the project's audio (the client sets it with an update after
-- every file is uploaded; null = only the metadata is in the account). It is a separate column,
-- never part of the metadata upsert, so re-saving the metadata cannot make a copy look complete
-- or incomplete.
alter table public.studio_projects add column audio_uploaded_at timestamptz;

-- 256 MiB per file: ten minutes of 48 kHz stereo 32-bit float WAV is about 230 MB.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('studio-audio', 'studio-audio', false, 268435456, array['audio/wav', 'application/json'])
on conflict (id) do update
  set name = excluded.name,
      public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- Signed-in users read and write only their own folder (the first folder of the name is their
-- user id); visitors get nothing. (select auth.uid()) is evaluated once per statement.
drop policy if exists "studio audio: owners read" on storage.objects;
create policy "studio audio: owners read" on storage.objects
  for select to authenticated
  using (bucket_id = 'studio-audio' and (storage.foldername(name))[1] = (select auth.uid())::text);

drop policy if exists "studio audio: owners upload" on storage.objects;
create policy "studio audio: owners upload" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'studio-audio' and (storage.foldername(name))[1] = (select auth.uid())::text);

drop policy if exists "studio audio: owners overwrite" on storage.objects;
create policy "studio audio: owners overwrite" on storage.objects
  for update to authenticated
  using (bucket_id = 'studio-audio' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (bucket_id = 'studio-audio' and (storage.foldername(name))[1] = (select auth.uid())::text);

drop policy if exists "studio audio: owners delete" on storage.objects;
create policy "studio audio: owners delete" on storage.objects
  for delete to authenticated
  using (bucket_id = 'studio-audio' and (storage.foldername(name))[1] = (select auth.uid())::text);
