-- One posting function for the ledger. Every function that moves CUBE (welcome, listens, comments,
-- shares, claims, the wallet welcome, proposals, remixes, mints and their refunds, spends) called
-- its own pair of statements — a ledger row, then the wallet's balance — about a dozen copies that
-- had to agree. public.post_ledger is now the only code that writes public.token_ledger or changes
-- public.user_tokens.balance, so balance = sum(ledger) holds by construction and no path can
-- drive a balance below zero. tests/backend/ledger-posting.test.ts checks the catalogue: no other
-- function writes the ledger or the balance.

create function public.post_ledger(p_user uuid, p_amount int, p_reason text, p_reference text, p_key text) returns int
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_balance int;
begin
  insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
  values (p_user, p_amount, p_reason, p_reference, p_key);
  update public.user_tokens
     set balance = balance + p_amount, updated_at = clock_timestamp()
   where user_id = p_user
  returning balance into v_balance;
  if not found then
    raise exception 'no_wallet' using errcode = 'P0002', detail = 'The account has no wallet yet';
  end if;
  -- Callers check the balance first and answer in words; this is the floor under all of them.
  if v_balance < 0 then
    raise exception 'insufficient_balance' using errcode = 'P0001';
  end if;
  return v_balance;
end
$$;
-- Only the SQL functions call it (as their owner): never a client, never an edge function directly.
revoke execute on function public.post_ledger(uuid, int, text, text, text) from public, anon, authenticated, service_role;

-- comment_credit
CREATE OR REPLACE FUNCTION public.comment_credit(p_user uuid, p_amount integer, p_reason text, p_ref text, p_key text, p_key_prefix text, p_cap integer)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_day_start timestamptz := date_trunc('day', now() at time zone 'utc') at time zone 'utc';
begin
  if not exists (select 1 from public.user_tokens where user_id = p_user) then
    return 0;
  end if;
  if exists (select 1 from public.token_ledger where idempotency_key = p_key) then
    return 0;
  end if;
  if p_cap is not null and (
    select count(*) from public.token_ledger
     where user_id = p_user and reason = p_reason and created_at >= v_day_start and idempotency_key like p_key_prefix || '%'
  ) >= p_cap then
    return 0;
  end if;
  perform public.post_ledger(p_user, p_amount, p_reason, p_ref, p_key);
  return p_amount;
end
$function$;

-- create_proposal
CREATE OR REPLACE FUNCTION public.create_proposal(p_title text, p_description text, p_category text, p_ends_at timestamp with time zone, p_attempt_key text DEFAULT NULL::text)
 RETURNS json
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  c_rules constant json := public.governance_rules();
  c_cost constant int := (c_rules ->> 'proposal_cost')::int;
  v_uid uuid := auth.uid();
  v_balance int;
  v_proposal public.proposals;
  v_key text;
  v_first text;
  v_title text := btrim(coalesce(p_title, ''));
  v_description text := btrim(coalesce(p_description, ''));
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_attempt_key is null or char_length(p_attempt_key) not between 8 and 100 then
    raise exception 'invalid_attempt_key' using errcode = '22023',
      detail = 'Each proposal needs an attempt key of 8 to 100 characters; reload the page and try again.';
  end if;
  v_key := 'proposal:' || v_uid || ':' || p_attempt_key;

  perform public.init_user_tokens();
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  select reference into v_first from public.token_ledger where idempotency_key = v_key;
  if found then
    select * into v_proposal from public.proposals where id = v_first::uuid;
    return json_build_object('proposal', to_json(v_proposal), 'balance', v_balance, 'repeated', true);
  end if;

  if v_title = '' or v_description = '' or coalesce(p_category, '') = '' or p_ends_at is null then
    raise exception 'incomplete_proposal' using errcode = '22023', detail = 'Please fill out all fields';
  end if;
  if char_length(v_title) > (c_rules ->> 'max_title')::int or char_length(v_description) > (c_rules ->> 'max_description')::int then
    raise exception 'proposal_too_long' using errcode = '22001',
      detail = format('A title has at most %s characters and a description at most %s.', c_rules ->> 'max_title', c_rules ->> 'max_description');
  end if;
  if not exists (select 1 from json_array_elements_text(c_rules -> 'categories') c where c = p_category) then
    raise exception 'unknown_category' using errcode = '22023', detail = 'Choose one of the categories.';
  end if;
  if p_ends_at <= now() then
    raise exception 'end_date_in_past' using errcode = '22023', detail = 'The end date must be in the future.';
  end if;
  if p_ends_at < now() + interval '1 hour' or p_ends_at > now() + make_interval(days => (c_rules ->> 'max_duration_days')::int, hours => 1) then
    raise exception 'invalid_duration' using errcode = '22023',
      detail = format('A proposal runs %s to %s days.', c_rules ->> 'min_duration_days', c_rules ->> 'max_duration_days');
  end if;
  if v_balance < (c_rules ->> 'min_balance')::int or v_balance < c_cost then
    raise exception 'insufficient_balance' using errcode = 'P0001',
      detail = format('You need at least %s CUBE to create a proposal', c_rules ->> 'min_balance');
  end if;

  insert into public.proposals (author_id, author_name, title, description, category, ends_at)
  values (v_uid, coalesce((select username from public.profiles where user_id = v_uid), 'listener'), v_title, v_description, p_category, p_ends_at)
  returning * into v_proposal;
  v_balance := public.post_ledger(v_uid, -c_cost, 'proposal', v_proposal.id::text, v_key);
  return json_build_object('proposal', to_json(v_proposal), 'balance', v_balance, 'repeated', false);
