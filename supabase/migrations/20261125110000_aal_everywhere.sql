-- Two-factor authentication is enforced for the whole data API, not only the tables: an account
-- with a verified TOTP factor whose session has proven only the password (aal1) may do nothing
-- but finish the challenge (the auth endpoints). RLS already hid the tables from it (see
-- 20261124150200_mfa_enforced.sql), but SECURITY DEFINER functions bypass RLS, so they could still
-- spend, vote, delegate or grant admin.
--
-- One mechanism, as hosted Supabase offers it: PostgREST's db-pre-request hook runs
-- public.check_request() inside every REST and RPC request's transaction, after the role and the
-- JWT claims are set and before the request's own statement; raising there refuses the request
-- (SQLSTATE PT403 -> HTTP 403). The local backend reads the same setting from the authenticator
-- role and runs it the same way (supabase/local/core/pre-request.ts). Storage does not go through
-- PostgREST: a restrictive policy on storage.objects covers it. Edge functions check the caller
-- themselves (supabase/functions/_shared/signed-in.ts); Realtime re-reads each row as the
-- subscriber, so the tables' policies already decide.

create function public.check_request() returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if auth.role() = 'authenticated' and not public.aal_satisfied() then
    raise sqlstate 'PT403' using
      message = 'Finish two-factor sign-in first: this account uses two-factor authentication and this session has not entered its code yet.',
      hint = 'Verify a TOTP code (auth.mfa.challenge, then auth.mfa.verify) to raise the session to aal2.';
  end if;
end
$$;
revoke execute on function public.check_request() from public;
grant execute on function public.check_request() to anon, authenticated, service_role;

-- PostgREST reads its settings from the role it logs in as; hosted projects have the
-- authenticator role, the local backend creates it (bootstrap.sql). Scoped to this database so
-- other databases of a shared cluster are not affected.
do $$
begin
  if exists (select 1 from pg_roles where rolname = 'authenticator') then
    execute format('alter role authenticator in database %I set pgrst.db_pre_request = %L', current_database(), 'public.check_request');
  end if;
end
$$;
notify pgrst, 'reload config';

drop policy if exists "two-factor sessions only" on storage.objects;
create policy "two-factor sessions only" on storage.objects
  as restrictive for all to authenticated
  using ((select public.aal_satisfied()))
  with check ((select public.aal_satisfied()));
