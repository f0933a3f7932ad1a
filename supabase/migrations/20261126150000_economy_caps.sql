-- Two farming strategies the abuse bench found still beating the honest listener (issue 23):
--
-- 1. Picking the best-paying songs. Rewards per song are the reference's (2 to 5 CUBE), so 20
--    listens of the ten best-paying songs paid 80 CUBE against an ordinary day's 54. Listening now
--    pays at most reward_rules().listen.daily_cube_cap (50) CUBE per user and UTC day: the listen
--    that reaches it pays the rest, later ones are refused as 'cube_cap' (the 20-listen cap stays).
-- 2. Self-sharing from a second address (a phone, a VPN): to the server that address is a distinct
--    visitor, so it opened the sharer's ten links and paid ten shares. Now one visitor pays one
--    sharer at most once per UTC day, whatever links they open: refused as 'visitor_already_paid'.
--    A visitor is its client address and, signed in, its account; the address is kept hashed
--    (public.share_open_payers, server-only: RLS on, no grants).

create or replace function public.reward_rules() returns json
language sql
stable
set search_path = ''
as $$
  select json_build_object(
    'listen', json_build_object(
      -- A listen qualifies once it has really played min(qualify_seconds, qualify_fraction x length).
      'qualify_seconds', 30,
      'qualify_fraction', 0.5,
      -- Credited listens per user and UTC day.
      'daily_cap', 20,
      -- CUBE per qualifying listen of a song that has no reward of its own.
      'default_reward', 2,
      -- Credited listens of one song per listener and UTC day.
      'song_daily_limit', 2,
      -- The most CUBE listening pays per user and UTC day: the 20 listens at the catalogue's 2.5
      -- CUBE average. Picking the best-paying songs fills it sooner and gains nothing more.
      'daily_cube_cap', 50,
      -- Without a user interaction for this long, listening stops earning until the next one.
      'inactive_after_seconds', 3600,
      -- The most one gap between two reports of a playing session adds (the client reports every 15 s).
      'heartbeat_grace_seconds', 90
    ),
    'creator', json_build_object(
      'reward', 1,
      'daily_cap', 50,
      'link_days', 30,
      'min_listener_age_hours', 24
    )
  )
$$;

create or replace function public.listen_settle(p_session uuid, p_playing boolean, p_end boolean) returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_listen constant json := public.reward_rules() -> 'listen';
  c_creator constant json := public.reward_rules() -> 'creator';
  c_daily_cap constant int := (c_listen ->> 'daily_cap')::int;
  c_cube_cap constant int := (c_listen ->> 'daily_cube_cap')::int;
  v_credit int;
  v_now timestamptz := clock_timestamp();
  v_day_start timestamptz := date_trunc('day', clock_timestamp() at time zone 'utc') at time zone 'utc';
  v_s public.listening_sessions;
  v_wallet public.user_tokens;
  v_active boolean;
  v_gap numeric;
  v_add numeric := 0;
  v_threshold numeric;
  v_outcome text;
  v_history bigint;
