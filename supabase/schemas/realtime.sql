-- Realtime: the local change feed trigger and the hosted supabase_realtime publication.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

CREATE SCHEMA cube_realtime;

-- Sends {schema, table, type, pk, cols, commit_timestamp}: the primary key of the changed row and
-- the columns named in the trigger's arguments (those subscribers may filter on), never the whole
-- row (NOTIFY payloads are limited to 8000 bytes, and the row is re-read per subscriber anyway).
create or replace function cube_realtime.notify_change() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_row jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
  v_pk jsonb := '{}'::jsonb;
  v_cols jsonb := '{}'::jsonb;
  v_name text;
begin
  for v_name in
    select a.attname from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
     where i.indrelid = tg_relid and i.indisprimary
  loop
    v_pk := v_pk || jsonb_build_object(v_name, v_row -> v_name);
  end loop;
  if tg_nargs > 0 then
    foreach v_name in array tg_argv loop
      v_cols := v_cols || jsonb_build_object(v_name, v_row -> v_name);
    end loop;
  end if;
  perform pg_notify('cube_realtime', jsonb_build_object(
    'schema', tg_table_schema, 'table', tg_table_name, 'type', tg_op,
    'pk', v_pk, 'cols', v_cols, 'commit_timestamp', now()
  )::text);
  return null;
end
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
REVOKE ALL ON FUNCTION cube_realtime.notify_change() FROM PUBLIC, anon, authenticated, service_role;
