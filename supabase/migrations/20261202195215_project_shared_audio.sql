-- project shared audio: written by `npm run db:diff` from the difference between the migrations and
-- supabase/schemas/ (where each object's comment says why it is so).

set check_function_bodies = off;

create or replace function public.project_audio_path(p_project uuid, p_file text) returns text
language sql stable security definer set search_path = '' as $$
  select o.name from storage.objects o
   where o.bucket_id = 'studio-audio'
     and split_part(o.name, '/', 2) = p_project::text
     and split_part(o.name, '/', 3) = p_file
     and split_part(o.name, '/', 4) = ''
     and public.project_audio_readable(o.name)
   order by o.created_at
   limit 1
$$;

revoke all on function public.project_audio_path(uuid,text) from public, anon, authenticated, service_role;

grant EXECUTE on function public.project_audio_path(uuid,text) to authenticated, service_role;

create or replace function public.project_audio_readable(p_name text) returns boolean
language plpgsql stable security definer set search_path = '' as $$
declare
  v_parts text[] := storage.foldername(p_name);
  v_project uuid;
begin
  if coalesce(array_length(v_parts, 1), 0) <> 2
     or v_parts[2] !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return false;
  end if;
  v_project := v_parts[2]::uuid;
  if public.project_role(v_project) is null then
    return false;
  end if;
  return exists (select 1 from public.studio_projects p where p.id = v_project and p.user_id::text = v_parts[1])
      or exists (select 1 from public.project_members m
                  where m.project_id = v_project and m.user_id::text = v_parts[1] and m.role = 'editor');
end
$$;

revoke all on function public.project_audio_readable(text) from public, anon, authenticated, service_role;

grant EXECUTE on function public.project_audio_readable(text) to authenticated, service_role;

drop policy if exists "studio audio: project members read" on storage.objects;

CREATE POLICY "studio audio: project members read" ON storage.objects FOR SELECT TO authenticated USING (((bucket_id =
    'studio-audio'::text) AND public.project_audio_readable(name)));

reset check_function_bodies;