end
$function$;

-- credit_listen
CREATE OR REPLACE FUNCTION public.credit_listen(p_song_id text, p_duration numeric, p_reward integer, p_seconds integer, p_play_id text)
 RETURNS json
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  -- The rules, from their one source.
  c_listen constant json := public.reward_rules() -> 'listen';
  c_daily_cap constant int := (c_listen ->> 'daily_cap')::int;
  c_qualify_seconds constant numeric := (c_listen ->> 'qualify_seconds')::numeric;
  c_qualify_fraction constant numeric := (c_listen ->> 'qualify_fraction')::numeric;
  v_uid uuid := auth.uid();
  v_now timestamptz := clock_timestamp();
  v_today date := (clock_timestamp() at time zone 'utc')::date;
  v_wallet public.user_tokens;
  v_threshold numeric;
  v_key text;
  v_reason text;
  v_credited int := 0;
  v_earned int := 0;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_seconds is null or p_seconds < 0 or p_seconds > 86400 then
    raise exception 'invalid_seconds' using errcode = '22023';
  end if;
  if p_play_id is not null and char_length(p_play_id) not between 1 and 200 then
    raise exception 'invalid_play_id' using errcode = '22023';
  end if;

  -- Make sure the wallet exists (the welcome bonus comes with it), then lock it: every listen of
  -- this user waits here for the previous one to commit.
  perform public.init_user_tokens();
  select * into v_wallet from public.user_tokens where user_id = v_uid for update;

  if v_wallet.day <> v_today then
    update public.user_tokens
       set day = v_today, daily_earned = 0, listens_today = 0, updated_at = v_now
     where user_id = v_uid
    returning * into v_wallet;
  end if;

  v_key := 'listen:' || v_uid::text || ':' || coalesce(p_play_id, gen_random_uuid()::text);
  if p_duration is null then
    v_reason := 'unknown_song';
  else
    v_threshold := least(c_qualify_seconds, p_duration * c_qualify_fraction);
    if p_seconds < v_threshold then
      v_reason := 'below_threshold';
    elsif exists (select 1 from public.token_ledger where idempotency_key = v_key) then
      v_reason := 'already_credited';
    elsif v_wallet.listens_today >= c_daily_cap then
      v_reason := 'daily_cap';
    -- One second of slack absorbs network jitter between two honest reports.
    elsif v_wallet.last_credited_at is not null
          and v_now - v_wallet.last_credited_at < make_interval(secs => greatest(v_threshold - 1, 0)) then
      v_reason := 'too_soon';
    else
      v_reason := 'credited';
      v_credited := p_reward;
      -- What the server vouches for: no longer than the track, no longer than the time it saw pass.
      v_earned := least(p_seconds, ceil(p_duration)::int);
      if v_wallet.last_credited_at is not null then
        v_earned := least(v_earned, floor(extract(epoch from v_now - v_wallet.last_credited_at))::int);
      end if;
      perform public.post_ledger(v_uid, v_credited, 'listen', p_song_id, v_key);
      update public.user_tokens
         set daily_earned = daily_earned + v_credited,
             listens_today = listens_today + 1,
             last_credited_at = v_now,
             updated_at = v_now
       where user_id = v_uid returning * into v_wallet;
    end if;
    if v_reason in ('credited', 'daily_cap') then
      insert into public.user_listening_history (user_id, song_id, listened_at, seconds)
      values (v_uid, p_song_id, v_now, v_earned);
    end if;
  end if;

  return json_build_object(
    'credited', v_credited,
    'balance', v_wallet.balance,
    'daily_earned', v_wallet.daily_earned,
    'listens_today', v_wallet.listens_today,
    'daily_cap', c_daily_cap,
    'cap_reached', v_wallet.listens_today >= c_daily_cap,
    'reason', v_reason
  );
