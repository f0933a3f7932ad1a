-- Realtime Authorization (realtime.messages, realtime.topic()) as hosted Realtime defines them, and
-- the change feed's old-row replica identity, which filtered DELETE events are matched on.
--
-- A hosted project has the realtime schema, its messages table and topic() already, owned by
-- Realtime's admin role (which the migration role may not alter): each is created only where it is
-- missing, so on hosted only cube_realtime.notify_change() below changes.

do $$
begin
  if to_regnamespace('realtime') is null then
    create schema realtime;
    grant usage on schema realtime to anon, authenticated, service_role;
  end if;
  if to_regclass('realtime.messages') is null then
    create table realtime.messages (
        topic text not null,
        extension text not null,
        payload jsonb,
        event text,
        private boolean default true,
        updated_at timestamp without time zone default now() not null,
        inserted_at timestamp without time zone default now() not null,
        id uuid default gen_random_uuid() not null,
        constraint messages_pkey primary key (id, inserted_at)
    );
    alter table realtime.messages enable row level security;
    grant select, insert, update on realtime.messages to anon, authenticated, service_role;
  end if;
  if to_regprocedure('realtime.topic()') is null then
    create function realtime.topic() returns text
    language sql stable as $f$
  select nullif(current_setting('realtime.topic', true), '')::text;
$f$;
    grant execute on function realtime.topic() to anon, authenticated, service_role;
  end if;
end
$$;

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

