-- signup email problem: written by `npm run db:diff` from the difference between the migrations and
-- supabase/schemas/ (where each object's comment says why it is so).

set check_function_bodies = off;

create or replace function public.signup_confirms_email() returns boolean
language sql stable set search_path = '' as $$
  select coalesce(nullif(current_setting('app.signup_confirms_email', true), ''), 'on') <> 'off'
$$;

revoke all on function public.signup_confirms_email() from public, anon, authenticated, service_role;

grant EXECUTE on function public.signup_confirms_email() to service_role;

create or replace function public.signup_email_problem(p_email text) returns text
language plpgsql volatile security definer set search_path = '' as $$
begin
  if public.signup_confirms_email() then
    return null;
  end if;
  if not public.client_rate_take('signup_email_problem', public.client_address(), 60) then
    return null;
  end if;
  if exists (select 1 from auth.users where email = lower(btrim(coalesce(p_email, ''))) and email_confirmed_at is not null) then
    return 'User already registered';
  end if;
  return null;
end
$$;

revoke all on function public.signup_email_problem(text) from public, anon, authenticated, service_role;

grant EXECUTE on function public.signup_email_problem(text) to anon;

grant EXECUTE on function public.signup_email_problem(text) to authenticated;

grant EXECUTE on function public.signup_email_problem(text) to service_role;

reset check_function_bodies;
