-- Live collaboration on studio projects: who else is in a project (editors and viewers), and the
-- shared document's stored updates that a creator who joins or reconnects catches up from.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

-- The owner (studio_projects.user_id) invites by username or by an invite link (project_invites); removal is a delete and takes effect on
-- the next request, since every policy below asks project_role afresh.
CREATE TABLE public.project_members (
    project_id uuid NOT NULL,
    user_id uuid NOT NULL,
    role text NOT NULL,
    invited_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT project_members_role_check CHECK ((role = ANY (ARRAY['editor'::text, 'viewer'::text]))),
    CONSTRAINT project_members_pkey PRIMARY KEY (project_id, user_id),
    CONSTRAINT project_members_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.studio_projects(id) ON DELETE CASCADE,
    CONSTRAINT project_members_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX project_members_user_idx ON public.project_members USING btree (user_id);
ALTER TABLE public.project_members ENABLE ROW LEVEL SECURITY;

-- One Yjs update (or, after compaction, a snapshot of the whole document) per row, base64. The size
-- bound is the client's MAX_MESSAGE_BYTES (256 KiB) in base64: nothing larger is stored or relayed.
CREATE TABLE public.project_updates (
    id bigint NOT NULL,
    project_id uuid NOT NULL,
    author_id uuid DEFAULT auth.uid() NOT NULL,
    kind text DEFAULT 'update'::text NOT NULL,
    body text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT project_updates_body_check CHECK (((char_length(body) >= 4) AND (char_length(body) <= 349528) AND (body ~
        '^[A-Za-z0-9+/]+={0,2}$'::text) AND ((char_length(body) % 4) = 0))),
    CONSTRAINT project_updates_kind_check CHECK ((kind = ANY (ARRAY['update'::text, 'snapshot'::text]))),
    CONSTRAINT project_updates_pkey PRIMARY KEY (id),
    CONSTRAINT project_updates_author_id_fkey FOREIGN KEY (author_id) REFERENCES auth.users(id) ON DELETE CASCADE,
    CONSTRAINT project_updates_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.studio_projects(id) ON DELETE CASCADE
);
ALTER TABLE public.project_updates ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.project_updates_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
CREATE INDEX project_updates_project_idx ON public.project_updates USING btree (project_id, id);
ALTER TABLE public.project_updates ENABLE ROW LEVEL SECURITY;

-- An invite link: whoever signs in with its token while it is valid joins the project with its role.
-- The token is the secret (a random uuid, 122 bits); it expires (at most 30 days after it was made)
-- and the owner can revoke it at any time. Accepting goes through accept_project_invite only.
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

-- 'owner', 'editor', 'viewer' or null: the caller's part in a project. Security definer so the
-- policies of both tables can ask it without reading each other through RLS.
create or replace function public.project_role(p_project uuid) returns text
language sql stable security definer set search_path = '' as $$
  select case
    when exists (select 1 from public.studio_projects p where p.id = p_project and p.user_id = auth.uid()) then 'owner'
    else (select m.role from public.project_members m where m.project_id = p_project and m.user_id = auth.uid())
  end
$$;

-- Whether the caller may receive (p_write false) or send (p_write true) on a Realtime topic
-- 'project:<id>': for the policies on realtime.messages of private channels.
create or replace function public.project_topic_allowed(p_topic text, p_write boolean) returns boolean
language plpgsql stable security definer set search_path = '' as $$
declare
  v_role text;
begin
  if p_topic is null or p_topic !~ '^project:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return false;
  end if;
  v_role := public.project_role(substring(p_topic from 9)::uuid);
  return v_role is not null and (not p_write or v_role in ('owner', 'editor'));
end
$$;

-- The owner adds or changes a collaborator by username.
create or replace function public.invite_project_member(p_project uuid, p_username text, p_role text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_user uuid;
  v_name text;
begin
  if v_uid is null then
    raise exception 'Sign in to share a project.' using errcode = '42501';
  end if;
  if p_role is null or p_role not in ('editor', 'viewer') then
    raise exception 'A collaborator is an editor or a viewer.' using errcode = '22023';
  end if;
  perform 1 from public.studio_projects where id = p_project and user_id = v_uid for update;
  if not found then
    raise exception 'Only the owner of a project can invite to it.' using errcode = '42501';
  end if;
  select user_id, username into v_user, v_name from public.profiles where lower(username) = lower(btrim(coalesce(p_username, '')));
  if v_user is null then
    raise exception 'No creator is called %.', coalesce(btrim(p_username), '') using errcode = '22023';
  end if;
  if v_user = v_uid then
    raise exception 'You own this project already.' using errcode = '22023';
  end if;
  insert into public.project_members (project_id, user_id, role) values (p_project, v_user, p_role)
  on conflict (project_id, user_id) do update set role = excluded.role;
  return json_build_object('user_id', v_user, 'username', v_name, 'role', p_role);
end
$$;

-- The owner makes an invite link valid for p_hours (1 hour to 30 days).
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

-- The owner revokes an invite link: nobody joins with it any more (who joined stays until removed).
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

-- A signed-in creator joins with an invite link's token; refused, saying why, when it is unknown,
-- revoked or expired. An editor who follows a viewer's link stays an editor.
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

-- Shared audio: a project's audio lives in the bucket 'studio-audio' in its uploader's folder,
-- '<uploader>/<project>/<file>' (the owner's project copy uses the same names, so it is shared
-- too). A member of the project reads a file there when the uploader is the owner or an editor of
-- that project: a stranger's upload into a folder named after the project is never served.
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

-- Where a project's audio file is (its object name), for a member; null when nobody uploaded it.
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

-- Replaces the project's rows up to p_through with one snapshot of the whole document.
create or replace function public.compact_project_updates(p_project uuid, p_through bigint, p_snapshot text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if coalesce(public.project_role(p_project), 'viewer') not in ('owner', 'editor') then
    raise exception 'Only the owner and editors of a project can compact its history.' using errcode = '42501';
  end if;
  -- Locked: two editors compacting at once take turns (each snapshot holds everything anyway).
  perform 1 from public.studio_projects where id = p_project for update;
  insert into public.project_updates (project_id, author_id, kind, body) values (p_project, auth.uid(), 'snapshot', p_snapshot);
  delete from public.project_updates where project_id = p_project and id <= p_through;
end
$$;

-- The projects shared with the caller (names come from studio_projects, which only owners read).
create or replace function public.my_shared_projects() returns json
language sql stable security definer set search_path = '' as $$
  select coalesce(json_agg(json_build_object('id', p.id, 'name', p.name, 'owner', pr.username, 'role', m.role) order by p.name), '[]'::json)
    from public.project_members m
    join public.studio_projects p on p.id = m.project_id
    left join public.profiles pr on pr.user_id = p.user_id
   where m.user_id = auth.uid()
$$;

CREATE POLICY "collaborators see who is in the project" ON public.project_members FOR SELECT TO authenticated USING ((( SELECT
    public.project_role(project_members.project_id) AS project_role) IS NOT NULL));
CREATE POLICY "owners change collaborator roles" ON public.project_members FOR UPDATE TO authenticated USING ((( SELECT
    public.project_role(project_members.project_id) AS project_role) = 'owner'::text)) WITH CHECK ((( SELECT
    public.project_role(project_members.project_id) AS project_role) = 'owner'::text));
CREATE POLICY "owners remove collaborators, collaborators leave" ON public.project_members FOR DELETE TO authenticated USING (((
    SELECT public.project_role(project_members.project_id) AS project_role) = 'owner'::text) OR (user_id = ( SELECT auth.uid() AS
    uid)));
CREATE POLICY "collaborators read project updates" ON public.project_updates FOR SELECT TO authenticated USING ((( SELECT
    public.project_role(project_updates.project_id) AS project_role) IS NOT NULL));
CREATE POLICY "owners and editors add updates" ON public.project_updates FOR INSERT TO authenticated WITH CHECK (((author_id = (
    SELECT auth.uid() AS uid)) AND (kind = 'update'::text) AND (( SELECT public.project_role(project_updates.project_id) AS
    project_role) = ANY (ARRAY['owner'::text, 'editor'::text]))));
CREATE POLICY "owners see their invite links" ON public.project_invites FOR SELECT TO authenticated USING ((( SELECT
    public.project_role(project_invites.project_id) AS project_role) = 'owner'::text));
CREATE POLICY "two-factor sessions only" ON public.project_invites AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.project_members AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));
CREATE POLICY "two-factor sessions only" ON public.project_updates AS RESTRICTIVE TO authenticated USING (( SELECT
    public.aal_satisfied() AS aal_satisfied)) WITH CHECK (( SELECT public.aal_satisfied() AS aal_satisfied));

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.project_members, public.project_updates FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON TABLE public.project_members, public.project_updates TO service_role;
GRANT DELETE, SELECT ON TABLE public.project_members TO authenticated;
GRANT UPDATE (role) ON TABLE public.project_members TO authenticated;
GRANT INSERT (project_id, kind, body), SELECT ON TABLE public.project_updates TO authenticated;
REVOKE ALL ON TABLE public.project_invites FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON TABLE public.project_invites TO service_role;
GRANT SELECT ON TABLE public.project_invites TO authenticated;
REVOKE ALL ON FUNCTION public.create_project_invite(p_project uuid, p_role text, p_hours integer),
    public.revoke_project_invite(p_invite uuid), public.accept_project_invite(p_token uuid) FROM PUBLIC, anon, authenticated,
    service_role;
GRANT ALL ON FUNCTION public.create_project_invite(p_project uuid, p_role text, p_hours integer),
    public.revoke_project_invite(p_invite uuid), public.accept_project_invite(p_token uuid) TO authenticated, service_role;
REVOKE ALL ON FUNCTION public.project_audio_readable(p_name text), public.project_audio_path(p_project uuid, p_file text) FROM
    PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.project_audio_readable(p_name text), public.project_audio_path(p_project uuid, p_file text) TO
    authenticated, service_role;
REVOKE ALL ON SEQUENCE public.project_updates_id_seq FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON SEQUENCE public.project_updates_id_seq TO service_role;
REVOKE ALL ON FUNCTION public.my_shared_projects() FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.my_shared_projects() TO authenticated, service_role;
REVOKE ALL ON FUNCTION public.project_role(p_project uuid), public.project_topic_allowed(p_topic text, p_write boolean),
    public.invite_project_member(p_project uuid, p_username text, p_role text), public.compact_project_updates(p_project uuid,
    p_through bigint, p_snapshot text) FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.project_role(p_project uuid), public.project_topic_allowed(p_topic text, p_write boolean),
    public.invite_project_member(p_project uuid, p_username text, p_role text), public.compact_project_updates(p_project uuid,
    p_through bigint, p_snapshot text) TO authenticated, service_role;

-- Realtime Authorization for a project's room: members receive its broadcasts (and presence),
-- the owner and editors send. Every other private topic stays closed (no policy, no access).
create policy "project members receive their room" on realtime.messages
  for select to authenticated using (public.project_topic_allowed(realtime.topic(), false));
create policy "project editors send to their room" on realtime.messages
  for insert to authenticated with check (public.project_topic_allowed(realtime.topic(), true));
-- A viewer is seen in the room (Realtime presence, extension 'presence') but never sends to it:
-- a broadcast (a document update) still needs the editors' policy above.
create policy "project members track presence in their room" on realtime.messages
  for insert to authenticated with check (extension = 'presence' and public.project_topic_allowed(realtime.topic(), false));

-- Members of a project read its shared audio (see project_audio_readable); uploads stay in each
-- creator's own folder under the bucket's owner policies, counted against their quota.
CREATE POLICY "studio audio: project members read" ON storage.objects FOR SELECT TO authenticated USING (((bucket_id =
    'studio-audio'::text) AND public.project_audio_readable(name)));
