-- Storage buckets and who may read and write their objects.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

CREATE POLICY "avatars: owners delete" ON storage.objects FOR DELETE TO authenticated USING (((bucket_id = 'avatars'::text) AND
    ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));
CREATE POLICY "avatars: owners overwrite" ON storage.objects FOR UPDATE TO authenticated USING (((bucket_id = 'avatars'::text) AND
    ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text))) WITH CHECK (((bucket_id = 'avatars'::text) AND
    ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));
CREATE POLICY "avatars: owners upload" ON storage.objects FOR INSERT TO authenticated WITH CHECK (((bucket_id = 'avatars'::text)
    AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));
CREATE POLICY "avatars: visible with the profile" ON storage.objects FOR SELECT TO anon, authenticated USING (((bucket_id =
    'avatars'::text) AND public.storage_object_visible(name)));
CREATE POLICY "profile banners: owners delete" ON storage.objects FOR DELETE TO authenticated USING (((bucket_id =
    'profile-banners'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));
CREATE POLICY "profile banners: owners overwrite" ON storage.objects FOR UPDATE TO authenticated USING (((bucket_id =
    'profile-banners'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text))) WITH CHECK (((bucket_id =
    'profile-banners'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

-- Writes only by the owner, only inside their own folder (the first folder is their user id).
CREATE POLICY "profile banners: owners upload" ON storage.objects FOR INSERT TO authenticated WITH CHECK (((bucket_id =
    'profile-banners'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));
CREATE POLICY "profile banners: visible with the profile" ON storage.objects FOR SELECT TO anon, authenticated USING (((bucket_id =
    'profile-banners'::text) AND public.storage_object_visible(name)));
CREATE POLICY "published: owners delete" ON storage.objects FOR DELETE TO authenticated USING (((bucket_id = ANY
    (ARRAY['published-audio'::text, 'published-covers'::text])) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));
CREATE POLICY "published: owners upload" ON storage.objects FOR INSERT TO authenticated WITH CHECK (((bucket_id = ANY
    (ARRAY['published-audio'::text, 'published-covers'::text])) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));
CREATE POLICY "published: visible with the profile" ON storage.objects FOR SELECT TO anon, authenticated USING (((bucket_id = ANY
    (ARRAY['published-audio'::text, 'published-covers'::text])) AND public.storage_object_visible(name)));
CREATE POLICY "studio audio: owners delete" ON storage.objects FOR DELETE TO authenticated USING (((bucket_id =
    'studio-audio'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));
CREATE POLICY "studio audio: owners overwrite" ON storage.objects FOR UPDATE TO authenticated USING (((bucket_id =
    'studio-audio'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text))) WITH CHECK (((bucket_id =
    'studio-audio'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

-- Signed-in users read and write only their own folder (the first folder of the name is their
-- user id); visitors get nothing. (select auth.uid()) is evaluated once per statement.
CREATE POLICY "studio audio: owners read" ON storage.objects FOR SELECT TO authenticated USING (((bucket_id = 'studio-audio'::text)
    AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));
CREATE POLICY "studio audio: owners upload" ON storage.objects FOR INSERT TO authenticated WITH CHECK (((bucket_id =
    'studio-audio'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

create or replace function public.storage_object_visible(p_name text) returns boolean
language sql stable as $$
  select public.profile_visible(
           case when (storage.foldername(p_name))[1] ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                then ((storage.foldername(p_name))[1])::uuid end)
$$;

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
  ('avatars', 'avatars', 'false', '2097152', '{image/png,image/jpeg,image/webp}'),
  ('profile-banners', 'profile-banners', 'false', '2097152', '{image/png,image/jpeg,image/webp}'),
  ('published-audio', 'published-audio', 'true', '10485760', '{audio/webm,audio/ogg,audio/mpeg}'),
  ('published-covers', 'published-covers', 'true', '2097152', '{image/png,image/jpeg,image/webp}'),
  ('studio-audio', 'studio-audio', 'false', '268435456', '{audio/wav,application/json}')
on conflict (id) do nothing;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON FUNCTION public.storage_object_visible(p_name text) FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.storage_object_visible(p_name text) TO anon, authenticated, service_role;
