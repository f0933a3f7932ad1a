-- project invites: written by `npm run db:diff` from the difference between the migrations and
-- supabase/schemas/ (where each object's comment says why it is so).

set check_function_bodies = off;

CREATE TABLE public.project_invites (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    project_id uuid NOT NULL,
    token uuid DEFAULT gen_random_uuid() NOT NULL,
    role text NOT NULL,
    created_by uuid DEFAULT auth.uid() NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    revoked_at timestamp with time zone,
    CONSTRAINT project_invites_role_check CHECK ((role = ANY (ARRAY['editor'::text, 'viewer'::text]))),
    CONSTRAINT project_invites_expiry_check CHECK (((expires_at > created_at) AND (expires_at <= (created_at + '30 days'::interval)))),
    CONSTRAINT project_invites_pkey PRIMARY KEY (id),
    CONSTRAINT project_invites_token_key UNIQUE (token),
    CONSTRAINT project_invites_created_by_fkey FOREIGN KEY (created_by) REFERENCES auth.users(id) ON DELETE CASCADE,
    CONSTRAINT project_invites_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.studio_projects(id) ON DELETE CASCADE
);

CREATE INDEX project_invites_project_idx ON public.project_invites USING btree (project_id);

ALTER TABLE public.project_invites ENABLE ROW LEVEL SECURITY;

CREATE POLICY "owners see their invite links" ON public.project_invites FOR SELECT TO authenticated USING ((( SELECT
    public.project_role(project_invites.project_id) AS project_role) = 'owner'::text));

CREATE POLICY "two-factor sessions only" ON public.project_invites AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));

revoke all on table public.project_invites from public, anon, authenticated, service_role;

grant SELECT on table public.project_invites to authenticated;

grant INSERT, SELECT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER on table public.project_invites to service_role;

create or replace function public.accept_project_invite(p_token uuid) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_invite public.project_invites;
  v_name text;
  v_owner uuid;
  v_role text;
begin
  if v_uid is null then
    raise exception 'Sign in to join a project.' using errcode = '42501';
  end if;
  select * into v_invite from public.project_invites where token = p_token;
  if v_invite.id is null then
    raise exception 'This invite link is not valid.' using errcode = '22023';
  end if;
  if v_invite.revoked_at is not null then
    raise exception 'This invite link was revoked by the project''s owner.' using errcode = '22023';
  end if;
  if v_invite.expires_at <= now() then
    raise exception 'This invite link expired on %. Ask the project''s owner for a new one.',
      to_char(v_invite.expires_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI "UTC"') using errcode = '22023';
  end if;
  select name, user_id into v_name, v_owner from public.studio_projects where id = v_invite.project_id;
  if v_owner = v_uid then
    raise exception 'You own this project already.' using errcode = '22023';
  end if;
  insert into public.project_members as m (project_id, user_id, role) values (v_invite.project_id, v_uid, v_invite.role)
  on conflict (project_id, user_id) do update set role = case when m.role = 'editor' then 'editor' else excluded.role end
  returning m.role into v_role;
  return json_build_object('project_id', v_invite.project_id, 'name', v_name, 'role', v_role);
end
$$;

revoke all on function public.accept_project_invite(uuid) from public, anon, authenticated, service_role;

grant EXECUTE on function public.accept_project_invite(uuid) to authenticated, service_role;

create or replace function public.create_project_invite(p_project uuid, p_role text, p_hours integer) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_row public.project_invites;
begin
  if v_uid is null then
    raise exception 'Sign in to share a project.' using errcode = '42501';
  end if;
  if p_role is null or p_role not in ('editor', 'viewer') then
    raise exception 'A collaborator is an editor or a viewer.' using errcode = '22023';
  end if;
  if p_hours is null or p_hours < 1 or p_hours > 720 then
    raise exception 'An invite link lasts from one hour to 30 days.' using errcode = '22023';
  end if;
  perform 1 from public.studio_projects where id = p_project and user_id = v_uid;
  if not found then
    raise exception 'Only the owner of a project can invite to it.' using errcode = '42501';
  end if;
  insert into public.project_invites (project_id, role, created_by, expires_at)
  values (p_project, p_role, v_uid, now() + make_interval(hours => p_hours))
  returning * into v_row;
  return json_build_object('id', v_row.id, 'token', v_row.token, 'role', v_row.role, 'expires_at', v_row.expires_at);
end
$$;

revoke all on function public.create_project_invite(uuid,text,integer) from public, anon, authenticated, service_role;

grant EXECUTE on function public.create_project_invite(uuid,text,integer) to authenticated, service_role;

create or replace function public.revoke_project_invite(p_invite uuid) returns void
language plpgsql security definer set search_path = '' as $$
begin
  update public.project_invites i set revoked_at = coalesce(i.revoked_at, now())
   where i.id = p_invite and public.project_role(i.project_id) = 'owner';
  if not found then
    raise exception 'Only the owner of a project can revoke its invite links.' using errcode = '42501';
  end if;
end
$$;

revoke all on function public.revoke_project_invite(uuid) from public, anon, authenticated, service_role;

grant EXECUTE on function public.revoke_project_invite(uuid) to authenticated, service_role;

reset check_function_bodies;
