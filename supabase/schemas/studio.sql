-- Studio projects and remixes (burning, refunds, lineage).
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

CREATE TABLE public.remixes (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    attempt_key text NOT NULL,
    source_ref text NOT NULL,
    cost integer NOT NULL,
    status text DEFAULT 'burned'::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT remixes_attempt_key_check CHECK (((char_length(attempt_key) >= 8) AND (char_length(attempt_key) <= 100))),
    CONSTRAINT remixes_cost_check CHECK ((cost > 0)),
    CONSTRAINT remixes_source_ref_check CHECK (((char_length(source_ref) >= 1) AND (char_length(source_ref) <= 200))),
    CONSTRAINT remixes_status_check CHECK ((status = ANY (ARRAY['burned'::text, 'rendered'::text, 'refunded'::text]))),
    CONSTRAINT remixes_pkey PRIMARY KEY (id),
    CONSTRAINT remixes_user_id_attempt_key_key UNIQUE (user_id, attempt_key),
    CONSTRAINT remixes_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX remixes_user_created_idx ON public.remixes USING btree (user_id, created_at DESC);
ALTER TABLE public.remixes ENABLE ROW LEVEL SECURITY;
CREATE POLICY remixes_read_own ON public.remixes FOR SELECT TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)));

-- Music Studio projects listed in the account. Only metadata lives here: the mix and its audio
-- stay in the browser's IndexedDB (src/engine/project-db.ts), and `id` is that local project's id, so
-- a browser can tell whether it holds a listed project's audio.
CREATE TABLE public.studio_projects (
    id uuid NOT NULL,
    user_id uuid DEFAULT auth.uid() NOT NULL,
    name text NOT NULL,
    track_count integer DEFAULT 0 NOT NULL,
    duration_seconds numeric DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    audio_uploaded_at timestamp with time zone,
    CONSTRAINT studio_projects_duration_seconds_check CHECK ((duration_seconds >= (0)::numeric)),
    CONSTRAINT studio_projects_name_check CHECK (((char_length(btrim(name)) >= 1) AND (char_length(btrim(name)) <= 120) AND
        (char_length(name) <= 120))),
    CONSTRAINT studio_projects_track_count_check CHECK ((track_count >= 0)),
    CONSTRAINT studio_projects_pkey PRIMARY KEY (id),
    CONSTRAINT studio_projects_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX studio_projects_user_idx ON public.studio_projects USING btree (user_id);
ALTER TABLE public.studio_projects ENABLE ROW LEVEL SECURITY;

-- An upsert of another user's id fails the with-check (it cannot take over their row), and the
-- using clause hides other users' rows from select, update and delete.
CREATE POLICY "owners manage their studio projects" ON public.studio_projects TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid))) WITH CHECK ((user_id = ( SELECT auth.uid() AS uid)));

create or replace function public.record_remix_source(p_song_id text, p_remix_id uuid) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid('Sign in to record where a remix comes from.');
  v_song public.songs;
  v_remix public.remixes;
  v_source text;
begin
  select * into v_song from public.songs where id = p_song_id for update;
  if not found or v_song.owner_id is distinct from v_uid then
    raise exception 'Only the creator of a published song can say which remix it is.' using errcode = '42501';
  end if;
  -- Locked: two publications racing for one remix take turns (the second is refused below).
  select * into v_remix from public.remixes where id = p_remix_id and user_id = v_uid for update;
  if not found then
    raise exception 'This is not one of your remixes.' using errcode = '42501';
  end if;
  if v_remix.status <> 'rendered' then
    raise exception 'Only a finished remix can be published as one (this one is %).', v_remix.status using errcode = '22023';
  end if;
  -- Once: the same pair again answers the same, anything else is refused.
  if v_song.remix_id is not null then
    if v_song.remix_id = p_remix_id then
      return json_build_object('remix_of', v_song.remix_of, 'recorded', false);
    end if;
    raise exception 'This song is already published as another remix.' using errcode = '22023';
  end if;
  if exists (select 1 from public.songs where remix_id = p_remix_id) then
    raise exception 'This remix is already published as another song.' using errcode = '22023';
  end if;
  select id into v_source from public.songs where id = v_remix.source_ref and id <> p_song_id;
  update public.songs set remix_id = p_remix_id, remix_of = v_source where id = p_song_id;
  return json_build_object('remix_of', v_source, 'recorded', true);
end
$$;

-- remix_burn
CREATE OR REPLACE FUNCTION public.remix_burn(p_source text, p_attempt_key text)
 RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path TO '' AS $function$
declare
  v_uid uuid := public.require_uid();
  v_cost int := ((public.remix_rules()) ->> 'cost')::int;
  v_balance int;
  v_remix public.remixes;
