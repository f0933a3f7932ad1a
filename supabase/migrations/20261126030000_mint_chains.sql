-- The enabled chains as the mint function sees them, so it can say which ones it can mint on
-- (issue 26 item 8: the page offered chains that then failed with "Provider for … not initialized").
create function public.enabled_blockchains() returns json
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(json_agg(row_to_json(c) order by c.sort), '[]'::json)
  from public.blockchain_configs c
  where c.enabled
$$;
revoke execute on function public.enabled_blockchains() from public, anon, authenticated;
grant execute on function public.enabled_blockchains() to service_role;
