-- Per-client-address rate limits for server code that runs without memory between calls (edge
-- functions on hosted Supabase): wallet-verify allows a number of wallet links per client address
-- per hour (issue 23, "Accounts and the faucet"). The edge function reads the client's address from
-- the gateway's X-Forwarded-For (the local backend puts the socket's peer there) and takes one
-- from the limit before it links; the limit itself is the function's configuration
-- (WALLET_LINK_RATE_LIMIT). Sign-ups are limited in the auth service itself, as GoTrue does.
--
-- One row per (bucket, client, hour): fixed one-hour windows starting on the hour (UTC). Service
-- role only; no API role reads or writes the table or calls the function.

create table public.client_rate_limits (
  bucket text not null check (char_length(bucket) between 1 and 40),
  client text not null check (char_length(client) between 1 and 100),
  window_start timestamptz not null,
  hits int not null check (hits > 0),
  primary key (bucket, client, window_start)
);
alter table public.client_rate_limits enable row level security;
revoke all on table public.client_rate_limits from anon, authenticated;
grant all on table public.client_rate_limits to service_role;
select public.add_mfa_policy('client_rate_limits');

-- Takes one hit for `p_client` in `p_bucket` in the current window of `p_window_seconds` (a
-- divisor of a day: windows start at whole multiples of it since midnight UTC). True when the
-- hit was within `p_limit`; false (and nothing counted) when the limit was already reached. The
-- conditional upsert holds the row lock, so concurrent calls never count past the limit.
create function public.client_rate_take(p_bucket text, p_client text, p_limit int, p_window_seconds int default 3600) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_window timestamptz := to_timestamp(floor(extract(epoch from clock_timestamp()) / p_window_seconds) * p_window_seconds);
  v_client text := left(coalesce(nullif(btrim(p_client), ''), 'unknown'), 100);
  v_hits int;
begin
  if p_limit is null or p_limit < 1 or p_window_seconds is null or p_window_seconds < 1 then
    raise exception 'invalid_rate_limit' using errcode = '22023';
  end if;
  -- Old windows go as new ones are taken.
  delete from public.client_rate_limits where bucket = p_bucket and client = v_client and window_start < v_window;
  insert into public.client_rate_limits as l (bucket, client, window_start, hits)
  values (p_bucket, v_client, v_window, 1)
  on conflict (bucket, client, window_start) do update set hits = l.hits + 1 where l.hits < p_limit
  returning hits into v_hits;
  return v_hits is not null;
end
$$;
revoke execute on function public.client_rate_take(text, text, int, int) from public, anon, authenticated;
grant execute on function public.client_rate_take(text, text, int, int) to service_role;