end
$function$;

-- init_user_tokens
CREATE OR REPLACE FUNCTION public.init_user_tokens()
 RETURNS json
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := auth.uid();
  v_today date := (now() at time zone 'utc')::date;
  v_wallet public.user_tokens;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  -- The primary key makes a concurrent second insert wait for the first and then do nothing, so
  -- the welcome bonus is written exactly once.
  insert into public.user_tokens (user_id, balance) values (v_uid, 0)
  on conflict (user_id) do nothing;
  if found then
    perform public.post_ledger(v_uid, 100, 'welcome', 'welcome', 'welcome:' || v_uid::text);
  end if;
  select * into v_wallet from public.user_tokens where user_id = v_uid;
  return json_build_object(
    'balance', v_wallet.balance,
    'daily_earned', case when v_wallet.day = v_today then v_wallet.daily_earned else 0 end
  );
end
$function$;

-- mint_begin
CREATE OR REPLACE FUNCTION public.mint_begin(p_user uuid, p_client_key text, p_blockchain text, p_metadata jsonb, p_recipient text, p_royalties_bps integer, p_collection text)
 RETURNS json
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  c_cost constant int := (public.wallet_rules() ->> 'mint_cost')::int;
  v_balance int;
  v_request public.mint_requests;
begin
  select balance into v_balance from public.user_tokens where user_id = p_user for update;
  if not found then
    raise exception 'insufficient_balance' using errcode = 'P0001';
  end if;
  select * into v_request from public.mint_requests where user_id = p_user and client_key = p_client_key;
  if found then
    return json_build_object('request', row_to_json(v_request), 'created', false, 'balance', v_balance);
  end if;
  if v_balance < c_cost then
    raise exception 'insufficient_balance' using errcode = 'P0001';
  end if;
  insert into public.mint_requests (user_id, client_key, blockchain, metadata, recipient, royalties_bps, collection)
  values (p_user, p_client_key, p_blockchain, p_metadata, p_recipient, p_royalties_bps, nullif(btrim(p_collection), ''))
  returning * into v_request;
  v_balance := public.post_ledger(p_user, -c_cost, 'mint', v_request.id::text, 'mint:' || v_request.id::text);
  return json_build_object('request', row_to_json(v_request), 'created', true, 'balance', v_balance);
end
$function$;

-- mint_fail
CREATE OR REPLACE FUNCTION public.mint_fail(p_request uuid, p_error text)
 RETURNS json
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  c_cost constant int := (public.wallet_rules() ->> 'mint_cost')::int;
  v_request public.mint_requests;
