-- Realtime: the local change feed trigger, the hosted supabase_realtime publication and Realtime Authorization.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

CREATE SCHEMA cube_realtime;

-- Realtime Authorization, as hosted Realtime defines it in every project (its tenant migrations):
-- a client joins a private channel (config.private) when a SELECT policy on realtime.messages lets
-- its JWT's role and claims read a row of the channel's topic, and may send broadcasts or track
-- presence there when an INSERT policy lets it write one. Policies read the topic with
-- realtime.topic() and the row's extension ('broadcast' or 'presence'). With RLS on and no policy,
-- no private channel can be joined. The rows are only probes: the check runs in a transaction that
-- is rolled back. On a hosted project these objects exist already (owned by Realtime's admin role),
-- so the migration creates each only where it is missing.
CREATE SCHEMA realtime;

CREATE TABLE realtime.messages (
    topic text NOT NULL,
    extension text NOT NULL,
    payload jsonb,
    event text,
    private boolean DEFAULT true,
    updated_at timestamp without time zone DEFAULT now() NOT NULL,
    inserted_at timestamp without time zone DEFAULT now() NOT NULL,
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    CONSTRAINT messages_pkey PRIMARY KEY (id, inserted_at)
);
ALTER TABLE realtime.messages ENABLE ROW LEVEL SECURITY;

-- Sends {schema, table, type, pk, identity, commit_timestamp}: the primary key of the changed row
-- and, for an UPDATE or DELETE, the old row's replica identity as logical replication would carry it
-- to hosted Realtime (the primary key by default, every column with REPLICA IDENTITY FULL, the
-- index's columns with USING INDEX, nothing with NOTHING): what a DELETE is filtered on. Never the
-- whole new row (the row is re-read per subscriber anyway). NOTIFY payloads are limited to 8000
-- bytes: a larger identity keeps only its values of at most 64 bytes and says so (too_large), as
-- hosted Realtime cuts a record over its size limit. Column names given as trigger arguments are
-- not read (they were what DELETEs were filtered on before the replica identity was).
create or replace function cube_realtime.notify_change() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_row jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
  v_old jsonb := case when tg_op = 'INSERT' then null else to_jsonb(old) end;
  v_pk jsonb := '{}'::jsonb;
  v_identity jsonb := '{}'::jsonb;
  v_replident "char";
  v_name text;
  v_payload jsonb;
begin
  for v_name in
    select a.attname from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
     where i.indrelid = tg_relid and i.indisprimary
  loop
    v_pk := v_pk || jsonb_build_object(v_name, v_row -> v_name);
  end loop;
  if v_old is not null then
    select c.relreplident into v_replident from pg_class c where c.oid = tg_relid;
    if v_replident = 'f' then
      v_identity := v_old;
    elsif v_replident = 'd' then
      v_identity := (select coalesce(jsonb_object_agg(k, v_old -> k), '{}'::jsonb) from jsonb_object_keys(v_pk) k);
    elsif v_replident = 'i' then
      for v_name in
        select a.attname from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
         where i.indrelid = tg_relid and i.indisreplident
      loop
        v_identity := v_identity || jsonb_build_object(v_name, v_old -> v_name);
      end loop;
    end if;
  end if;
  v_payload := jsonb_build_object(
    'schema', tg_table_schema, 'table', tg_table_name, 'type', tg_op,
    'pk', v_pk, 'identity', v_identity, 'commit_timestamp', now()
  );
  if octet_length(v_payload::text) > 7900 then
    v_identity := (select coalesce(jsonb_object_agg(key, value), '{}'::jsonb) from jsonb_each(v_identity)
                    where octet_length(value::text) <= 64);
    v_payload := jsonb_set(v_payload, '{identity}', v_identity) || jsonb_build_object('too_large', true);
  end if;
  perform pg_notify('cube_realtime', v_payload::text);
  return null;
end
$$;

-- The topic of the channel being authorised (without realtime-js's "realtime:" prefix).
create or replace function realtime.topic() returns text
language sql stable as $$
  select nullif(current_setting('realtime.topic', true), '')::text;
$$;

-- The tables whose changes a hosted project streams to subscribed clients (the local backend
-- streams them with cube_realtime.notify_change triggers instead; it has no publication).
do $$
begin
  if exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    alter publication supabase_realtime add table public.comment_likes, public.comments, public.notifications, public.proposals,
        public.share_links, public.votes;
  end if;
end
$$;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON SCHEMA cube_realtime, realtime FROM PUBLIC, anon, authenticated, service_role;
GRANT USAGE ON SCHEMA realtime TO anon, authenticated, service_role;
REVOKE ALL ON TABLE realtime.messages FROM PUBLIC, anon, authenticated, service_role;
GRANT INSERT, SELECT, UPDATE ON TABLE realtime.messages TO anon, authenticated, service_role;
REVOKE ALL ON FUNCTION cube_realtime.notify_change(), realtime.topic() FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION realtime.topic() TO anon, authenticated, public, service_role;
