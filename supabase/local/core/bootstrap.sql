-- What a hosted Supabase project already provides before our migrations run: the API roles, the
-- auth schema with auth.users, and the null-safe auth.uid()/auth.role()/auth.jwt() the policies
-- call. Idempotent: applied at every start of the local backend (roles are cluster-wide on a real
-- PostgreSQL, so they may already exist).

-- The roles, each created when missing. authenticator is PostgREST's own role: its settings
-- (pgrst.db_pre_request) configure the data API, locally too.
do $$
declare
  v_role record;
begin
  for v_role in
    select * from (values ('anon', ''), ('authenticated', ''), ('service_role', ' bypassrls'), ('supabase_auth_admin', ''),
                          ('authenticator', '')) r(name, extra)
     where not exists (select 1 from pg_roles where rolname = r.name)
  loop
    execute format('create role %I nologin noinherit%s', v_role.name, v_role.extra);
  end loop;
end
$$;

create schema if not exists auth;
create schema if not exists extensions;

create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key default gen_random_uuid(),
  aud text default 'authenticated',
  role text default 'authenticated',
  email text unique,
  encrypted_password text,
  email_confirmed_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb default '{}'::jsonb,
  raw_user_meta_data jsonb default '{}'::jsonb,
  is_anonymous boolean not null default false,
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);

create table if not exists auth.sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table if not exists auth.refresh_tokens (
  id bigint generated always as identity primary key,
  token text not null unique,
  user_id uuid not null references auth.users (id) on delete cascade,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  parent text,
  revoked boolean not null default false,
  created_at timestamptz not null default now()
);
-- When a token was rotated out (GoTrue's updated_at): it may refresh again for the reuse interval.
alter table auth.refresh_tokens add column if not exists updated_at timestamptz not null default now();

-- GoTrue keeps the assurance level (AAL) a session reached: aal1 after a password, aal2 once a
-- verified MFA factor was proven in it. Refreshes keep it.
alter table auth.sessions add column if not exists aal text not null default 'aal1';
alter table auth.sessions add column if not exists factor_id uuid;

-- E-mail proof, in GoTrue's columns: each one-time link's token is kept only as its SHA-256 (the
-- mail holds the token itself) with the time it was sent, so a link works once and expires. A
-- pending e-mail change waits in email_change until the new address follows its link.
alter table auth.users add column if not exists confirmation_token text;
alter table auth.users add column if not exists confirmation_sent_at timestamptz;
alter table auth.users add column if not exists recovery_token text;
alter table auth.users add column if not exists recovery_sent_at timestamptz;
alter table auth.users add column if not exists email_change text;
alter table auth.users add column if not exists email_change_token_new text;
alter table auth.users add column if not exists email_change_sent_at timestamptz;
-- How a session began ('password', 'otp' for a confirmation link, 'recovery' for a reset link):
-- the JWT's amr, and a recovery session may set a new password without the old one.
alter table auth.sessions add column if not exists method text not null default 'password';

-- TOTP factors (GoTrue's auth.mfa_factors) and their challenges. The secret never leaves the
-- auth service after enrolment; last_step is the last accepted RFC 6238 time step, so a code that
-- was used once cannot be replayed.
create table if not exists auth.mfa_factors (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type text not null default 'totp',
  status text not null default 'unverified',
  secret text not null,
  last_step bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, friendly_name)
);

create table if not exists auth.mfa_challenges (
  id uuid primary key default gen_random_uuid(),
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null default now(),
  verified_at timestamptz
);

-- Failed TOTP codes, one row each: verification refuses while a factor or its account has too
-- many of them within the lockout period (auth/mfa-lockout.ts), so codes cannot be guessed.
create table if not exists auth.mfa_failed_attempts (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null default now()
);
create index if not exists mfa_failed_attempts_user_time on auth.mfa_failed_attempts (user_id, created_at);

-- Supabase's null-safe forms: once a transaction has set the claims locally they read back as ''
-- rather than NULL, and ''::jsonb would fail. One claim, from the old per-claim setting or the
-- claims object (local to this backend: hosted Supabase writes the same inside uid() and role());
-- SQL, so it is inlined into them and they into the policies that call them.
create or replace function auth.claim(p_name text) returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.' || p_name, true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> p_name)
  )
$$;

create or replace function auth.uid() returns uuid
language sql stable
as $$
  select auth.claim('sub')::uuid
$$;

create or replace function auth.role() returns text
language sql stable
as $$
  select auth.claim('role')
$$;

create or replace function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

grant usage on schema auth to anon, authenticated, service_role, supabase_auth_admin;
grant execute on function auth.claim(text), auth.uid(), auth.role(), auth.jwt() to anon, authenticated, service_role,
  supabase_auth_admin;
grant all on all tables in schema auth to supabase_auth_admin;
grant all on all sequences in schema auth to supabase_auth_admin;
grant usage on schema public to anon, authenticated, service_role;

-- Hosted Supabase hands every new public table and function to the API roles by default; the
-- migrations must revoke what they do not want exposed, so the local backend starts from the
-- same generous defaults.
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant execute on functions to anon, authenticated, service_role;

-- Supabase Storage's schema as a hosted project has it (the columns the Storage API and policies
-- use): buckets, objects (one row per stored object; the local backend keeps the bytes in files,
-- supabase/local/storage/files.ts) and storage.foldername() for folder-based policies. Buckets and their
-- policies come from the migrations, exactly as on a hosted project.
create schema if not exists storage;

create table if not exists storage.buckets (
  id text primary key,
  name text not null unique,
  owner uuid,
  owner_id text,
  public boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  user_metadata jsonb,
  -- Which uploaded file holds the bytes: each upload gets a new version, so an overwrite never
  -- touches the file a running download reads.
  version text,
  unique (bucket_id, name)
);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;

-- The folders of an object name: all segments but the last ('a/b/c.wav' -> {a,b}).
create or replace function storage.foldername(name text) returns text[]
language sql immutable
as $$
  select (string_to_array(name, '/'))[1:array_length(string_to_array(name, '/'), 1) - 1]
$$;

create or replace function storage.filename(name text) returns text
language sql immutable
as $$
  select (string_to_array(name, '/'))[array_length(string_to_array(name, '/'), 1)]
$$;

create or replace function storage.extension(name text) returns text
language sql immutable
as $$
  select case when storage.filename(name) like '%.%' then reverse(split_part(reverse(storage.filename(name)), '.', 1)) else '' end
$$;

-- As on hosted Supabase, the API roles may use both tables, with RLS deciding which rows (no
-- policy on buckets: they read no bucket rows; Storage reads bucket settings with its own
-- rights). Truncate, which RLS cannot filter, is not granted.
grant usage on schema storage to anon, authenticated, service_role;
grant select, insert, update, delete on storage.objects to anon, authenticated, service_role;
grant select on storage.buckets to anon, authenticated, service_role;
grant all on storage.buckets, storage.objects to service_role;
grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text) to anon, authenticated, service_role;