begin
  select * into v_request from public.mint_requests where id = p_request;
  if not found then
    raise exception 'not_found' using errcode = '22023';
  end if;
  perform 1 from public.user_tokens where user_id = v_request.user_id for update;
  update public.mint_requests set status = 'failed', error = left(p_error, 500), updated_at = clock_timestamp()
   where id = p_request and status = 'pending'
  returning * into v_request;
  if found then
    perform public.post_ledger(v_request.user_id, c_cost, 'mint_refund', v_request.id::text, 'mint_refund:' || v_request.id::text);
  end if;
  return row_to_json(v_request);
end
$function$;

-- remix_burn
CREATE OR REPLACE FUNCTION public.remix_burn(p_source text, p_attempt_key text)
 RETURNS json
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
  v_balance := public.post_ledger(v_uid, -v_cost, 'remix', p_source, 'remix:' || v_uid::text || ':' || p_attempt_key);
  return json_build_object('remix_id', v_remix.id, 'status', v_remix.status, 'balance', v_balance, 'charged', true);
end
$function$;

-- remix_refund
CREATE OR REPLACE FUNCTION public.remix_refund(p_remix_id uuid)
 RETURNS json
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
  v_balance := public.post_ledger(v_uid, v_remix.cost, 'remix_refund', v_remix.source_ref, 'remix_refund:' || v_uid::text || ':' || v_remix.attempt_key);
  update public.remixes set status = 'refunded', updated_at = clock_timestamp() where id = p_remix_id;
  return json_build_object('remix_id', p_remix_id, 'status', 'refunded', 'balance', v_balance, 'refunded', true);
end
$function$;

-- share_credit
CREATE OR REPLACE FUNCTION public.share_credit(p_item_type text, p_item_id text, p_platform text)
 RETURNS json
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  c_rules constant json := public.share_rules();
  c_cap constant int := (c_rules ->> 'daily_cap')::int;
  v_uid uuid := auth.uid();
  v_today date := (clock_timestamp() at time zone 'utc')::date;
  v_amount int := (c_rules -> 'amounts' ->> p_platform)::int;
  v_item text := p_item_id;
  v_today_count int;
  v_balance int;
  v_reason text;
  v_credited int := 0;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if v_amount is null then
    raise exception 'invalid_platform' using errcode = '22023';
  end if;
  if p_item_type is null or p_item_type not in ('user', 'song', 'track') or p_item_id is null or char_length(p_item_id) not between 1 and 200 then
    raise exception 'invalid_item' using errcode = '22023';
  end if;
  -- Songs are counted by id whether shared by slug or id.
  if p_item_type = 'song' then
    select id into v_item from public.songs where id = p_item_id or slug = p_item_id limit 1;
  elsif p_item_type = 'user' then
    select username into v_item from public.profiles where username = p_item_id;
  elsif p_item_id !~ '^[A-Za-z0-9._-]{1,200}$' then
    v_item := null;
  end if;
  if v_item is null then
    raise exception 'unknown_item' using errcode = '22023';
  end if;

  -- Every share of this user waits here for the previous one to commit.
  perform public.init_user_tokens();
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  select count(*) into v_today_count from public.shares where user_id = v_uid and day = v_today;

  if exists (select 1 from public.shares where user_id = v_uid and item_type = p_item_type and item_id = v_item
                                            and platform = p_platform and day = v_today) then
    v_reason := 'already_shared_today';
  elsif v_today_count >= c_cap then
    v_reason := 'daily_cap';
  else
    v_reason := 'credited';
    v_credited := v_amount;
    insert into public.shares (user_id, item_type, item_id, platform, day, amount)
    values (v_uid, p_item_type, v_item, p_platform, v_today, v_amount);
    v_balance := public.post_ledger(v_uid, v_amount, 'share', p_item_type || ':' || v_item || ':' || p_platform, 'share:' || v_uid::text || ':' || p_item_type || ':' || v_item || ':' || p_platform || ':' || v_today::text);
    v_today_count := v_today_count + 1;
  end if;

  return json_build_object(
    'credited', v_credited,
    'reason', v_reason,
    'balance', v_balance,
    'shares_today', v_today_count,
    'daily_cap', c_cap
  );
end
$function$;