begin
  if p_source is null or char_length(p_source) not between 1 and 200 then
    raise exception 'invalid_reference' using errcode = '22023';
  end if;
  if p_attempt_key is null or char_length(p_attempt_key) not between 8 and 100 then
    raise exception 'invalid_attempt_key' using errcode = '22023';
  end if;

  -- The wallet row lock serialises every burn of this user (two tabs, double clicks).
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  if not found then
    raise exception 'insufficient_balance';
  end if;

  select * into v_remix from public.remixes where user_id = v_uid and attempt_key = p_attempt_key;
  if found then
    if v_remix.source_ref <> p_source then
      raise exception 'attempt_key_reused' using errcode = '22023';
    end if;
    return json_build_object('remix_id', v_remix.id, 'status', v_remix.status, 'balance', v_balance, 'charged', false);
  end if;

  if v_balance < v_cost then
    raise exception 'insufficient_balance';
  end if;

  insert into public.remixes (user_id, attempt_key, source_ref, cost)
  values (v_uid, p_attempt_key, p_source, v_cost)
  returning * into v_remix;
  v_balance := public.post_ledger(v_uid, -v_cost, 'remix', p_source, 'remix:' || v_uid::text || ':' || p_attempt_key);
  return json_build_object('remix_id', v_remix.id, 'status', v_remix.status, 'balance', v_balance, 'charged', true);
end
$function$;

create or replace function public.remix_complete(p_remix_id uuid) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_remix public.remixes;
begin
  v_remix := public.own_remix_locked(p_remix_id, v_uid);
  if v_remix.status = 'refunded' then
    raise exception 'remix_refunded' using errcode = '22023';
  end if;
  update public.remixes set status = 'rendered', updated_at = clock_timestamp() where id = p_remix_id;
  return json_build_object('remix_id', p_remix_id, 'status', 'rendered');
end
$$;

-- remix_refund
CREATE OR REPLACE FUNCTION public.remix_refund(p_remix_id uuid)
 RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path TO '' AS $function$
declare
  v_uid uuid := public.require_uid();
  v_remix public.remixes;
  v_balance int;
begin
  -- Same lock order as remix_burn (wallet first), then the attempt.
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  v_remix := public.own_remix_locked(p_remix_id, v_uid);
  if v_remix.status = 'rendered' then
    raise exception 'remix_rendered' using errcode = '22023';
  end if;
  if v_remix.status = 'refunded' then
    return json_build_object('remix_id', p_remix_id, 'status', 'refunded', 'balance', v_balance, 'refunded', false);
  end if;
  v_balance := public.post_ledger(v_uid, v_remix.cost, 'remix_refund', v_remix.source_ref, 'remix_refund:' || v_uid::text || ':' ||
      v_remix.attempt_key);
  update public.remixes set status = 'refunded', updated_at = clock_timestamp() where id = p_remix_id;
  return json_build_object('remix_id', p_remix_id, 'status', 'refunded', 'balance', v_balance, 'refunded', true);
end
$function$;

create or replace function public.remix_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object('cost', 50)
$$;

-- The caller's remix attempt, locked for the rest of the transaction, or remix_not_found.
create or replace function public.own_remix_locked(p_remix_id uuid, p_user uuid) returns public.remixes
language plpgsql set search_path = '' as $$
declare
  v_remix public.remixes;
begin
  select * into v_remix from public.remixes where id = p_remix_id and user_id = p_user for update;
  if not found then
    raise exception 'remix_not_found' using errcode = '22023';
  end if;
  return v_remix;
end
$$;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.remixes, public.studio_projects FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON TABLE public.remixes, public.studio_projects TO service_role;
GRANT DELETE, INSERT, SELECT, UPDATE ON TABLE public.studio_projects TO authenticated;
GRANT SELECT ON TABLE public.remixes TO authenticated;
REVOKE ALL ON FUNCTION public.record_remix_source(p_song_id text, p_remix_id uuid), public.remix_burn(p_source text, p_attempt_key
    text), public.remix_complete(p_remix_id uuid), public.remix_refund(p_remix_id uuid), public.remix_rules(),
    public.own_remix_locked(p_remix_id uuid, p_user uuid) FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.remix_rules() TO anon, authenticated, public, service_role;
GRANT ALL ON FUNCTION public.record_remix_source(p_song_id text, p_remix_id uuid), public.remix_burn(p_source text, p_attempt_key
    text), public.remix_complete(p_remix_id uuid), public.remix_refund(p_remix_id uuid) TO authenticated, service_role;
GRANT ALL ON FUNCTION public.own_remix_locked(p_remix_id uuid, p_user uuid) TO service_role;
