-- mfa policy statement lines: written by `npm run db:diff` from the difference between the migrations and
-- supabase/schemas/ (where each object's comment says why it is so).

set check_function_bodies = off;

create or replace function public.add_mfa_policy(p_table text) returns void
language plpgsql set search_path = '' as $$
begin
  execute format('drop policy if exists "two-factor sessions only" on public.%I', p_table);
  execute format(
    'create policy "two-factor sessions only" on public.%I as restrictive for all to authenticated'
    || ' using ((select public.aal_satisfied())) with check ((select public.aal_satisfied()))',
    p_table
  );
end
$$;

reset check_function_bodies;
