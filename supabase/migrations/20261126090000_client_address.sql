-- The client's network address, as the API gateway reports it, for the economy's per-client rules
-- (sign-ups and links per address, "a distinct visitor and client", accounts on one client).
--
-- PostgREST publishes the request's headers to SQL as request.headers. Behind hosted Supabase the
-- gateway (Cloudflare, then the API gateway) sets CF-Connecting-IP and X-Forwarded-For; the local
-- backend sets X-Forwarded-For to the socket's peer and drops any the client sent
-- (supabase/local/core/caller.ts). A call with no request (a migration, psql, a test's SQL) has no
-- address: null, and rules that need one treat it as its own unknown client.
create function public.client_address() returns text
language sql
stable
set search_path = ''
as $$
  select nullif(btrim(coalesce(
    h ->> 'cf-connecting-ip',
    split_part(h ->> 'x-forwarded-for', ',', 1)
  )), '')
  from (select nullif(current_setting('request.headers', true), '')::json as h) r
$$;
revoke execute on function public.client_address() from public, anon, authenticated;
