import type { LocalServer } from '../../../supabase/local/core/server.ts'

// Tables and functions shaped after PostgREST's own test fixtures (test/spec/fixtures/schema.sql,
// data.sql: items, tiobe_pls, no_pk, simple_pk, organizations, clients/projects, getitemrange,
// search, add_them, varied_arguments, json_argument, ret_setof_integers, ...), prefixed `conf_` so
// they never meet the app's schema. The conformance suites (tests/backend/conformance-*.test.ts)
// replay the upstream specs' requests against them. RLS is off: these suites test the wire, the
// RLS suites test the policies.

const SCHEMA = `
create table public.conf_items (id bigint primary key);
create table public.conf_tiobe_pls (name text primary key, rank int);
create table public.conf_no_pk (a text, b text);
create table public.conf_simple_pk (k varchar primary key, extra varchar not null);
create table public.conf_menagerie (id int primary key);
create table public.conf_organizations (id int primary key, name text, referee int, auditor int, manager_id int);
create table public.conf_clients (id int primary key, name text not null);
create table public.conf_projects (id int primary key, name text not null, client_id int references public.conf_clients(id));
create table public.conf_typed (id int primary key, doc json, data jsonb, tags text[], nums int[], at timestamptz);
create table public.conf_timestamps (t timestamptz primary key);

create function public.conf_getitemrange(min bigint, max bigint) returns setof public.conf_items
  language sql stable as $$ select * from public.conf_items where id > min and id <= max $$;
create function public.conf_search(id bigint) returns setof public.conf_items
  language sql stable as $$ select * from public.conf_items where conf_items.id = conf_search.id $$;
create function public.conf_getallprojects() returns setof public.conf_projects
  language sql stable as $$ select * from public.conf_projects $$;
create function public.conf_add_them(a int, b int) returns int language sql immutable as $$ select a + b $$;
create function public.conf_ret_setof_integers() returns setof int language sql immutable as $$ values (1), (2), (3) $$;
create function public.conf_ret_table() returns table (id int, name text)
  language sql immutable as $$ values (1, 'one'), (2, null), (3, 'three') $$;
create function public.conf_json_argument(arg json) returns text language sql immutable as $$ select json_typeof(arg) $$;
create function public.conf_varied_arguments(
  double double precision, "varchar" varchar, "boolean" boolean, "date" date, "integer" int, arr text[],
  "json" json default '{}', "jsonb" jsonb default '{}'
) returns json language sql immutable as $$
  select json_build_object('double', double, 'varchar', "varchar", 'boolean', "boolean", 'date', "date",
                           'arr', arr, 'integer', "integer", 'json', "json", 'jsonb', "jsonb")
$$;
create function public.conf_sum_array(nums int[]) returns int language sql immutable as $$ select sum(n)::int from unnest(nums) n $$;
create function public.conf_delete_items_returns_setof() returns setof public.conf_items
  language sql as $$ delete from public.conf_items returning * $$;
create function public.conf_touch() returns void language sql as $$ select 1 $$;

grant all on public.conf_items, public.conf_tiobe_pls, public.conf_no_pk, public.conf_simple_pk, public.conf_menagerie,
  public.conf_organizations, public.conf_clients, public.conf_projects, public.conf_typed, public.conf_timestamps
  to anon, authenticated;
`

// The rows of PostgREST's data.sql the suites read.
const DATA = `
truncate public.conf_items, public.conf_tiobe_pls, public.conf_no_pk, public.conf_simple_pk, public.conf_organizations,
  public.conf_projects, public.conf_clients, public.conf_typed, public.conf_timestamps;
insert into public.conf_items select generate_series(1, 15);
insert into public.conf_tiobe_pls values ('Java', 1), ('C', 2), ('Python', 3);
insert into public.conf_simple_pk values ('xyyx', 'u'), ('xYYx', 'v');
insert into public.conf_organizations values
  (1, 'Referee Org', null, null, 1), (2, 'Auditor Org', null, null, 2), (3, 'Acme', 1, 2, 3),
  (4, 'Umbrella', 1, 2, 4), (5, 'Cyberdyne', 3, 4, 5), (6, 'Oscorp', 3, 4, 6);
insert into public.conf_clients values (1, 'Microsoft'), (2, 'Apple');
insert into public.conf_projects values (1, 'Windows 7', 1), (2, 'Windows 10', 1), (3, 'IOS', 2), (4, 'OSX', 2), (5, 'Orphan', null);
insert into public.conf_timestamps values ('2023-10-18 12:37:59.611+00'), ('2023-10-18 14:37:59.611+00'), ('2023-10-18 16:37:59.611+00');
analyze public.conf_items;
`

/** Creates the fixtures once per server and makes the REST layer see them (PostgREST's schema cache reload). */
export async function createConformanceFixtures(server: LocalServer): Promise<void> {
  await server.db.exec(SCHEMA)
  await resetConformanceData(server)
  await server.backend.reloadCatalog()
}

/** Puts the upstream rows back (suites that write call it before each test). */
export async function resetConformanceData(server: LocalServer): Promise<void> {
  await server.db.exec(DATA)
}