-- spend_tokens
CREATE OR REPLACE FUNCTION public.spend_tokens(p_amount integer, p_reason text, p_ref text)
 RETURNS json
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := auth.uid();
  v_balance int;
  v_key text;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_amount is null or p_amount <= 0 then
    raise exception 'invalid_amount' using errcode = '22023';
  end if;
  if p_reason is null or p_reason not in ('comment', 'like', 'reply', 'share', 'claim', 'remix', 'mint', 'proposal') then
    raise exception 'invalid_reason' using errcode = '22023';
  end if;
  if p_ref is null or char_length(p_ref) not between 1 and 200 then
    raise exception 'invalid_reference' using errcode = '22023';
  end if;
  v_key := 'spend:' || v_uid::text || ':' || p_reason || ':' || p_ref;

  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  if not found then
    raise exception 'insufficient_balance';
  end if;
  if exists (select 1 from public.token_ledger where idempotency_key = v_key) then
    return json_build_object('balance', v_balance);
  end if;
  if v_balance < p_amount then
    raise exception 'insufficient_balance';
  end if;

  v_balance := public.post_ledger(v_uid, -p_amount, p_reason, p_ref, v_key);
  return json_build_object('balance', v_balance);
end
$function$;

-- wallet_claim
CREATE OR REPLACE FUNCTION public.wallet_claim()
 RETURNS json
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := auth.uid();
  v_status json;
  v_amount int;
  v_balance int;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  perform public.init_user_tokens();
  -- Concurrent claims of one user wait here; the second sees the pot already emptied.
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  v_status := public.wallet_claim_status();
  v_amount := (v_status ->> 'claimable')::int;
  if v_amount > 0 then
    v_balance := public.post_ledger(v_uid, v_amount, 'claim', 'listening', 'claim:' || v_uid::text || ':' || ((v_status ->> 'claimed')::bigint + v_amount)::text);
  end if;
  return json_build_object('claimed', v_amount, 'balance', v_balance);
end
$function$;

-- wallet_link
CREATE OR REPLACE FUNCTION public.wallet_link(p_user uuid, p_address text, p_nonce text, p_chain_id integer)
 RETURNS json
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  c_welcome constant int := (public.wallet_rules() ->> 'welcome_tokens')::int;
  v_nonce public.siwe_nonces;
  v_owner uuid;
  v_granted int := 0;
  v_balance int;
begin
  if p_user is null or p_address is null or p_address !~ '^0x[0-9a-fA-F]{40}$' then
    raise exception 'invalid_address' using errcode = '22023';
  end if;
  select * into v_nonce from public.siwe_nonces where nonce = p_nonce for update;
  if not found or v_nonce.user_id <> p_user then
    raise exception 'invalid_nonce' using errcode = '22023';
  end if;
  if v_nonce.used_at is not null then
    raise exception 'nonce_used' using errcode = '22023';
  end if;
  if v_nonce.expires_at < clock_timestamp() then
    raise exception 'nonce_expired' using errcode = '22023';
  end if;
  update public.siwe_nonces set used_at = clock_timestamp() where nonce = p_nonce;

  -- The wallet row (created by init_user_tokens) is every CUBE movement's lock.
  select balance into v_balance from public.user_tokens where user_id = p_user for update;
  if not found then
    raise exception 'no_wallet' using errcode = '22023';
  end if;

  select user_id into v_owner from public.wallet_links where lower(address) = lower(p_address);
  if found and v_owner <> p_user then
    raise exception 'address_taken' using errcode = '23505';
  end if;
  insert into public.wallet_links (user_id, address, chain_id) values (p_user, p_address, p_chain_id)
  on conflict (user_id) do update set address = excluded.address, chain_id = excluded.chain_id, linked_at = now();

  insert into public.wallet_welcomes (user_id, address) values (p_user, lower(p_address))
  on conflict do nothing;
  if found then
    v_granted := c_welcome;
    v_balance := public.post_ledger(p_user, c_welcome, 'wallet_welcome', p_address, 'wallet_welcome:' || p_user::text);
  end if;
  return json_build_object('address', p_address, 'welcome', v_granted, 'balance', v_balance);
end
$function$;