begin
  select * into v_s from public.listening_sessions where id = p_session for update;
  select * into v_wallet from public.user_tokens where user_id = v_s.user_id;
  if v_s.ended_at is not null then
    return v_s;
  end if;
  v_active := v_now - v_wallet.last_interaction_at <= make_interval(secs => (c_listen ->> 'inactive_after_seconds')::int);
  if v_s.playing then
    v_gap := least(extract(epoch from v_now - v_s.last_report_at), (c_listen ->> 'heartbeat_grace_seconds')::numeric);
    v_add := greatest(least(v_gap, v_s.duration_seconds - v_s.heard_seconds), 0);
  end if;
  update public.listening_sessions
     set heard_seconds = heard_seconds + v_add,
         earning_seconds = earning_seconds + case when v_active then v_add else 0 end,
         last_report_at = v_now,
         playing = p_playing and not p_end,
         ended_at = case when p_end then v_now end
   where id = v_s.id
  returning * into v_s;

  v_threshold := least((c_listen ->> 'qualify_seconds')::numeric, v_s.duration_seconds * (c_listen ->> 'qualify_fraction')::numeric);
  if v_s.credited > 0 or v_s.outcome in ('own_song', 'song_limit', 'daily_cap', 'cube_cap') or v_s.heard_seconds < v_threshold then
    if v_s.history_id is not null then
      update public.user_listening_history set seconds = floor(v_s.earning_seconds)::int where id = v_s.history_id;
    end if;
    return v_s;
  end if;
  -- Idle for too long: nothing earns until the listener interacts ('inactive' stays undecided).
  if not v_active then
    update public.listening_sessions set outcome = 'inactive' where id = v_s.id returning * into v_s;
    return v_s;
  end if;
  -- Only time heard while the listener counted as active qualifies a listen.
  if v_s.earning_seconds < v_threshold then
    update public.listening_sessions set outcome = null where id = v_s.id returning * into v_s;
    return v_s;
  end if;

  if v_wallet.day <> (v_now at time zone 'utc')::date then
    update public.user_tokens set day = (v_now at time zone 'utc')::date, daily_earned = 0, listens_today = 0
     where user_id = v_s.user_id returning * into v_wallet;
  end if;
  if v_s.creator_id = v_s.user_id then
    v_outcome := 'own_song';
  elsif (select count(*) from public.listening_sessions o
          where o.user_id = v_s.user_id and o.song_id = v_s.song_id and o.credited > 0 and o.started_at >= v_day_start)
        >= (c_listen ->> 'song_daily_limit')::int then
    v_outcome := 'song_limit';
  elsif v_wallet.listens_today >= c_daily_cap then
    v_outcome := 'daily_cap';
  else
    -- What listening may still pay today; the listen that reaches the cap pays the rest.
    v_credit := least(v_s.reward, c_cube_cap - coalesce((select sum(amount) from public.token_ledger
                                                          where user_id = v_s.user_id and reason = 'listen'
                                                            and created_at >= v_day_start), 0)::int);
    v_outcome := case when v_credit > 0 then 'credited' else 'cube_cap' end;
  end if;

  if v_outcome = 'credited' then
    perform public.post_ledger(v_s.user_id, v_credit, 'listen', v_s.song_id, 'listen:' || v_s.id::text);
    update public.user_tokens
       set daily_earned = daily_earned + v_credit, listens_today = listens_today + 1
     where user_id = v_s.user_id;
    insert into public.user_listening_history (user_id, song_id, listened_at, seconds)
    values (v_s.user_id, v_s.song_id, v_now, floor(v_s.earning_seconds)::int)
    returning id into v_history;
    update public.listening_sessions set credited = v_credit, outcome = v_outcome, history_id = v_history
     where id = v_s.id returning * into v_s;
    if v_s.creator_id is not null
       and exists (select 1 from public.user_tokens where user_id = v_s.creator_id)
       and not public.listener_linked_to_creator(v_s.user_id, v_s.creator_id)
       and (select count(*) from public.token_ledger
             where user_id = v_s.creator_id and reason = 'creator' and created_at >= v_day_start)
           < (c_creator ->> 'daily_cap')::int then
      perform public.post_ledger(v_s.creator_id, (c_creator ->> 'reward')::int, 'creator', v_s.song_id, 'creator:' || v_s.id::text);
    end if;
  else
    -- A refused listen is still a play (discovery counts plays), with no earning seconds.
    if v_outcome <> 'own_song' then
      insert into public.user_listening_history (user_id, song_id, listened_at, seconds) values (v_s.user_id, v_s.song_id, v_now, 0);
    end if;
    update public.listening_sessions set outcome = v_outcome where id = v_s.id returning * into v_s;
  end if;
  return v_s;
end
$$;

create table public.share_open_payers (
  sharer_id uuid not null references auth.users (id) on delete cascade,
  day date not null,
  -- 'a:' || sha256(client address) or 'u:' || the opener's account id.
  visitor_key text not null,
  primary key (sharer_id, day, visitor_key)
);
alter table public.share_open_payers enable row level security;
revoke all on table public.share_open_payers from anon, authenticated;
grant all on table public.share_open_payers to service_role;

