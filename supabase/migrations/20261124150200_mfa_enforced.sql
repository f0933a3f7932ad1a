-- Two-factor authentication is enforced by the server, not only asked for by the app: once an
-- account has a verified TOTP factor, a session that has proven only the password (aal1) sees and
-- changes nothing of any table. Supabase's pattern: a RESTRICTIVE policy on every table of the
-- public schema, true for accounts without a verified factor and for aal2 sessions.
-- Runs after every feature's migration so it covers all their tables; a table added later gets
-- the same policy with `select public.add_mfa_policy('<table>')` in its migration.

create function public.aal_satisfied() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2'
      or not exists (select 1 from auth.mfa_factors where user_id = auth.uid() and status = 'verified')
$$;
revoke execute on function public.aal_satisfied() from public;
grant execute on function public.aal_satisfied() to anon, authenticated, service_role;

create function public.add_mfa_policy(p_table text) returns void
language plpgsql
set search_path = ''
as $$
begin
  execute format('drop policy if exists "two-factor sessions only" on public.%I', p_table);
  execute format('create policy "two-factor sessions only" on public.%I as restrictive for all to authenticated using ((select public.aal_satisfied())) with check ((select public.aal_satisfied()))', p_table);
end
$$;
revoke execute on function public.add_mfa_policy(text) from public, anon, authenticated;

do $$
declare
  t record;
begin
  for t in select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'public' and c.relkind = 'r' and c.relrowsecurity loop
    perform public.add_mfa_policy(t.relname);
  end loop;
end
$$;
