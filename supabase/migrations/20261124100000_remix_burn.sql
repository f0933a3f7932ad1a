-- Remix Studio: the 50 CUBE burn is the server's.
--
-- One row of public.remixes per remix attempt. The client generates one idempotency key per
-- attempt (per click of Create Remix, kept across reloads in the draft) and calls remix_burn():
--   * the same key again (double click, second tab, reload mid-burn, retry after a failed or
--     cancelled render) returns the same remix and never debits twice: a render that failed is
--     retried under the same key for free;
--   * a remix the client gives up on (the user cancels for good, or the source cannot be rendered)
--     is refunded once by remix_refund(): a +50 'remix_refund' ledger row, the attempt closed;
--   * remix_complete() marks the attempt rendered; a rendered remix is never refunded.
-- So the user never pays twice (one debit per key) and never pays for nothing (refund).
-- The ledger row's reference is the source song (catalogue id or library track id).

insert into public.ledger_reasons (reason, kind, description) values
  ('remix_refund', 'refund', 'A remix that could not be produced, given back');

create function public.remix_rules() returns json
language sql
immutable
set search_path = ''
as $$
  select json_build_object('cost', 50)
$$;

create table public.remixes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  attempt_key text not null check (char_length(attempt_key) between 8 and 100),
  source_ref text not null check (char_length(source_ref) between 1 and 200),
  cost int not null check (cost > 0),
  status text not null default 'burned' check (status in ('burned', 'rendered', 'refunded')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, attempt_key)
);
create index remixes_user_created_idx on public.remixes (user_id, created_at desc);

alter table public.remixes enable row level security;
create policy remixes_read_own on public.remixes for select to authenticated using (user_id = (select auth.uid()));
-- Written only by the functions below.
revoke all on table public.remixes from anon, authenticated;
grant select on public.remixes to authenticated;
grant all on table public.remixes to service_role;

create function public.remix_burn(p_source text, p_attempt_key text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_cost int := ((public.remix_rules()) ->> 'cost')::int;
  v_balance int;
  v_remix public.remixes;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_source is null or char_length(p_source) not between 1 and 200 then
    raise exception 'invalid_reference' using errcode = '22023';
  end if;
  if p_attempt_key is null or char_length(p_attempt_key) not between 8 and 100 then
    raise exception 'invalid_attempt_key' using errcode = '22023';
  end if;

  -- The wallet row lock serialises every burn of this user (two tabs, double clicks).
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  if not found then
    raise exception 'insufficient_balance';
  end if;

  select * into v_remix from public.remixes where user_id = v_uid and attempt_key = p_attempt_key;
  if found then
    if v_remix.source_ref <> p_source then
      raise exception 'attempt_key_reused' using errcode = '22023';
    end if;
    return json_build_object('remix_id', v_remix.id, 'status', v_remix.status, 'balance', v_balance, 'charged', false);
  end if;

  if v_balance < v_cost then
    raise exception 'insufficient_balance';
  end if;

  insert into public.remixes (user_id, attempt_key, source_ref, cost)
  values (v_uid, p_attempt_key, p_source, v_cost)
  returning * into v_remix;
  insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
  values (v_uid, -v_cost, 'remix', p_source, 'remix:' || v_uid::text || ':' || p_attempt_key);
  update public.user_tokens
     set balance = balance - v_cost, updated_at = clock_timestamp()
   where user_id = v_uid
  returning balance into v_balance;
  return json_build_object('remix_id', v_remix.id, 'status', v_remix.status, 'balance', v_balance, 'charged', true);
end
$$;

create function public.remix_complete(p_remix_id uuid) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_remix public.remixes;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select * into v_remix from public.remixes where id = p_remix_id and user_id = v_uid for update;
  if not found then
    raise exception 'remix_not_found' using errcode = '22023';
  end if;
  if v_remix.status = 'refunded' then
    raise exception 'remix_refunded' using errcode = '22023';
  end if;
  update public.remixes set status = 'rendered', updated_at = clock_timestamp() where id = p_remix_id;
  return json_build_object('remix_id', p_remix_id, 'status', 'rendered');
end
$$;

create function public.remix_refund(p_remix_id uuid) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_remix public.remixes;
  v_balance int;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  -- Same lock order as remix_burn (wallet first), then the attempt.
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  select * into v_remix from public.remixes where id = p_remix_id and user_id = v_uid for update;
  if not found then
    raise exception 'remix_not_found' using errcode = '22023';
  end if;
  if v_remix.status = 'rendered' then
    raise exception 'remix_rendered' using errcode = '22023';
  end if;
  if v_remix.status = 'refunded' then
    return json_build_object('remix_id', p_remix_id, 'status', 'refunded', 'balance', v_balance, 'refunded', false);
  end if;
  insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
  values (v_uid, v_remix.cost, 'remix_refund', v_remix.source_ref, 'remix_refund:' || v_uid::text || ':' || v_remix.attempt_key);
  update public.remixes set status = 'refunded', updated_at = clock_timestamp() where id = p_remix_id;
  update public.user_tokens
     set balance = balance + v_remix.cost, updated_at = clock_timestamp()
   where user_id = v_uid
  returning balance into v_balance;
  return json_build_object('remix_id', p_remix_id, 'status', 'refunded', 'balance', v_balance, 'refunded', true);
end
$$;

revoke execute on function
  public.remix_burn(text, text), public.remix_complete(uuid), public.remix_refund(uuid)
from public, anon;
grant execute on function
  public.remix_burn(text, text), public.remix_complete(uuid), public.remix_refund(uuid)
to authenticated, service_role;
grant execute on function public.remix_rules() to anon, authenticated, service_role;