create or replace function public.open_share(p_token text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_rules constant json := public.share_rules();
  c_cap constant int := (c_rules ->> 'daily_cap')::int;
  v_uid uuid := auth.uid();
  v_address text := public.client_address();
  v_today date := (clock_timestamp() at time zone 'utc')::date;
  v_link public.share_links;
  v_amount int;
  v_reason text;
  -- Hashed: the table never holds a visitor's address.
  v_address_key text := case when v_address is not null then 'a:' || encode(sha256(convert_to(v_address, 'UTF8')), 'hex') end;
  v_account_key text := case when v_uid is not null then 'u:' || v_uid::text end;
begin
  if p_token is not null and p_token ~ '^[0-9a-f]{64}$' then
    select * into v_link from public.share_links where token = p_token;
  end if;
  if v_link.id is null then
    raise exception 'invalid_share_link' using errcode = '22023',
      detail = 'This share link is not valid: it may be cut short or mistyped. The page itself works without it.';
  end if;
  v_amount := coalesce((c_rules -> 'amounts' ->> v_link.platform)::int, v_link.amount);

  -- Every open of this sharer's links waits here for the previous one to commit.
  perform 1 from public.user_tokens where user_id = v_link.user_id for update;

  if v_uid is not null and v_uid = v_link.user_id then
    v_reason := 'own_link';
  elsif v_address is null or cardinality(v_link.sharer_addresses) = 0 then
    v_reason := 'unknown_client';
  elsif v_address = any (v_link.sharer_addresses)
        -- ... or any address the sharer listened or published from lately (their phone, their other browser).
        or exists (select 1 from public.account_clients c
                    where c.user_id = v_link.user_id and c.client_address = v_address
                      and c.last_seen > now() - make_interval(days => (public.reward_rules() -> 'creator' ->> 'link_days')::int)) then
    v_reason := 'same_client';
  elsif v_uid is not null and public.listener_linked_to_creator(v_uid, v_link.user_id) then
    -- A signed-in opener linked to the sharer (the creator rule's test: a shared address, or an
    -- account under a day old) is the sharer's own, not someone else.
    v_reason := 'linked_account';
  elsif exists (select 1 from public.shares where user_id = v_link.user_id and item_type = v_link.item_type
                                             and item_id = v_link.item_id and platform = v_link.platform and day = v_today) then
    v_reason := 'already_credited_today';
  elsif exists (select 1 from public.share_open_payers p
                where p.sharer_id = v_link.user_id and p.day = v_today
                  and p.visitor_key in (v_address_key, v_account_key)) then
    -- One visitor (an address, or a signed-in account) pays a sharer once a day, whatever they open.
    v_reason := 'visitor_already_paid';
  elsif (select count(*) from public.shares where user_id = v_link.user_id and day = v_today) >= c_cap then
    v_reason := 'daily_cap';
  else
    v_reason := 'credited';
    insert into public.shares (user_id, item_type, item_id, platform, day, amount)
    values (v_link.user_id, v_link.item_type, v_link.item_id, v_link.platform, v_today, v_amount);
    perform public.post_ledger(v_link.user_id, v_amount, 'share', v_link.item_type || ':' || v_link.item_id || ':' || v_link.platform,
      'share:' || v_link.user_id::text || ':' || v_link.item_type || ':' || v_link.item_id || ':' || v_link.platform
        || ':' || v_today::text);
    insert into public.share_open_payers (sharer_id, day, visitor_key)
    select v_link.user_id, v_today, k from unnest(array[v_address_key, v_account_key]) k where k is not null
    on conflict do nothing;
    update public.share_links set status = 'credited', credited_at = clock_timestamp(), amount = v_amount where id = v_link.id;
  end if;

  return json_build_object('credited', v_reason = 'credited', 'reason', v_reason);
end
$$;
