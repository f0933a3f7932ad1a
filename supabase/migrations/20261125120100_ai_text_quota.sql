-- Issue 22, item 10: ai-text makes the server call the administrator's paid provider, so it is
-- metered: a daily quota per user and one for the whole site (UTC days), counted atomically in
-- SQL by public.ai_text_take(), which only the server (service role) calls, before the provider.

/** The quotas (one row). Change them with SQL: update public.ai_text_quota set per_user_daily = …; */
create table public.ai_text_quota (
  id boolean primary key default true check (id),
  per_user_daily int not null default 30 check (per_user_daily between 0 and 100000),
  global_daily int not null default 1000 check (global_daily between 0 and 10000000)
);
insert into public.ai_text_quota (id) values (true);

/** Calls per user per UTC day, and for the whole site. */
create table public.ai_text_usage (
  day date not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  calls int not null check (calls >= 0),
  primary key (day, user_id)
);
create table public.ai_text_usage_total (
  day date primary key,
  calls int not null check (calls >= 0)
);

alter table public.ai_text_quota enable row level security;
alter table public.ai_text_usage enable row level security;
alter table public.ai_text_usage_total enable row level security;
revoke all on table public.ai_text_quota, public.ai_text_usage, public.ai_text_usage_total from anon, authenticated;
grant all on table public.ai_text_quota, public.ai_text_usage, public.ai_text_usage_total to service_role;

/**
 * Takes one call of today's quotas for p_user, or none: the site-wide count first, then the
 * user's, each a conditional upsert that holds its row's lock, so concurrent calls can never pass
 * a limit. A user over their quota gives the site-wide call back in the same transaction.
 * → { ok: true, used, per_user_daily } or { ok: false, scope: 'user' | 'global', limit }
 */
create function public.ai_text_take(p_user uuid) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_day date := (now() at time zone 'utc')::date;
  v_quota public.ai_text_quota;
  v_total int;
  v_used int;
begin
  select * into v_quota from public.ai_text_quota where id;
  if v_quota.global_daily < 1 then
    return json_build_object('ok', false, 'scope', 'global', 'limit', v_quota.global_daily);
  end if;
  insert into public.ai_text_usage_total as t (day, calls) values (v_day, 1)
  on conflict (day) do update set calls = t.calls + 1 where t.calls < v_quota.global_daily
  returning calls into v_total;
  if v_total is null then
    return json_build_object('ok', false, 'scope', 'global', 'limit', v_quota.global_daily);
  end if;
  if v_quota.per_user_daily >= 1 then
    insert into public.ai_text_usage as u (day, user_id, calls) values (v_day, p_user, 1)
    on conflict (day, user_id) do update set calls = u.calls + 1 where u.calls < v_quota.per_user_daily
    returning calls into v_used;
  end if;
  if v_used is null then
    update public.ai_text_usage_total set calls = calls - 1 where day = v_day;
    return json_build_object('ok', false, 'scope', 'user', 'limit', v_quota.per_user_daily);
  end if;
  return json_build_object('ok', true, 'used', v_used, 'per_user_daily', v_quota.per_user_daily);
end
$$;

revoke execute on function public.ai_text_take(uuid) from public, anon, authenticated;
grant execute on function public.ai_text_take(uuid) to service_role;
