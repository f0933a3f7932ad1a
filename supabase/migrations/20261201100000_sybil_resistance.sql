-- Sybil resistance: what one person with many accounts, or one page on another site, could take from
-- the economy. Each rule is written, with the comment that says why, in supabase/schemas/:
--   * linked accounts never pay each other, and one client address earns a bounded amount a day
--     (trust.sql: accounts_linked, address_take, link_rules);
--   * trust covers everything an account holds, and delegated power counts only from a trusted,
--     unlinked delegator (trust.sql, governance.sql: snapshot_proposal_power, cast_vote);
--   * a share pays only for a visit the app's own page proves, and the link shows the last open's
--     outcome (sharing.sql: share_visit_begin, open_share);
--   * a published track's length is the server's reading of the stored file (storage.sql,
--     catalogue.sql: audio_durations, publish_song);
--   * charts count people, not rows (listening.sql: chart_rules);
--   * custodial private keys are sealed at rest (wallet.sql: wallet_link_custodial);
--   * starting a play names what the settle of the previous one decided (listening.sql: listen_start);
--   * a username is one name however it is spelled (profiles.sql: username_skeleton).
--
-- Written by hand first: the changes to existing tables' columns and constraints, and the rows that
-- must move before a new unique index holds. The rest, below the marker, was written by
-- `npm run db:diff` from the difference between the baseline and supabase/schemas/.

-- Whether a delegator's own power went to its delegate in this snapshot (cast_vote counts only
-- those). Snapshots taken before this migration counted every delegation, as they did.
alter table public.proposal_power add column delegation_counted boolean not null default true;

-- The outcome of the last proven visit (paid, or why not), so the sharer sees it live.
alter table public.share_links
  add column last_open_reason text,
  add column last_open_at timestamp with time zone,
  add constraint share_links_last_open_reason_check check (char_length(last_open_reason) <= 40);

-- Only sealed keys are written from now on; plain rows written before are sealed by the server at
-- its next start (supabase/local/core/custodial-at-rest.ts), so until then the check admits them.
alter table public.custodial_wallets drop constraint custodial_wallets_private_key_check;
alter table public.custodial_wallets add constraint custodial_wallets_private_key_sealed
  check (private_key ~ '^aes256gcm\.v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{40,}$' or private_key ~ '^0x[0-9a-fA-F]{64}$');
comment on column public.custodial_wallets.private_key is
  'AES-256-GCM sealed (aes256gcm.v1.<iv>.<ciphertext>), bound to user_id; the key is outside the database';

-- The skeleton a username is unique on (profiles.sql says why); needed here before the index.
create or replace function public.username_skeleton(p_name text) returns text
language sql immutable parallel safe set search_path = '' as $$
  select replace(
    translate(
      lower(normalize(coalesce(p_name, ''), NFKC)),
      'авекмнорстухіјѕԁԛԝαβεζηικμνορτυχ01',
      'abekmhopctyxijsdqwabezhikmnoptyxol'
    ),
    'rn', 'm')
$$;

-- Names that already read the same: the oldest account keeps its name, later ones get the first
-- free numbered form, so the unique index below can hold.
do $$
declare
  v_row record;
  v_base text;
  v_candidate text;
  v_n int;
begin
  for v_row in
    select p.user_id, p.username
      from (select user_id, username, created_at,
                   row_number() over (partition by public.username_skeleton(username) order by created_at, user_id) as rank
              from public.profiles) p
     where p.rank > 1
     order by p.created_at, p.user_id
  loop
    v_base := v_row.username;
    v_n := 1;
    loop
      v_n := v_n + 1;
      v_candidate := left(v_base, 30 - char_length('-' || v_n::text)) || '-' || v_n::text;
      exit when not exists (select 1 from public.profiles
                             where public.username_skeleton(username) = public.username_skeleton(v_candidate));
    end loop;
    update public.profiles set username = v_candidate where user_id = v_row.user_id;
  end loop;
end
$$;

-- Written by `npm run db:diff` from here on.

set check_function_bodies = off;

CREATE TABLE public.address_earnings (
    address_key text NOT NULL,
    day date NOT NULL,
    earned integer DEFAULT 0 NOT NULL,
    CONSTRAINT address_earnings_earned_check CHECK ((earned >= 0)),
    CONSTRAINT address_earnings_pkey PRIMARY KEY (address_key, day)
);

ALTER TABLE public.address_earnings ENABLE ROW LEVEL SECURITY;

revoke all on table public.address_earnings from public, anon, authenticated, service_role;

grant INSERT, SELECT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER on table public.address_earnings to service_role;

CREATE TABLE public.app_origins (
    origin text NOT NULL,
    CONSTRAINT app_origins_origin_check CHECK ((origin ~ '^https?://[^/?#\s]+$'::text)),
    CONSTRAINT app_origins_pkey PRIMARY KEY (origin)
);

ALTER TABLE public.app_origins ENABLE ROW LEVEL SECURITY;

revoke all on table public.app_origins from public, anon, authenticated, service_role;

grant INSERT, SELECT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER on table public.app_origins to service_role;

CREATE TABLE public.audio_durations (
    object_id uuid NOT NULL,
    owner_id uuid NOT NULL,
    bucket_id text NOT NULL,
    name text NOT NULL,
    object_version text,
    object_updated_at timestamp with time zone NOT NULL,
    duration_seconds numeric(8,3) NOT NULL,
    measured_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT audio_durations_duration_seconds_check CHECK ((duration_seconds > (0)::numeric)),
    CONSTRAINT audio_durations_pkey PRIMARY KEY (object_id),
    CONSTRAINT audio_durations_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

CREATE INDEX audio_durations_owner_idx ON public.audio_durations USING btree (owner_id);

ALTER TABLE public.audio_durations ENABLE ROW LEVEL SECURITY;

revoke all on table public.audio_durations from public, anon, authenticated, service_role;

grant INSERT, SELECT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER on table public.audio_durations to service_role;

CREATE TABLE public.share_visits (
    nonce text NOT NULL,
    link_id uuid NOT NULL,
    visitor_key text NOT NULL,
    issued_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    redeemed_at timestamp with time zone,
    CONSTRAINT share_visits_nonce_check CHECK ((nonce ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT share_visits_pkey PRIMARY KEY (nonce),
    CONSTRAINT share_visits_link_id_fkey FOREIGN KEY (link_id) REFERENCES public.share_links(id) ON DELETE CASCADE
);

CREATE INDEX share_visits_issued_idx ON public.share_visits USING btree (issued_at);

CREATE INDEX share_visits_visitor_idx ON public.share_visits USING btree (visitor_key, issued_at);

ALTER TABLE public.share_visits ENABLE ROW LEVEL SECURITY;

revoke all on table public.share_visits from public, anon, authenticated, service_role;

grant INSERT, SELECT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER on table public.share_visits to service_role;

create or replace function public.account_ring(p_user uuid default null) returns table (user_id uuid, others int)
language plpgsql stable security definer set search_path = '' as $$
declare
  c_window constant interval := make_interval(days => (public.trust_rules() ->> 'link_days')::int);
begin
  if p_user is null then
    return query
      select per_address.user_id, max(per_address.n)::int
        from (
          select mc.user_id, count(distinct oc.user_id) as n
            from public.account_clients mc
            join auth.users mu on mu.id = mc.user_id
            join public.account_clients oc on oc.client_address = mc.client_address and oc.user_id <> mc.user_id
            join auth.users ou on ou.id = oc.user_id
           where mc.last_seen > now() - c_window and oc.last_seen > now() - c_window
             and ou.created_at between mu.created_at - c_window and mu.created_at + c_window
           group by mc.user_id, mc.client_address
        ) per_address
       group by per_address.user_id;
  else
    return query
      select p_user, coalesce(max(per_address.n), 0)::int
        from (
          select count(distinct oc.user_id) as n
            from public.account_clients mc
            join auth.users mu on mu.id = mc.user_id
            join public.account_clients oc on oc.client_address = mc.client_address and oc.user_id <> mc.user_id
            join auth.users ou on ou.id = oc.user_id
           where mc.user_id = p_user
             and mc.last_seen > now() - c_window and oc.last_seen > now() - c_window
             and ou.created_at between mu.created_at - c_window and mu.created_at + c_window
           group by mc.client_address
        ) per_address;
  end if;
end
$$;

revoke all on function public.account_ring(uuid) from public, anon, authenticated, service_role;

drop function public.account_trust(uuid);

create or replace function public.account_trust(p_user uuid default null)
returns table (user_id uuid, balance int, listening_days int, distinct_songs int, welcome int, trusted boolean, locked int,
               age_hours int, ring_accounts int)
language sql stable security definer set search_path = '' as $$
  with r as (
    select (public.trust_rules() ->> 'needed_days')::int as days,
           (public.trust_rules() ->> 'needed_songs')::int as songs,
           (public.trust_rules() ->> 'min_age_hours')::int as age,
           (public.trust_rules() ->> 'max_accounts_per_address')::int as others,
           make_interval(days => (public.trust_rules() ->> 'link_days')::int) as window_,
           public.trust_rules() ->> 'listen_reason' as listen,
           array(select json_array_elements_text(public.trust_rules() -> 'welcome_reasons')) as welcome
  ), ring as (
    select * from public.account_ring(p_user)
  ), f as (
    select t.user_id, t.balance, l.days, l.songs, w.welcome,
           floor(extract(epoch from now() - u.created_at) / 3600)::int as age_hours,
           coalesce(g.others, 0) as others,
           l.days >= r.days and l.songs >= r.songs
             and u.created_at <= now() - make_interval(hours => r.age)
             and coalesce(g.others, 0) < r.others as trusted
      from public.user_tokens t
      join auth.users u on u.id = t.user_id
      left join ring g on g.user_id = t.user_id
     cross join r
     cross join lateral (
       select count(distinct (x.created_at at time zone 'utc')::date)::int as days, count(distinct x.reference)::int as songs
         from public.token_ledger x
        where x.user_id = t.user_id and x.reason = r.listen and x.amount > 0
     ) l
     cross join lateral (
       select coalesce(sum(x.amount), 0)::int as welcome
         from public.token_ledger x
        where x.user_id = t.user_id and x.reason = any (r.welcome) and x.amount > 0
     ) w
     where p_user is null or t.user_id = p_user
  )
  select f.user_id, f.balance, f.days, f.songs, f.welcome, f.trusted,
         case when f.trusted then 0 else greatest(f.balance, 0) end,
         f.age_hours, f.others + 1
    from f
$$;

revoke all on function public.account_trust(uuid) from public, anon, authenticated, service_role;

create or replace function public.accounts_linked(p_actor uuid, p_other uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
declare
  c_rules constant json := public.link_rules();
  c_since constant timestamptz := now() - make_interval(days => (c_rules ->> 'link_days')::int);
begin
  if p_actor is null or p_other is null then
    return false;
  end if;
  return p_actor = p_other
    or exists (select 1 from auth.users u
                where u.id = p_actor
                  and u.created_at > now() - make_interval(hours => (c_rules ->> 'min_account_age_hours')::int))
    or exists (select 1 from public.account_clients a join public.account_clients b using (client_address)
                where a.user_id = p_actor and b.user_id = p_other
                  and a.last_seen > c_since and b.last_seen > c_since);
end
$$;

revoke all on function public.accounts_linked(uuid,uuid) from public, anon, authenticated, service_role;

grant EXECUTE on function public.accounts_linked(uuid,uuid) to service_role;

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

create or replace function public.address_allowance(p_amount int) returns int
language plpgsql security definer set search_path = '' as $$
declare
  v_address text := public.client_address();
  v_key text;
  v_day date := (clock_timestamp() at time zone 'utc')::date;
  v_earned int;
  v_take int;
begin
  if v_address is null or p_amount is null or p_amount <= 0 then
    return greatest(coalesce(p_amount, 0), 0);
  end if;
  v_key := public.address_key(v_address);
  insert into public.address_earnings (address_key, day) values (v_key, v_day) on conflict do nothing;
  select earned into v_earned from public.address_earnings where address_key = v_key and day = v_day for update;
  v_take := greatest(least(p_amount, (public.link_rules() ->> 'address_daily_cap')::int - v_earned), 0);
  if v_take > 0 then
    update public.address_earnings set earned = earned + v_take where address_key = v_key and day = v_day;
  end if;
  return v_take;
end
$$;

revoke all on function public.address_allowance(integer) from public, anon, authenticated, service_role;

grant EXECUTE on function public.address_allowance(integer) to service_role;

create or replace function public.address_key(p_address text) returns text
language sql immutable parallel safe set search_path = '' as $$
  select encode(sha256(convert_to(p_address, 'UTF8')), 'hex')
$$;

revoke all on function public.address_key(text) from public, anon, authenticated, service_role;

grant EXECUTE on function public.address_key(text) to service_role;

create or replace function public.admin_economy(p_days int default 14) returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  v_days int := least(greatest(coalesce(p_days, 14), 1), 90);
  v_since timestamptz := date_trunc('day', clock_timestamp() at time zone 'utc') at time zone 'utc' - make_interval(days => v_days - 1);
begin
  perform public.require_admin();
  return json_build_object(
    'days', v_days,
    'since', v_since,
    -- Positive movements create CUBE (listens, welcomes, refunds...), negative ones destroy it (burns, spends).
    'per_day', coalesce((
      select json_agg(json_build_object('day', d.day, 'reason', d.reason, 'minted', d.minted, 'burned', d.burned, 'entries', d.entries)
                      order by d.day desc, d.reason)
        from (select (created_at at time zone 'utc')::date as day, reason,
                     sum(amount) filter (where amount > 0) as minted,
                     -sum(amount) filter (where amount < 0) as burned,
                     count(*) as entries
                from public.token_ledger where created_at >= v_since group by 1, 2) d), '[]'::json),
    'totals', json_build_object(
      'minted', (select coalesce(sum(amount), 0) from public.token_ledger where amount > 0 and created_at >= v_since),
      'burned', (select coalesce(-sum(amount), 0) from public.token_ledger where amount < 0 and created_at >= v_since),
      'supply', (select coalesce(sum(balance), 0) from public.user_tokens),
      'ledger_sum', (select coalesce(sum(amount), 0) from public.token_ledger),
      'accounts', (select count(*) from public.user_tokens)
    ),
    'top_earners', coalesce((
      select json_agg(json_build_object('username', coalesce(p.username, 'deleted account'), 'earned', e.earned,
                                        'listens', e.listens, 'creator', e.creator) order by e.earned desc)
        from (select user_id, sum(amount) as earned,
                     count(*) filter (where reason = 'listen') as listens,
                     coalesce(sum(amount) filter (where reason = 'creator'), 0) as creator
                from public.token_ledger
               where amount > 0 and created_at >= v_since
                 and reason not in (select json_array_elements_text(public.trust_rules() -> 'welcome_reasons'))
               group by user_id order by sum(amount) desc limit 10) e
        left join public.profiles p on p.user_id = e.user_id), '[]'::json),
    -- The trust rule (public.account_trust): accounts whose balance is still locked, and how much.
    'held_back', json_build_object(
      'accounts', (select count(*) from public.account_trust(null) a where not a.trusted),
      'locked', (select coalesce(sum(a.locked), 0) from public.account_trust(null) a where not a.trusted),
      'needed_days', (public.trust_rules() ->> 'needed_days')::int,
      'needed_songs', (public.trust_rules() ->> 'needed_songs')::int,
      'closest', coalesce((
        select json_agg(json_build_object('username', coalesce(p.username, 'deleted account'), 'listening_days', a.listening_days,
                                          'distinct_songs', a.distinct_songs, 'locked', a.locked)
                        order by a.listening_days desc, a.distinct_songs desc)
          from (select * from public.account_trust(null) where not trusted
                 order by listening_days desc, distinct_songs desc limit 10) a
          left join public.profiles p on p.user_id = a.user_id), '[]'::json)
    ),
    -- How often each listening rule refused a listen in the period (sessions that reached the qualifying time).
    'listen_outcomes', coalesce((
      select json_object_agg(o.outcome, o.n)
        from (select outcome, count(*) as n from public.listening_sessions
               where started_at >= v_since and outcome is not null group by outcome) o), '{}'::json)
  );
end
$$;

create or replace function public.cast_vote(p_proposal_id uuid, p_choice text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_proposal public.proposals;
  v_mine public.proposal_power;
  v_delegators uuid[];
  v_delegated bigint;
  v_power bigint;
  v_vote public.votes;
begin
  if p_choice is null or p_choice not in ('for', 'against') then
    raise exception 'invalid_choice' using errcode = '22023', detail = 'Vote for or against.';
  end if;
  perform public.close_due_proposals();
  perform public.init_user_tokens();
  -- The voter's wallet lock serialises this user's calls; the proposal's lock every vote on it, so
  -- the checks below see every vote committed before.
  perform 1 from public.user_tokens where user_id = v_uid for update;
  select * into v_proposal from public.proposals where id = p_proposal_id for update;
  if not found then
    raise exception 'unknown_proposal' using errcode = '22023', detail = 'There is no such proposal.';
  end if;
  if v_proposal.status <> 'active' then
    raise exception 'proposal_closed' using errcode = '22023', detail = 'Voting on this proposal has ended.';
  end if;
  if exists (select 1 from public.votes where proposal_id = p_proposal_id and user_id = v_uid) then
    raise exception 'already_voted' using errcode = '22023', detail = 'You have already voted on this proposal.';
  end if;
  select * into v_mine from public.proposal_power where proposal_id = p_proposal_id and user_id = v_uid;
  if not found then
    raise exception 'no_power' using errcode = '22023',
      detail = 'Voting power comes from balances at the moment a proposal is created, and your account did not exist yet then.';
  end if;
  if public.governance_power_used(p_proposal_id, v_uid) then
    raise exception 'power_already_used' using errcode = '22023', detail = 'Your delegate already voted on this proposal with your power.';
  end if;
  if v_mine.delegated then
    raise exception 'delegated' using errcode = '22023',
      detail = 'Your voting power was delegated when this proposal was created, so your delegate votes with it; '
        || 'a new delegation counts from the next proposal.';
  end if;

  select coalesce(array_agg(s.user_id order by s.user_id), '{}'), coalesce(sum(s.own_power), 0)
    into v_delegators, v_delegated
    from public.proposal_power s
   where s.proposal_id = p_proposal_id and s.delegated and s.delegate_id = v_uid and s.delegation_counted
     and not public.governance_power_used(p_proposal_id, s.user_id);
  v_power := v_mine.own_power + v_delegated;
  if v_power <= 0 then
    raise exception 'insufficient_voting_power' using errcode = '22023',
      detail = case when v_mine.locked > 0
        then 'Your account was not trusted yet when this proposal was created, so its CUBE carry no voting power on it.'
        else 'You need CUBE tokens to participate in governance' end;
  end if;

  insert into public.votes (proposal_id, user_id, choice, power, delegators)
  values (p_proposal_id, v_uid, p_choice, v_power, v_delegators)
  returning * into v_vote;
  update public.proposals
     set votes_for = votes_for + case when p_choice = 'for' then v_power else 0 end,
         votes_against = votes_against + case when p_choice = 'against' then v_power else 0 end,
         voter_count = voter_count + 1
   where id = p_proposal_id
  returning * into v_proposal;
  return json_build_object('vote', to_json(v_vote), 'proposal', to_json(v_proposal));
end
$$;

create or replace function public.chart_plays()
returns table (song_id text, plays int, listeners int)
language sql stable security definer set search_path = '' as $$
  with r as (
    select (public.chart_rules() ->> 'min_listeners')::int as min_listeners,
           make_interval(days => (public.chart_rules() ->> 'window_days')::int) as window_len
  ), heard as (
    select distinct h.song_id, h.user_id, (h.listened_at at time zone 'utc')::date as day
      from public.user_listening_history h
      join public.songs s on s.id = h.song_id
     cross join r
     where h.listened_at > clock_timestamp() - r.window_len
       and s.owner_id is distinct from h.user_id
  ), trusted as (
    select l.user_id
      from (select distinct user_id from heard) l
     cross join lateral public.account_trust(l.user_id) t
     where t.trusted
  )
  select h.song_id, count(*)::int, count(distinct h.user_id)::int
    from heard h
   where h.user_id in (select user_id from trusted)
   group by h.song_id
  having count(distinct h.user_id) >= (select min_listeners from r)
$$;

revoke all on function public.chart_plays() from public, anon, authenticated, service_role;

create or replace function public.chart_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object('min_listeners', 10, 'window_days', 7, 'per', 'listener, song and UTC day')
$$;

revoke all on function public.chart_rules() from public, anon, authenticated, service_role;

grant EXECUTE on function public.chart_rules() to anon, authenticated, service_role;

create or replace function public.check_profile_change() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  r constant json := public.profile_rules();
  v_problem text;
  v_taken text;
begin
  if new.username is distinct from old.username then
    new.username := normalize(btrim(new.username), NFKC);
    v_problem := public.username_rule_problem(new.username);
    if v_problem is not null then
      raise exception 'invalid_username' using errcode = '22023', detail = v_problem;
    end if;
    v_taken := public.username_lookalike(new.username, new.user_id);
    if v_taken is not null then
      raise exception 'username_taken' using errcode = '23505', detail = public.username_taken_words(new.username, v_taken);
    end if;
  end if;
  if new.bio is distinct from old.bio and char_length(coalesce(new.bio, '')) > (r ->> 'bio_max')::int then
    raise exception 'bio_too_long' using errcode = '22023', detail = 'A bio is at most 300 characters.';
  end if;
  return new;
end
$$;

create or replace function public.comment_credit(p_user uuid, p_amount int, p_reason text, p_ref text, p_key text, p_key_prefix text,
  p_cap int) returns int
language plpgsql security definer set search_path = '' as $$
declare
  v_day_start timestamptz := date_trunc('day', now() at time zone 'utc') at time zone 'utc';
  v_amount int;
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
  v_amount := public.address_allowance(p_amount);
  if v_amount <= 0 then
    return 0;
  end if;
  perform public.post_ledger(p_user, v_amount, p_reason, p_ref, p_key);
  return v_amount;
end
$$;

create or replace function public.create_proposal(p_title text, p_description text, p_category text, p_ends_at timestamptz,
  p_attempt_key text default null) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.governance_rules();
  c_cost constant int := (c_rules ->> 'proposal_cost')::int;
  c_min constant interval := make_interval(hours => (c_rules ->> 'min_duration_hours')::int);
  v_uid uuid := public.require_uid();
  v_balance int;
  v_proposal public.proposals;
  v_id uuid := gen_random_uuid();
  v_key text;
  v_first text;
  v_title text := btrim(coalesce(p_title, ''));
  v_description text := btrim(coalesce(p_description, ''));
begin
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
      detail = format('A title has at most %s characters and a description at most %s.',
        c_rules ->> 'max_title', c_rules ->> 'max_description');
  end if;
  if not exists (select 1 from json_array_elements_text(c_rules -> 'categories') c where c = p_category) then
    raise exception 'unknown_category' using errcode = '22023', detail = 'Choose one of the categories.';
  end if;
  if p_ends_at <= now() then
    raise exception 'end_date_in_past' using errcode = '22023', detail = 'The end date must be in the future.';
  end if;
  if p_ends_at < now() + c_min - interval '5 minutes'
     or p_ends_at > now() + make_interval(days => (c_rules ->> 'max_duration_days')::int, hours => 1) then
    raise exception 'invalid_duration' using errcode = '22023',
      detail = format('A proposal runs %s to %s days.', c_rules ->> 'min_duration_days', c_rules ->> 'max_duration_days');
  end if;
  if v_balance < (c_rules ->> 'min_balance')::int or v_balance < c_cost then
    raise exception 'insufficient_balance' using errcode = 'P0001',
      detail = format('You need at least %s CUBE to create a proposal', c_rules ->> 'min_balance');
  end if;

  v_balance := public.post_ledger(v_uid, -c_cost, 'proposal', v_id::text, v_key);
  insert into public.proposals (id, author_id, author_name, title, description, category, ends_at)
  values (v_id, v_uid, coalesce((select username from public.profiles where user_id = v_uid), 'listener'), v_title, v_description,
          p_category, greatest(p_ends_at, now() + c_min))
  returning * into v_proposal;
  return json_build_object('proposal', to_json(v_proposal), 'balance', v_balance, 'repeated', false);
end
$$;

create or replace function public.delegate_voting_power(p_username text default null) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_delegate uuid;
  v_trust json;
begin
  -- The same lock cast_vote takes: a vote by this user (or with their power) is not in flight.
  perform public.init_user_tokens();
  perform 1 from public.user_tokens where user_id = v_uid for update;
  if p_username is not null and btrim(p_username) <> '' then
    select user_id into v_delegate from public.profiles where username = btrim(p_username);
    if not found then
      raise exception 'unknown_user' using errcode = '22023', detail = format('There is no user named %s.', btrim(p_username));
    end if;
    if v_delegate = v_uid then
      raise exception 'self_delegation' using errcode = '22023', detail = 'You cannot delegate to yourself.';
    end if;
    v_trust := public.trust_status(v_uid);
    if not (v_trust ->> 'trusted')::boolean then
      raise exception 'not_trusted' using errcode = '22023',
        detail = 'Your CUBE carry no voting power until your account is trusted, so there is nothing to delegate yet. '
          || public.trust_missing(v_trust);
    end if;
    if public.accounts_linked(v_uid, v_delegate) then
      raise exception 'linked_account' using errcode = '22023',
        detail = format('%s was used from the same address as your account lately, so you cannot delegate to them.', btrim(p_username));
    end if;
  end if;
  insert into public.delegations (delegator_id, delegate_id) values (v_uid, v_delegate)
  on conflict (delegator_id) do update set delegate_id = excluded.delegate_id, created_at = now();
  return public.governance_overview();
end
$$;

create or replace function public.delete_comment(p_comment_id uuid) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_comment public.comments;
begin
  select * into v_comment from public.comments where id = p_comment_id and user_id = v_uid and not deleted for update;
  if not found then
    raise exception 'not_your_comment' using errcode = '42501', detail = 'Only the author can delete a comment.';
  end if;
  if exists (select 1 from public.comments where parent_id = p_comment_id) then
    delete from public.comment_likes where comment_id = p_comment_id;
    update public.comments set deleted = true, body = '', like_count = 0 where id = p_comment_id;
    return json_build_object('id', p_comment_id, 'kept_for_replies', true);
  end if;
  delete from public.comments where id = p_comment_id;
  if v_comment.parent_id is not null then
    delete from public.comments p
     where p.id = v_comment.parent_id and p.deleted
       and not exists (select 1 from public.comments r where r.parent_id = p.id);
  end if;
  return json_build_object('id', p_comment_id, 'kept_for_replies', false);
end
$$;

create or replace function public.delete_my_account(p_confirm_username text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid('not_authenticated', 'Sign in first.');
  v_name text;
  v_left int;
begin
  if not public.aal_satisfied() then
    raise exception 'insufficient_aal' using errcode = '42501', detail = 'Confirm your two-factor code first.';
  end if;
  select username into v_name from public.profiles where user_id = v_uid for update;
  if v_name is null or p_confirm_username is distinct from v_name then
    raise exception 'confirmation_mismatch' using errcode = '22023', detail = 'Type your username exactly to confirm.';
  end if;
  if exists (select 1 from public.administrators where user_id = v_uid)
     and not exists (select 1 from public.administrators where user_id <> v_uid) then
    raise exception 'last_admin' using errcode = '22023', detail =
        'The last administrator cannot delete their account: grant the role to someone else first.';
  end if;
  select count(*) into v_left from storage.objects where (storage.foldername(name))[1] = v_uid::text;
  if v_left > 0 then
    raise exception 'storage_not_empty' using errcode = '22023', detail =
        format('%s of your files are still stored; remove them first.', v_left);
  end if;

  -- Likes given go, and the counts they added with them.
  update public.comments c set like_count = greatest(c.like_count - 1, 0)
    from public.comment_likes l where l.comment_id = c.id and l.user_id = v_uid;
  -- Comments: those others replied to stay as 'comment deleted' without their author; the rest go.
  update public.comments c set body = '', deleted = true, username = 'deleted user'
   where c.user_id = v_uid and exists (select 1 from public.comments r where r.parent_id = c.id and r.user_id is distinct from v_uid);
  delete from public.comments where user_id = v_uid and not deleted;
  delete from public.comments c where c.user_id = v_uid and c.deleted
     and not exists (select 1 from public.comments r where r.parent_id = c.id and r.user_id is distinct from v_uid);
  -- Published songs leave the catalogue (listens and comments on them stay as history).
  delete from public.songs where owner_id = v_uid;
  delete from auth.users where id = v_uid;
  return json_build_object('deleted', true);
end
$$;

create or replace function public.edit_comment(p_comment_id uuid, p_body text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_body text := regexp_replace(coalesce(p_body, ''), '^\s+|\s+$', '', 'g');
  v_max int := (public.comment_rules() ->> 'max_length')::int;
begin
  if v_body = '' then
    raise exception 'empty_comment' using errcode = '22023', hint = 'Write something first.';
  end if;
  if char_length(v_body) > v_max then
    raise exception 'comment_too_long' using errcode = '22001', detail =
        format('A comment has at most %s characters; this one has %s.', v_max, char_length(v_body));
  end if;
  update public.comments set body = v_body, edited_at = now()
   where id = p_comment_id and user_id = v_uid and not deleted;
  if not found then
    raise exception 'not_your_comment' using errcode = '42501', detail = 'Only the author can edit a comment.';
  end if;
  return public.comment_json(p_comment_id);
end
$$;

create or replace function public.governance_overview() returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_delegation public.delegations;
  v_trust json;
  v_delegated bigint;
  v_own bigint;
begin
  perform public.close_due_proposals();
  select * into v_delegation from public.delegations where delegator_id = v_uid;
  v_trust := public.trust_status(v_uid);
  v_own := public.governance_own_power(v_uid);
  select coalesce(sum(public.governance_own_power(d.delegator_id)), 0) into v_delegated
    from public.delegations d
   where d.delegate_id = v_uid;
  return json_build_object(
    'balance', coalesce((select balance from public.user_tokens where user_id = v_uid), 0),
    'locked', (v_trust ->> 'locked')::int,
    'trusted', (v_trust ->> 'trusted')::boolean,
    'own_power', v_own,
    'delegated_power', v_delegated,
    'voting_power', case when v_delegation.delegator_id is null then v_own + v_delegated else 0 end,
    'delegation', case when v_delegation.delegator_id is null then null else json_build_object(
      'delegate_id', v_delegation.delegate_id,
      'delegate_name', (select username from public.profiles where user_id = v_delegation.delegate_id),
      'since', v_delegation.created_at) end,
    'delegators', coalesce((
      select json_agg(json_build_object('username', coalesce(pr.username, 'listener'), 'power', public.governance_own_power(d.delegator_id),
                                        'since', d.created_at) order by d.created_at)
        from public.delegations d left join public.profiles pr on pr.user_id = d.delegator_id
       where d.delegate_id = v_uid), '[]'::json),
    'active_count', (select count(*) from public.proposals where status = 'active'),
    'voted_active', (select count(*) from public.votes v join public.proposals p on p.id = v.proposal_id
                      where v.user_id = v_uid and p.status = 'active')
  );
end
$$;

create or replace function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_given text := nullif(btrim(coalesce(new.raw_user_meta_data ->> 'username', '')), '');
  v_base text;
  v_candidate text;
  v_problem text;
  v_taken text;
  v_n int := 0;
begin
  if v_given is not null then
    v_base := normalize(v_given, NFKC);
    v_problem := public.username_rule_problem(v_base);
    if v_problem is not null then
      raise exception 'invalid_username' using errcode = '22023', detail = v_problem;
    end if;
    v_taken := public.username_lookalike(v_base);
    if v_taken is not null then
      raise exception 'username_taken' using errcode = '23505', detail = public.username_taken_words(v_base, v_taken);
    end if;
    begin
      insert into public.profiles (user_id, username) values (new.id, v_base);
    exception when unique_violation then
      raise exception 'username_taken' using errcode = '23505', detail = public.username_taken_words(v_base, v_base);
    end;
    return new;
  end if;
  v_base := left(regexp_replace(normalize(split_part(coalesce(new.email, ''), '@', 1), NFC), '[^A-Za-z0-9._-]', '', 'g'), 24);
  if char_length(v_base) < 3 then
    v_base := 'listener';
  end if;
  v_candidate := v_base;
  loop
    if public.username_lookalike(v_candidate) is null then
      begin
        insert into public.profiles (user_id, username) values (new.id, v_candidate);
        return new;
      exception when unique_violation then
        -- A concurrent sign-up took the name between the check and the insert: try the next one.
        null;
      end;
    end if;
    v_n := v_n + 1;
    if v_n > 10000 then
      raise exception 'could not find a free username for %', v_base;
    end if;
    -- The number replaces the name's end when needed, so the result still fits 30 characters.
    v_candidate := left(v_base, 30 - char_length('-' || v_n::text)) || '-' || v_n::text;
  end loop;
end
$$;

CREATE OR REPLACE FUNCTION public.init_user_tokens()
 RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path TO '' AS $function$
declare
  v_uid uuid := public.require_uid();
  v_today date := (now() at time zone 'utc')::date;
  v_wallet public.user_tokens;
begin
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

create or replace function public.link_rules() returns json
language sql stable set search_path = '' as $$
  select json_build_object(
    'min_account_age_hours', (public.reward_rules() -> 'creator' ->> 'min_listener_age_hours')::int,
    'link_days', (public.reward_rules() -> 'creator' ->> 'link_days')::int,
    'address_daily_cap', 1000
  )
$$;

revoke all on function public.link_rules() from public, anon, authenticated, service_role;

grant EXECUTE on function public.link_rules() to anon, authenticated, service_role;

create or replace function public.listen_begin(p_song_id text, p_duration numeric, p_reward int, p_creator uuid,
                                               p_play_id text, p_interacted boolean)
returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_now timestamptz := clock_timestamp();
  v_session public.listening_sessions;
  v_previous public.listening_sessions;
  v_settled public.listening_sessions;
  v_prior_outcome text;
  v_answer jsonb;
begin
  if p_play_id is null or char_length(p_play_id) not between 1 and 200 then
    raise exception 'invalid_play_id' using errcode = '22023', detail = 'A play id of 1 to 200 characters is required';
  end if;
  perform public.init_user_tokens();
  -- Every listen call of this user waits here, with the wallets the previous session may pay.
  select * into v_previous from public.listening_sessions where user_id = v_uid and ended_at is null;
  perform public.listen_lock(array[v_uid, v_previous.creator_id]);

  select * into v_session from public.listening_sessions where user_id = v_uid and play_key = p_play_id;
  if found then
    return public.listen_answer(v_session);
  end if;
  if p_duration is null then
    return json_build_object('session_id', null, 'credited', 0, 'reason', 'unknown_song');
  end if;
  if p_interacted then
    update public.user_tokens set last_interaction_at = v_now where user_id = v_uid;
  end if;
  select * into v_previous from public.listening_sessions where user_id = v_uid and ended_at is null for update;
  if found then
    v_prior_outcome := v_previous.outcome;
    v_settled := public.listen_settle(v_previous.id, false, true);
  end if;
  insert into public.listening_sessions
    (user_id, play_key, song_id, duration_seconds, reward, creator_id, client_address, started_at, last_report_at)
  values (v_uid, p_play_id, p_song_id, p_duration, p_reward, p_creator, public.note_account_client(v_uid), v_now, v_now)
  returning * into v_session;
  v_answer := public.listen_answer(v_session)::jsonb;
  -- Only a decision the settle made just now is news; one already answered was already shown.
  if v_settled.id is not null and v_settled.outcome is distinct from v_prior_outcome then
    v_answer := v_answer || jsonb_build_object('previous', jsonb_build_object(
      'session_id', v_settled.id,
      'song_id', v_settled.song_id,
      'heard_seconds', floor(v_settled.heard_seconds),
      'credited', v_settled.credited,
      'reason', v_settled.outcome));
  end if;
  return v_answer::json;
end
$$;

create or replace function public.listen_offline(p_song_id text, p_play_id text, p_played_at timestamptz) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_max_age constant interval := interval '7 days';
  c_daily_plays constant int := 50;
  v_uid uuid := public.require_uid();
  v_now timestamptz := clock_timestamp();
  v_song public.songs;
  v_id uuid;
begin
  if p_play_id is null or char_length(p_play_id) not between 1 and 200 then
    raise exception 'invalid_play_id' using errcode = '22023', detail = 'A play id of 1 to 200 characters is required';
  end if;
  if p_played_at is null or p_played_at > v_now + interval '5 minutes' then
    raise exception 'invalid_played_at' using errcode = '22023', detail = 'An offline play needs the time it was played, not in the future';
  end if;
  select * into v_song from public.songs where id = p_song_id;
  if not found then
    return json_build_object('recorded', false, 'credited', 0, 'reason', 'unknown_song');
  end if;
  if p_played_at < v_now - c_max_age then
    return json_build_object('recorded', false, 'credited', 0, 'reason', 'too_old');
  end if;
  perform public.init_user_tokens();
  -- Every listen call of this user waits here, so concurrent reports count against the cap in turn.
  perform 1 from public.user_tokens where user_id = v_uid for update;
  if exists (select 1 from public.listening_sessions where user_id = v_uid and play_key = p_play_id) then
    return json_build_object('recorded', false, 'credited', 0, 'reason', 'duplicate');
  end if;
  if (select count(*) from public.listening_sessions
       where user_id = v_uid and outcome = 'offline' and last_report_at > v_now - interval '24 hours') >= c_daily_plays then
    return json_build_object('recorded', false, 'credited', 0, 'reason', 'offline_limit');
  end if;
  insert into public.listening_sessions
    (user_id, play_key, song_id, duration_seconds, reward, creator_id, client_address, started_at, last_report_at,
     playing, outcome, ended_at)
  values (v_uid, p_play_id, v_song.id, v_song.duration_seconds, v_song.reward, v_song.owner_id, public.note_account_client(v_uid),
          least(p_played_at, v_now), v_now, false, 'offline', v_now)
  returning id into v_id;
  insert into public.user_listening_history (user_id, song_id, listened_at, seconds)
  values (v_uid, v_song.id, least(p_played_at, v_now), 0);
  return json_build_object('recorded', true, 'credited', 0, 'reason', 'offline', 'session_id', v_id);
end
$$;

create or replace function public.listen_report(p_session_id uuid, p_playing boolean,
                                     p_interacted boolean default false, p_ended boolean default false)
returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_session public.listening_sessions;
begin
  if p_session_id is null or p_playing is null then
    raise exception 'invalid_report' using errcode = '22023', detail = 'A session id and whether it is playing are required';
  end if;
  select * into v_session from public.listening_sessions where id = p_session_id and user_id = v_uid;
  if not found then
    raise exception 'unknown_session' using errcode = 'PT404', detail = 'No listening session of yours has this id';
  end if;
  perform public.listen_lock(array[v_uid, v_session.creator_id]);
  if coalesce(p_interacted, false) then
    update public.user_tokens set last_interaction_at = clock_timestamp() where user_id = v_uid;
  end if;
  return public.listen_answer(public.listen_settle(p_session_id, p_playing, coalesce(p_ended, false)));
end
$$;

create or replace function public.listen_settle(p_session uuid, p_playing boolean, p_end boolean) returns public.listening_sessions
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant jsonb := public.reward_rules()::jsonb;
  c_listen constant jsonb := c_rules -> 'listen';
  c_creator constant jsonb := c_rules -> 'creator';
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
  v_heard numeric;
  v_earning numeric;
  v_threshold numeric;
  v_outcome text;
  v_credited int;
  v_creator_credit int;
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
  -- What the row becomes; written once, below.
  v_heard := v_s.heard_seconds + v_add;
  v_earning := v_s.earning_seconds + case when v_active then v_add else 0 end;
  v_outcome := v_s.outcome;
  v_credited := v_s.credited;
  v_history := v_s.history_id;

  v_threshold := least((c_listen ->> 'qualify_seconds')::numeric, v_s.duration_seconds * (c_listen ->> 'qualify_fraction')::numeric);
  if v_s.credited > 0 or v_s.outcome in ('own_song', 'song_limit', 'daily_cap', 'cube_cap', 'address_cap') or v_heard < v_threshold then
    if v_s.history_id is not null then
      update public.user_listening_history set seconds = floor(v_earning)::int where id = v_s.history_id;
    end if;
  elsif not v_active then
    -- Idle for too long: nothing earns until the listener interacts ('inactive' stays undecided).
    v_outcome := 'inactive';
  elsif v_earning < v_threshold then
    -- Only time heard while the listener counted as active qualifies a listen.
    v_outcome := null;
  else
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
      if v_credit > 0 then
        -- The address bound: what this address's requests may still make the server pay today.
        v_credit := public.address_allowance(v_credit);
        if v_credit <= 0 then
          v_outcome := 'address_cap';
        end if;
      end if;
    end if;

    if v_outcome = 'credited' then
      -- post_ledger() also counts the listen in the wallet's daily counters (same row write).
      perform public.post_ledger(v_s.user_id, v_credit, 'listen', v_s.song_id, 'listen:' || v_s.id::text);
      insert into public.user_listening_history (user_id, song_id, listened_at, seconds)
      values (v_s.user_id, v_s.song_id, v_now, floor(v_earning)::int)
      returning id into v_history;
      v_credited := v_credit;
      if v_s.creator_id is not null
         and exists (select 1 from public.user_tokens where user_id = v_s.creator_id)
         and not public.listener_linked_to_creator(v_s.user_id, v_s.creator_id)
         and (select count(*) from public.token_ledger
               where user_id = v_s.creator_id and reason = 'creator' and created_at >= v_day_start)
             < (c_creator ->> 'daily_cap')::int then
        -- Taken only once every other test passed (the allowance writes its counter).
        v_creator_credit := public.address_allowance((c_creator ->> 'reward')::int);
        if v_creator_credit > 0 then
          perform public.post_ledger(v_s.creator_id, v_creator_credit, 'creator', v_s.song_id, 'creator:' || v_s.id::text);
        end if;
      end if;
    elsif v_outcome <> 'own_song' then
      -- A refused listen is still a play (discovery counts plays), with no earning seconds.
      insert into public.user_listening_history (user_id, song_id, listened_at, seconds) values (v_s.user_id, v_s.song_id, v_now, 0);
    end if;
  end if;

  update public.listening_sessions
     set heard_seconds = v_heard,
         earning_seconds = v_earning,
         last_report_at = v_now,
         playing = p_playing and not p_end,
         ended_at = case when p_end then v_now end,
         outcome = v_outcome,
         credited = v_credited,
         history_id = v_history
   where id = v_s.id
  returning * into v_s;
  return v_s;
end
$$;

create or replace function public.listener_linked_to_creator(p_listener uuid, p_creator uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return public.accounts_linked(p_listener, p_creator);
end
$$;

create or replace function public.lock_wallet(p_user uuid) returns int
language plpgsql set search_path = '' as $$
declare
  v_balance int;
begin
  select balance into v_balance from public.user_tokens where user_id = p_user for update;
  if not found then
    raise exception 'no_wallet' using errcode = '22023';
  end if;
  return v_balance;
end
$$;

revoke all on function public.lock_wallet(uuid) from public, anon, authenticated, service_role;

grant EXECUTE on function public.lock_wallet(uuid) to service_role;

create or replace function public.my_address_allowance() returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  v_address text := public.client_address();
  v_cap int := (public.link_rules() ->> 'address_daily_cap')::int;
  v_earned int;
begin
  perform public.require_uid();
  select earned into v_earned from public.address_earnings
   where address_key = public.address_key(coalesce(v_address, ''))
     and day = (clock_timestamp() at time zone 'utc')::date;
  return json_build_object('daily_cap', v_cap, 'earned_today', coalesce(v_earned, 0),
                           'left_today', greatest(v_cap - coalesce(v_earned, 0), 0));
end
$$;

revoke all on function public.my_address_allowance() from public, anon, authenticated, service_role;

grant EXECUTE on function public.my_address_allowance() to authenticated, service_role;

create or replace function public.my_comment_stats() returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  c_rules constant json := public.comment_rules();
  c_per_level constant int := (c_rules ->> 'tracks_per_level')::int;
  c_goal constant int := (c_rules ->> 'daily_goal_tracks')::int;
  v_uid uuid := public.require_uid();
  v_day text := to_char(now() at time zone 'utc', 'YYYY-MM-DD');
  v_tracks int;
  v_today int;
begin
  select count(distinct song_id) into v_tracks from public.comments where user_id = v_uid and not deleted;
  select count(*) into v_today from public.token_ledger
   where user_id = v_uid and reason = 'comment' and idempotency_key like 'comment:' || v_uid || ':%:' || v_day;
  return json_build_object(
    'total_comments', (select count(*) from public.comments where user_id = v_uid and not deleted),
    'tokens_earned', (select coalesce(sum(amount), 0) from public.token_ledger
                       where user_id = v_uid and reason in ('comment', 'like', 'reply', 'comment_goal')),
    'tracks_commented', v_tracks,
    'level', 1 + v_tracks / c_per_level,
    'tracks_to_next_level', c_per_level - v_tracks % c_per_level,
    'level_progress', round(100.0 * (v_tracks % c_per_level) / c_per_level),
    'goal_tracks_today', least(v_today, c_goal),
    'goal_tracks', c_goal,
    'goal_reached', exists (select 1 from public.token_ledger where idempotency_key = 'comment_goal:' || v_uid || ':' || v_day)
  );
end
$$;

create or replace function public.my_creator_earnings() returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_day_start timestamptz := date_trunc('day', clock_timestamp() at time zone 'utc') at time zone 'utc';
begin
  return json_build_object(
    'total', (select coalesce(sum(amount), 0) from public.token_ledger where user_id = v_uid and reason = 'creator'),
    'today', (select coalesce(sum(amount), 0) from public.token_ledger
               where user_id = v_uid and reason = 'creator' and created_at >= v_day_start),
    'daily_cap', (public.reward_rules() -> 'creator' ->> 'daily_cap')::int,
    'per_listen', (public.reward_rules() -> 'creator' ->> 'reward')::int,
    'songs', coalesce((
      select json_agg(json_build_object('song_id', s.id, 'title', s.title, 'slug', s.slug, 'listens', coalesce(e.listens, 0),
                                        'cube', coalesce(e.cube, 0)) order by coalesce(e.cube, 0) desc, s.title)
        from public.songs s
        left join (select reference, count(*) as listens, sum(amount) as cube from public.token_ledger
                    where user_id = v_uid and reason = 'creator' group by reference) e on e.reference = s.id
       where s.owner_id = v_uid), '[]'::json)
  );
end
$$;

create or replace function public.my_trust_status() returns json
language plpgsql stable security definer set search_path = '' as $$
begin
  perform public.require_uid();
  return public.trust_status(auth.uid());
end
$$;

create or replace function public.my_votes() returns table (proposal_id uuid, title text, choice text, power bigint, voted_at
    timestamptz, status text, ends_at timestamptz)
language plpgsql security definer set search_path = '' as $$
begin
  perform public.require_uid();
  perform public.close_due_proposals();
  return query
    select v.proposal_id, p.title, v.choice, v.power, v.created_at, p.status, p.ends_at
      from public.votes v join public.proposals p on p.id = v.proposal_id
     where v.user_id = auth.uid()
     order by v.created_at desc;
end
$$;

drop function if exists public.open_share(text);

create or replace function public.open_share(p_token text, p_nonce text default null) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.share_rules();
  c_visit constant json := public.share_visit_rules();
  c_cap constant int := (c_rules ->> 'daily_cap')::int;
  v_uid uuid := auth.uid();
  v_address text := public.client_address();
  v_today date := (clock_timestamp() at time zone 'utc')::date;
  v_link public.share_links;
  v_visit public.share_visits;
  v_amount int;
  v_reason text;
  -- Hashed: the tables never hold a visitor's address.
  v_address_key text := case when v_address is not null then 'a:' || public.address_key(v_address) end;
  v_account_key text := case when v_uid is not null then 'u:' || v_uid::text end;
begin
  v_link := public.share_link_by_token(p_token);
  v_amount := coalesce((c_rules -> 'amounts' ->> v_link.platform)::int, v_link.amount);

  -- Every open of this sharer's links waits here for the previous one to commit.
  perform 1 from public.user_tokens where user_id = v_link.user_id for update;

  if p_nonce is not null and p_nonce ~ '^[0-9a-f]{64}$' then
    select * into v_visit from public.share_visits where nonce = p_nonce and link_id = v_link.id;
  end if;

  if v_uid is not null and v_uid = v_link.user_id then
    v_reason := 'own_link';
  elsif not public.request_from_app_page() then
    v_reason := 'not_from_app';
  elsif v_visit.nonce is null or v_address_key is null or v_visit.visitor_key <> v_address_key then
    v_reason := 'unproven_visit';
  elsif v_visit.redeemed_at is not null then
    v_reason := 'visit_already_counted';
  elsif v_visit.issued_at > clock_timestamp() - make_interval(secs => (c_visit ->> 'min_seconds')::int) then
    -- Too early to be a page someone saw; the nonce stays valid for the page's own later call.
    v_reason := 'visit_too_short';
  elsif v_visit.issued_at < clock_timestamp() - make_interval(secs => (c_visit ->> 'max_seconds')::int) then
    v_reason := 'visit_expired';
  else
    -- The visit is proven: it is spent now, whatever the rules below decide.
    update public.share_visits set redeemed_at = clock_timestamp() where nonce = v_visit.nonce;
    if cardinality(v_link.sharer_addresses) = 0 then
      v_reason := 'unknown_client';
    elsif v_address = any (v_link.sharer_addresses)
          -- ... or any address the sharer listened or published from lately (their phone, their other browser).
          or exists (select 1 from public.account_clients c
                      where c.user_id = v_link.user_id and c.client_address = v_address
                        and c.last_seen > now() - make_interval(days => (public.reward_rules() -> 'creator' ->> 'link_days')::int)) then
      v_reason := 'same_client';
    elsif v_uid is not null and public.listener_linked_to_creator(v_uid, v_link.user_id) then
      -- A signed-in opener linked to the sharer is the sharer's own, not someone else.
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
      -- The opener's request pays the sharer, so it is paid out of the opener's address's daily bound,
      -- as every reward a request makes the server pay (public.address_allowance).
      v_amount := public.address_allowance(v_amount);
      if v_amount = 0 then
        v_reason := 'address_cap';
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
    end if;
    -- The sharer sees what a proven visit did, live on their own link (Realtime re-reads it as them):
    -- paid, or why not. Only the reason and the time: nothing that tells who opened it.
    update public.share_links set last_open_reason = v_reason, last_open_at = clock_timestamp() where id = v_link.id;
  end if;

  return json_build_object('credited', v_reason = 'credited', 'reason', v_reason);
end
$$;

revoke all on function public.open_share(text,text) from public, anon, authenticated, service_role;

grant EXECUTE on function public.open_share(text,text) to anon, authenticated, service_role;

create or replace function public.own_remix_locked(p_remix_id uuid, p_user uuid) returns public.remixes
language plpgsql set search_path = '' as $$
declare
  v_remix public.remixes;
begin
  select * into v_remix from public.remixes where id = p_remix_id and user_id = p_user for update;
  if not found then
    raise exception 'remix_not_found' using errcode = '22023';
  end if;
  return v_remix;
end
$$;

revoke all on function public.own_remix_locked(uuid,uuid) from public, anon, authenticated, service_role;

grant EXECUTE on function public.own_remix_locked(uuid,uuid) to service_role;

create or replace function public.post_comment(p_song_id text, p_body text, p_parent_id uuid default null,
  p_at_seconds numeric default null)
returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.comment_rules();
  v_uid uuid := public.require_uid();
  v_day text := to_char(now() at time zone 'utc', 'YYYY-MM-DD');
  v_body text := regexp_replace(coalesce(p_body, ''), '^\s+|\s+$', '', 'g');
  v_parent public.comments;
  v_username text;
  v_id uuid;
  v_got int;
  v_credited jsonb := '[]'::jsonb;
  v_tracks_today int;
  v_length numeric;
begin
  if v_body = '' then
    raise exception 'empty_comment' using errcode = '22023', hint = 'Write something first.';
  end if;
  if char_length(v_body) > (c_rules ->> 'max_length')::int then
    raise exception 'comment_too_long' using errcode = '22001',
      detail = format('A comment has at most %s characters; this one has %s.', c_rules ->> 'max_length', char_length(v_body));
  end if;
  if p_song_id is null or not exists (select 1 from public.songs where id = p_song_id) then
    raise exception 'unknown_song' using errcode = '22023', detail = 'There is no such song.';
  end if;
  if p_parent_id is not null then
    select * into v_parent from public.comments where id = p_parent_id;
    if not found or v_parent.song_id <> p_song_id then
      raise exception 'unknown_comment' using errcode = '22023', detail = 'The comment you reply to does not exist.';
    end if;
    if v_parent.parent_id is not null then
      raise exception 'reply_to_reply' using errcode = '22023', detail = 'Replies cannot be replied to.';
    end if;
    if v_parent.deleted then
      raise exception 'comment_deleted' using errcode = '22023', detail = 'The comment you reply to was deleted.';
    end if;
  end if;

  if p_at_seconds is not null then
    if p_parent_id is not null then
      raise exception 'invalid_moment' using errcode = '22023', detail = 'A reply belongs to the moment of the comment it answers.';
    end if;
    select duration_seconds into v_length from public.songs where id = p_song_id;
    if p_at_seconds = 'NaN'::numeric or p_at_seconds < 0 or (v_length is not null and p_at_seconds > v_length) then
      raise exception 'invalid_moment' using errcode = '22023',
        detail = format('A comment can be pinned to a moment between 0:00 and the end of the song (%s s); %s s is not in it.',
                        coalesce(round(v_length)::text, '?'), p_at_seconds::text);
    end if;
  end if;

  perform public.comment_lock_wallets(array_remove(array[v_uid, v_parent.user_id], null));
  perform public.note_account_client(v_uid);
  select username into v_username from public.profiles where user_id = v_uid;
  insert into public.comments (song_id, user_id, username, parent_id, body, at_seconds)
  values (p_song_id, v_uid, coalesce(v_username, 'listener'), p_parent_id, v_body, round(p_at_seconds, 3))
  returning id into v_id;

  if p_parent_id is null then
    v_got := public.comment_credit(v_uid, (c_rules -> 'rewards' ->> 'comment')::int, 'comment', p_song_id,
      'comment:' || v_uid || ':' || p_song_id || ':' || v_day, 'comment:', (c_rules -> 'daily_caps' ->> 'comment')::int);
    if v_got > 0 then
      v_credited := v_credited || jsonb_build_array(jsonb_build_object('reason', 'comment', 'amount', v_got));
      select count(*) into v_tracks_today from public.token_ledger
       where user_id = v_uid and reason = 'comment' and idempotency_key like 'comment:' || v_uid || ':%:' || v_day;
      if v_tracks_today >= (c_rules ->> 'daily_goal_tracks')::int then
        v_got := public.comment_credit(v_uid, (c_rules -> 'rewards' ->> 'daily_goal_bonus')::int, 'comment_goal', v_day,
          'comment_goal:' || v_uid || ':' || v_day, 'comment_goal:', null);
        if v_got > 0 then
          v_credited := v_credited || jsonb_build_array(jsonb_build_object('reason', 'comment_goal', 'amount', v_got));
        end if;
      end if;
    end if;
  elsif v_parent.user_id = v_uid or not public.accounts_linked(v_uid, v_parent.user_id) then
    -- A reply to one's own comment pays the replier only, as before; between linked accounts, nobody.
    v_got := public.comment_credit(v_uid, (c_rules -> 'rewards' ->> 'reply')::int, 'reply', p_parent_id::text,
      'reply:' || v_uid || ':' || p_parent_id, 'reply:', (c_rules -> 'daily_caps' ->> 'reply')::int);
    if v_got > 0 then
      v_credited := v_credited || jsonb_build_array(jsonb_build_object('reason', 'reply', 'amount', v_got));
    end if;
    if v_parent.user_id <> v_uid then
      -- The author's credit; not returned to the replier as theirs.
      perform public.comment_credit(v_parent.user_id, (c_rules -> 'rewards' ->> 'reply_author')::int, 'reply', v_id::text,
        'reply_author:' || p_parent_id || ':' || v_uid, 'reply_author:', (c_rules -> 'daily_caps' ->> 'reply_author')::int);
    end if;
  end if;

  return json_build_object(
    'comment', public.comment_json(v_id),
    'credited', v_credited,
    'balance', (select balance from public.user_tokens where user_id = v_uid)
  );
end
$$;

drop function if exists public.publish_song(text,text,text,numeric,text,text);

create or replace function public.publish_song(
  p_title text,
  p_genre text,
  p_audio_path text,
  p_cover_path text default null,
  p_attempt_key text default null
) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.publishing_rules();
  v_uid uuid := public.require_uid('Sign in to publish a track.');
  v_title text := btrim(coalesce(p_title, ''));
  v_audio record;
  v_cover record;
  v_username text;
  v_today int;
  v_base text;
  v_slug text;
  v_id text := 'pub-' || replace(gen_random_uuid()::text, '-', '');
  v_n int := 1;
  v_cover_url text := null;
  v_first public.song_publications;
  v_first_slug text;
  v_seconds numeric;
begin
  -- One publication at a time per user: the per-day count below cannot be raced.
  select username into v_username from public.profiles where user_id = v_uid for update;
  if v_username is null then
    raise exception 'Your profile is missing; sign in again.' using errcode = '42501';
  end if;

  -- A repeated attempt answers its first publication, before any limit is looked at again: the
  -- quota was used once, by that publication.
  if p_attempt_key is null or char_length(p_attempt_key) not between 8 and 100 then
    raise exception 'Each publication needs an attempt key of 8 to 100 characters; reload the page and publish again.'
      using errcode = '22023';
  end if;
  select * into v_first from public.song_publications where user_id = v_uid and attempt_key = p_attempt_key;
  if found then
    select slug into v_first_slug from public.songs where id = v_first.song_id;
    if v_first_slug is null then
      raise exception 'This track was already published from this dialog and has since been unpublished.' using errcode = '22023';
    end if;
    return json_build_object('id', v_first.song_id, 'slug', v_first_slug, 'repeated', true);
  end if;

  if char_length(v_title) = 0 or char_length(v_title) > (c_rules ->> 'title_max')::int then
    raise exception 'The title must be 1 to % characters.', c_rules ->> 'title_max' using errcode = '22023';
  end if;
  if p_genre is null or not exists (select 1 from json_array_elements_text(c_rules -> 'genres') g where g = p_genre) then
    raise exception 'Unknown genre "%".', coalesce(p_genre, '') using errcode = '22023';
  end if;
  select o.id, o.name, o.metadata, o.version, o.updated_at into v_audio from storage.objects o
   where o.bucket_id = c_rules ->> 'audio_bucket' and o.name = p_audio_path
     and (storage.foldername(o.name))[1] = v_uid::text;
  if not found then
    raise exception 'Upload the audio to your own folder of % first.', c_rules ->> 'audio_bucket' using errcode = '22023';
  end if;
  if coalesce((v_audio.metadata ->> 'size')::bigint, 0) > (c_rules ->> 'max_audio_bytes')::bigint then
    raise exception 'The audio file is larger than % MB.', (c_rules ->> 'max_audio_bytes')::bigint / 1048576 using errcode = '22023';
  end if;
  if not exists (select 1 from json_array_elements_text(c_rules -> 'audio_types') t
                  where t = split_part(v_audio.metadata ->> 'mimetype', ';', 1)) then
    raise exception 'The audio must be Opus/WebM, Ogg or MP3, not %.', coalesce(v_audio.metadata ->> 'mimetype', 'unknown')
      using errcode = '22023';
  end if;
  -- The length is the server's own reading of this very file (measure-audio), never the publisher's.
  select d.duration_seconds into v_seconds from public.audio_durations d
   where d.object_id = v_audio.id and d.object_version is not distinct from v_audio.version
     and d.object_updated_at = v_audio.updated_at;
  if v_seconds is null then
    raise exception using errcode = '22023',
      message = 'The server has not measured this audio file yet (or it changed since): '
        || 'measure it with the measure-audio function, then publish.';
  end if;
  if v_seconds < (c_rules ->> 'min_seconds')::numeric or v_seconds > (c_rules ->> 'max_seconds')::numeric then
    raise exception 'A published track must last % s to % minutes; this one lasts % s.',
      c_rules ->> 'min_seconds', (c_rules ->> 'max_seconds')::int / 60, round(v_seconds) using errcode = '22023';
  end if;

  if p_cover_path is not null then
    select o.name, o.metadata into v_cover from storage.objects o
     where o.bucket_id = c_rules ->> 'cover_bucket' and o.name = p_cover_path
       and (storage.foldername(o.name))[1] = v_uid::text;
    if not found then
      raise exception 'Upload the cover to your own folder of % first.', c_rules ->> 'cover_bucket' using errcode = '22023';
    end if;
    v_cover_url := '/storage/v1/object/public/' || (c_rules ->> 'cover_bucket') || '/' || p_cover_path;
  end if;

  if exists (select 1 from public.songs
              where audio_url = '/storage/v1/object/public/' || (c_rules ->> 'audio_bucket') || '/' || p_audio_path) then
    raise exception 'This audio is already published.' using errcode = '23505';
  end if;

  select count(*) into v_today from public.song_publications
   where user_id = v_uid and published_at >= date_trunc('day', now() at time zone 'utc') at time zone 'utc';
  if v_today >= (c_rules ->> 'per_day')::int then
    raise exception 'You can publish % tracks per day; try again tomorrow (UTC).', c_rules ->> 'per_day' using errcode = '54000';
  end if;

  v_base := public.slugify(v_title);
  v_slug := v_base;
  while exists (select 1 from public.songs where slug = v_slug) loop
    v_n := v_n + 1;
    v_slug := v_base || '-' || v_n;
  end loop;

  insert into public.songs (id, title, artist, duration_seconds, slug, genre, owner_id, cover_url, audio_url)
  values (v_id, v_title, v_username, round(v_seconds, 3), v_slug, p_genre, v_uid,
          v_cover_url, '/storage/v1/object/public/' || (c_rules ->> 'audio_bucket') || '/' || p_audio_path);
  insert into public.song_publications (user_id, song_id, attempt_key) values (v_uid, v_id, p_attempt_key);
  return json_build_object('id', v_id, 'slug', v_slug, 'repeated', false);
end
$$;

revoke all on function public.publish_song(text,text,text,text,text) from public, anon, authenticated, service_role;

grant EXECUTE on function public.publish_song(text,text,text,text,text) to authenticated, service_role;

create or replace function public.recommend_songs(p_mode text default 'daily', p_salt int default 0, p_limit int default 10) returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_seed text := ((clock_timestamp() at time zone 'utc')::date)::text || ':' || coalesce(p_salt, 0)::text;
  v_jitter float8 := case when coalesce(p_salt, 0) = 0 then 0.15 else 0.6 end;
  v_result json;
begin
  if p_mode is null or p_mode not in ('daily', 'discover') then
    raise exception 'invalid_mode' using errcode = '22023';
  end if;
  if p_limit is null or p_limit < 1 or p_limit > 50 then
    raise exception 'invalid_limit' using errcode = '22023';
  end if;

  if v_uid is null then
    -- Visitors: the chart (chart_plays); discover: a daily sample of the rest.
    select coalesce(json_agg(r order by r.rank), '[]'::json) into v_result from (
      select s.id, s.slug, s.title, s.artist, s.genre, s.duration_seconds, s.reward, s.cover_url, s.audio_url, s.owner_id,
             coalesce(p.plays, 0) as plays, 'popular' as why,
             row_number() over (order by
               case when p_mode = 'daily' then -coalesce(p.plays, 0) else 0 end,
               case when p_mode = 'discover' then hashtext(v_seed || s.id) else 0 end, s.title) as rank
        from public.songs s
        left join public.chart_plays() p on p.song_id = s.id
       where public.profile_visible(s.owner_id)
    ) r where r.rank <= p_limit;
    return v_result;
  end if;

  v_seed := v_uid::text || ':' || v_seed;
  with hist as (
    select song_id, sum(exp(-date_part('epoch', clock_timestamp() - listened_at) / 1209600.0)) as w, count(*) as n
      from public.user_listening_history where user_id = v_uid group by song_id
  ),
  liked as (select song_id from public.favourites where user_id = v_uid),
  followed as (select following_id from public.follows where follower_id = v_uid),
  signal as (
    select s.genre, s.artist, h.w from hist h join public.songs s on s.id = h.song_id
    union all
    select s.genre, s.artist, 3.0::float8 from liked l join public.songs s on s.id = l.song_id
    union all
    select s.genre, s.artist, 2.0::float8 from followed f join public.songs s on s.owner_id = f.following_id
  ),
  total as (select greatest(sum(w), 1e-9) as t from signal),
  genre_aff as (select genre, sum(w) / (select t from total) as a from signal where genre is not null group by genre),
  artist_aff as (select artist, sum(w) / (select t from total) as a from signal group by artist),
  usual as (select genre from genre_aff order by a desc, genre limit 2),
  popular as (select song_id, plays::float8 as plays from public.chart_plays()),
  maxpop as (select greatest(max(plays), 1) as m from popular),
  scored as (
    select s.id, s.slug, s.title, s.artist, s.genre, s.duration_seconds, s.reward, s.cover_url, s.audio_url, s.owner_id,
           coalesce(p.plays, 0) as plays,
           coalesce(g.a, 0) as genre_affinity,
           coalesce(a.a, 0) as artist_affinity,
           h.song_id is null as unheard,
           coalesce(g.a, 0) * 1.0 + coalesce(a.a, 0) * 0.6
             + case when fo.following_id is not null then 0.2 else 0 end
             + case when h.song_id is null then 0.3 else 0 end
             + coalesce(p.plays, 0) / (select m from maxpop) * 0.1
             -- hashtext and float8 throughout: md5 and numeric cost too much over a 10,000-song catalogue.
             + v_jitter * ((hashtext(v_seed || ':' || s.id)::float8 + 2147483648) / 4294967296) as score,
           s.genre is not null and s.genre in (select genre from usual) as usual_genre
      from public.songs s
      left join genre_aff g on g.genre = s.genre
      left join artist_aff a on a.artist = s.artist
      left join hist h on h.song_id = s.id
      left join popular p on p.song_id = s.id
      left join followed fo on fo.following_id = s.owner_id
     where public.profile_visible(s.owner_id)
  ),
  picked as (
    -- A top-N sort, not a full ranking of the catalogue.
    select *, case when p_mode = 'discover' then (case when usual_genre then 1 else 0 end) else 0 end as k1,
           case when p_mode = 'discover' then hashtext(v_seed || ':d:' || id) else 0 end as k2
      from scored
     order by case when p_mode = 'daily' then -score else 0 end, k1, k2, id
     limit p_limit
  )
  select coalesce(json_agg(json_build_object(
           'id', id, 'slug', slug, 'title', title, 'artist', artist, 'genre', genre,
           'duration_seconds', duration_seconds, 'reward', reward, 'cover_url', cover_url, 'audio_url', audio_url,
           'owner_id', owner_id, 'plays', plays, 'score', round(score::numeric, 4),
           'why', case when p_mode = 'discover' then 'discovery'
                       when genre_affinity > 0 then 'genre' when artist_affinity > 0 then 'artist'
                       when unheard then 'new' else 'popular' end)
           order by case when p_mode = 'daily' then -score else 0 end, k1, k2, id), '[]'::json)
    into v_result
    from picked;
  return v_result;
end
$$;

create or replace function public.record_audio_duration(p_path text, p_size bigint, p_seconds numeric) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.publishing_rules();
  v_object record;
  v_owner uuid;
begin
  select o.id, o.name, o.metadata, o.version, o.updated_at into v_object from storage.objects o
   where o.bucket_id = c_rules ->> 'audio_bucket' and o.name = p_path;
  if not found then
    raise exception 'Upload the audio to your own folder of % first.', c_rules ->> 'audio_bucket' using errcode = '22023';
  end if;
  begin
    v_owner := ((storage.foldername(v_object.name))[1])::uuid;
  exception when invalid_text_representation then
    v_owner := null;
  end;
  if v_owner is null or not exists (select 1 from auth.users where id = v_owner) then
    raise exception 'The audio is not in a user''s folder.' using errcode = '22023';
  end if;
  if coalesce((v_object.metadata ->> 'size')::bigint, -1) <> p_size then
    raise exception 'The audio file changed while the server read it; publish again.' using errcode = '22023';
  end if;
  if p_seconds is null or p_seconds <= 0 or p_seconds > 99999 then
    raise exception 'The audio file''s length could not be read.' using errcode = '22023';
  end if;
  insert into public.audio_durations (object_id, owner_id, bucket_id, name, object_version, object_updated_at, duration_seconds)
  values (v_object.id, v_owner, c_rules ->> 'audio_bucket', v_object.name, v_object.version, v_object.updated_at, round(p_seconds, 3))
  on conflict (object_id) do update
    set object_version = excluded.object_version, object_updated_at = excluded.object_updated_at,
        duration_seconds = excluded.duration_seconds, measured_at = now();
  return json_build_object('duration_seconds', round(p_seconds, 3));
end
$$;

revoke all on function public.record_audio_duration(text,bigint,numeric) from public, anon, authenticated, service_role;

grant EXECUTE on function public.record_audio_duration(text,bigint,numeric) to service_role;

create or replace function public.record_remix_source(p_song_id text, p_remix_id uuid) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid('Sign in to record where a remix comes from.');
  v_song public.songs;
  v_remix public.remixes;
  v_source text;
begin
  select * into v_song from public.songs where id = p_song_id for update;
  if not found or v_song.owner_id is distinct from v_uid then
    raise exception 'Only the creator of a published song can say which remix it is.' using errcode = '42501';
  end if;
  -- Locked: two publications racing for one remix take turns (the second is refused below).
  select * into v_remix from public.remixes where id = p_remix_id and user_id = v_uid for update;
  if not found then
    raise exception 'This is not one of your remixes.' using errcode = '42501';
  end if;
  if v_remix.status <> 'rendered' then
    raise exception 'Only a finished remix can be published as one (this one is %).', v_remix.status using errcode = '22023';
  end if;
  -- Once: the same pair again answers the same, anything else is refused.
  if v_song.remix_id is not null then
    if v_song.remix_id = p_remix_id then
      return json_build_object('remix_of', v_song.remix_of, 'recorded', false);
    end if;
    raise exception 'This song is already published as another remix.' using errcode = '22023';
  end if;
  if exists (select 1 from public.songs where remix_id = p_remix_id) then
    raise exception 'This remix is already published as another song.' using errcode = '22023';
  end if;
  select id into v_source from public.songs where id = v_remix.source_ref and id <> p_song_id;
  update public.songs set remix_id = p_remix_id, remix_of = v_source where id = p_song_id;
  return json_build_object('remix_of', v_source, 'recorded', true);
end
$$;

create or replace function public.record_song_loudness(p_song_id text, p_loudness_lufs real, p_true_peak_dbtp real)
returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid('Sign in to record a song''s loudness.');
  v_owner uuid;
  v_measured boolean;
begin
  if p_loudness_lufs is null or p_loudness_lufs not between -70 and 3 then
    raise exception 'The loudness must be between -70 and +3 LUFS.' using errcode = '22023';
  end if;
  if p_true_peak_dbtp is null or p_true_peak_dbtp not between -100 and 12 then
    raise exception 'The true peak must be between -100 and +12 dBTP.' using errcode = '22023';
  end if;
  select owner_id, loudness_lufs is not null into v_owner, v_measured from public.songs where id = p_song_id for update;
  if not found or v_owner is distinct from v_uid then
    raise exception 'Only the creator of a published song can record its loudness.' using errcode = '42501';
  end if;
  if v_measured then
    return false;
  end if;
  update public.songs set loudness_lufs = p_loudness_lufs, true_peak_dbtp = p_true_peak_dbtp where id = p_song_id;
  return true;
end
$$;

CREATE OR REPLACE FUNCTION public.remix_burn(p_source text, p_attempt_key text)
 RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path TO '' AS $function$
declare
  v_uid uuid := public.require_uid();
  v_cost int := ((public.remix_rules()) ->> 'cost')::int;
  v_balance int;
  v_remix public.remixes;
begin
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

create or replace function public.remix_complete(p_remix_id uuid) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_remix public.remixes;
begin
  v_remix := public.own_remix_locked(p_remix_id, v_uid);
  if v_remix.status = 'refunded' then
    raise exception 'remix_refunded' using errcode = '22023';
  end if;
  update public.remixes set status = 'rendered', updated_at = clock_timestamp() where id = p_remix_id;
  return json_build_object('remix_id', p_remix_id, 'status', 'rendered');
end
$$;

CREATE OR REPLACE FUNCTION public.remix_refund(p_remix_id uuid)
 RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path TO '' AS $function$
declare
  v_uid uuid := public.require_uid();
  v_remix public.remixes;
  v_balance int;
begin
  -- Same lock order as remix_burn (wallet first), then the attempt.
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  v_remix := public.own_remix_locked(p_remix_id, v_uid);
  if v_remix.status = 'rendered' then
    raise exception 'remix_rendered' using errcode = '22023';
  end if;
  if v_remix.status = 'refunded' then
    return json_build_object('remix_id', p_remix_id, 'status', 'refunded', 'balance', v_balance, 'refunded', false);
  end if;
  v_balance := public.post_ledger(v_uid, v_remix.cost, 'remix_refund', v_remix.source_ref, 'remix_refund:' || v_uid::text || ':' ||
      v_remix.attempt_key);
  update public.remixes set status = 'refunded', updated_at = clock_timestamp() where id = p_remix_id;
  return json_build_object('remix_id', p_remix_id, 'status', 'refunded', 'balance', v_balance, 'refunded', true);
end
$function$;

create or replace function public.request_from_app_page() returns boolean
language plpgsql stable security definer set search_path = '' as $$
declare
  h json := nullif(current_setting('request.headers', true), '')::json;
  v_origin text := lower(btrim(h ->> 'origin'));
  v_host text := lower(btrim(h ->> 'host'));
  v_site text := lower(btrim(h ->> 'sec-fetch-site'));
begin
  if v_origin is null or v_origin = '' or v_origin = 'null' then
    return false;
  end if;
  if v_host is not null and v_origin in ('http://' || v_host, 'https://' || v_host) then
    return v_site is null or v_site = 'same-origin';
  end if;
  return exists (select 1 from public.app_origins where lower(origin) = v_origin);
end
$$;

revoke all on function public.request_from_app_page() from public, anon, authenticated, service_role;

grant EXECUTE on function public.request_from_app_page() to service_role;

create or replace function public.require_uid(p_message text default 'not_authenticated', p_detail text default null)
returns uuid
language plpgsql stable set search_path = '' as $$
begin
  if auth.uid() is null and p_detail is null then
    raise exception '%', p_message using errcode = '42501';
  elsif auth.uid() is null then
    raise exception '%', p_message using errcode = '42501', detail = p_detail;
  end if;
  return auth.uid();
end
$$;

revoke all on function public.require_uid(text,text) from public, anon, authenticated, service_role;

grant EXECUTE on function public.require_uid(text,text) to service_role;

create or replace function public.require_wallet_address(p_user uuid, p_address text) returns void
language plpgsql immutable set search_path = '' as $$
begin
  if p_user is null or p_address is null or p_address !~ '^0x[0-9a-fA-F]{40}$' then
    raise exception 'invalid_address' using errcode = '22023';
  end if;
end
$$;

revoke all on function public.require_wallet_address(uuid,text) from public, anon, authenticated, service_role;

grant EXECUTE on function public.require_wallet_address(uuid,text) to service_role;

create or replace function public.set_comment_like(p_comment_id uuid, p_liked boolean) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.comment_rules();
  v_uid uuid := public.require_uid();
  v_comment public.comments;
  v_got int := 0;
  v_count int;
begin
  if p_liked is null then
    raise exception 'invalid_like' using errcode = '22023';
  end if;
  perform public.comment_lock_wallets(array[v_uid]);
  -- Locks the comment: concurrent likes of it count one after the other.
  select * into v_comment from public.comments where id = p_comment_id for update;
  if not found or v_comment.deleted then
    raise exception 'unknown_comment' using errcode = '22023', detail = 'That comment does not exist (any more).';
  end if;
  if p_liked then
    perform public.note_account_client(v_uid);
    insert into public.comment_likes (comment_id, user_id, song_id) values (p_comment_id, v_uid, v_comment.song_id)
    on conflict do nothing;
    if found then
      update public.comments set like_count = like_count + 1 where id = p_comment_id;
    end if;
    if not public.accounts_linked(v_uid, v_comment.user_id) then
      v_got := public.comment_credit(v_uid, (c_rules -> 'rewards' ->> 'like')::int, 'like', p_comment_id::text,
        'like:' || v_uid || ':' || p_comment_id, 'like:', (c_rules -> 'daily_caps' ->> 'like')::int);
    end if;
  else
    delete from public.comment_likes where comment_id = p_comment_id and user_id = v_uid;
    if found then
      update public.comments set like_count = like_count - 1 where id = p_comment_id;
    end if;
  end if;
  select like_count into v_count from public.comments where id = p_comment_id;
  return json_build_object(
    'liked', p_liked,
    'like_count', v_count,
    'credited', case when v_got > 0 then json_build_array(json_build_object('reason', 'like', 'amount', v_got)) else '[]'::json end,
    'balance', (select balance from public.user_tokens where user_id = v_uid)
  );
end
$$;

create or replace function public.share_analytics() returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_today date := (clock_timestamp() at time zone 'utc')::date;
begin
  return json_build_object(
    'profile_visits', (select count(*) from public.page_views where owner_id = v_uid and kind = 'profile'),
    'track_plays', (select count(*) from public.page_views where owner_id = v_uid and kind = 'play'),
    'followers', (select count(*) from public.follows where following_id = v_uid),
    'shares', (select count(*) from public.shares where user_id = v_uid),
    'shares_today', (select count(*) from public.shares where user_id = v_uid and day = v_today),
    'shares_pending', (select count(*) from public.share_links where user_id = v_uid and status = 'pending'),
    'by_platform', (select coalesce(json_object_agg(platform, n), '{}'::json)
                      from (select platform, count(*) as n from public.shares where user_id = v_uid group by platform) p),
    'days', (select json_agg(json_build_object(
                      'day', d::date,
                      'visits', (select count(*) from public.page_views where owner_id = v_uid and kind = 'profile' and day = d::date),
                      'plays', (select count(*) from public.page_views where owner_id = v_uid and kind = 'play' and day = d::date),
                      'shares', (select count(*) from public.shares where user_id = v_uid and day = d::date)) order by d)
               from generate_series(v_today - 29, v_today, interval '1 day') d)
  );
end
$$;

create or replace function public.share_create(p_item_type text, p_item_id text, p_platform text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.share_rules();
  v_uid uuid := public.require_uid();
  v_today date := (clock_timestamp() at time zone 'utc')::date;
  v_amount int := (c_rules -> 'amounts' ->> p_platform)::int;
  v_address text := public.client_address();
  v_item text := p_item_id;
  v_link public.share_links;
begin
  if v_amount is null then
    raise exception 'invalid_platform' using errcode = '22023';
  end if;
  if p_item_type is null or p_item_type not in ('user', 'song', 'track')
     or p_item_id is null or char_length(p_item_id) not between 1 and 200 then
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

  -- The wallet must exist before an open can pay into it.
  perform public.init_user_tokens();
  select * into v_link from public.share_links
   where user_id = v_uid and item_type = p_item_type and item_id = v_item and platform = p_platform for update;
  if not found then
    -- Links are cheap to ask for, rows are not: at most 200 new ones per user per UTC day.
    if (select count(*) from public.share_links where user_id = v_uid and created_at >= v_today::timestamp at time zone 'utc') >= 200 then
      raise exception 'too_many_share_links' using errcode = '54000',
        detail = 'You made 200 new share links today; share one of them again, or try after 00:00 UTC.';
    end if;
    insert into public.share_links (token, user_id, item_type, item_id, platform, amount, sharer_addresses)
    values (replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), v_uid, p_item_type, v_item,
            p_platform, v_amount, case when v_address is null then '{}'::text[] else array[v_address] end)
    on conflict (user_id, item_type, item_id, platform) do nothing
    returning * into v_link;
    if v_link.id is null then
      select * into v_link from public.share_links
       where user_id = v_uid and item_type = p_item_type and item_id = v_item and platform = p_platform;
    end if;
  end if;
  update public.share_links
     set shared_at = clock_timestamp(),
         amount = case when status = 'credited' and (credited_at at time zone 'utc')::date = v_today then amount else v_amount end,
         status = case when status = 'credited' and (credited_at at time zone 'utc')::date = v_today then 'credited' else 'pending' end,
         sharer_addresses = case
           when v_address is null or v_address = any (sharer_addresses) then sharer_addresses
           else (array[v_address] || sharer_addresses)[1:20] end
   where id = v_link.id
  returning * into v_link;

  return json_build_object(
    'id', v_link.id,
    'token', v_link.token,
    'item_type', v_link.item_type,
    'item_id', v_link.item_id,
    'platform', v_link.platform,
    'amount', v_link.amount,
    'status', v_link.status,
    'shared_at', v_link.shared_at,
    'credited_at', v_link.credited_at
  );
end
$$;

create or replace function public.share_link_by_token(p_token text) returns public.share_links
language plpgsql set search_path = '' as $$
declare
  v_link public.share_links;
begin
  if p_token is not null and p_token ~ '^[0-9a-f]{64}$' then
    select * into v_link from public.share_links where token = p_token;
  end if;
  if v_link.id is null then
    raise exception 'invalid_share_link' using errcode = '22023',
      detail = 'This share link is not valid: it may be cut short or mistyped. The page itself works without it.';
  end if;
  return v_link;
end
$$;

revoke all on function public.share_link_by_token(text) from public, anon, authenticated, service_role;

grant EXECUTE on function public.share_link_by_token(text) to service_role;

create or replace function public.share_visit_begin(p_token text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.share_visit_rules();
  v_address text := public.client_address();
  v_link public.share_links;
  v_key text;
  v_nonce text;
begin
  v_link := public.share_link_by_token(p_token);
  if not public.request_from_app_page() then
    raise exception 'share_visit_not_from_app' using errcode = '42501',
      detail = 'A shared link counts only when it is opened on the app''s own page.';
  end if;
  if v_address is null then
    raise exception 'share_visit_unknown_client' using errcode = '42501',
      detail = 'This visit cannot be counted: the server does not know where it comes from.';
  end if;
  v_key := 'a:' || public.address_key(v_address);
  -- Visits are cheap to ask for, rows are not. One address's requests count in turn.
  perform pg_advisory_xact_lock(hashtextextended(v_key, 0));
  if (select count(*) from public.share_visits
       where visitor_key = v_key and issued_at > clock_timestamp() - interval '10 minutes')
     >= (c_rules ->> 'per_address_per_10_minutes')::int then
    raise exception 'too_many_share_visits' using errcode = '54000',
      detail = 'Too many shared links opened from here in the last 10 minutes; the pages work, the visits are not counted.';
  end if;
  -- Visits older than a day can no longer pay: they go.
  delete from public.share_visits where issued_at < clock_timestamp() - interval '1 day';
  v_nonce := replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');
  insert into public.share_visits (nonce, link_id, visitor_key) values (v_nonce, v_link.id, v_key);
  return json_build_object(
    'nonce', v_nonce,
    'redeem_after_ms', (c_rules ->> 'min_seconds')::int * 1000,
    'expires_in_ms', (c_rules ->> 'max_seconds')::int * 1000
  );
end
$$;

revoke all on function public.share_visit_begin(text) from public, anon, authenticated, service_role;

grant EXECUTE on function public.share_visit_begin(text) to anon, authenticated, service_role;

create or replace function public.share_visit_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object(
    -- The page must have been shown this long before its visit counts.
    'min_seconds', 2,
    -- A visit not redeemed within this time is over.
    'max_seconds', 900,
    -- Visits one client address may begin per 10 minutes.
    'per_address_per_10_minutes', 30
  )
$$;

revoke all on function public.share_visit_rules() from public, anon, authenticated, service_role;

grant EXECUTE on function public.share_visit_rules() to public, anon, authenticated, service_role;

create or replace function public.snapshot_proposal_power(p_proposal_id uuid) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  c_fraction constant numeric := (public.governance_rules() ->> 'power_fraction')::numeric;
  v_total bigint;
begin
  insert into public.proposal_power
    (proposal_id, user_id, balance, locked, own_power, delegated_power, delegated, delegate_id, voting_power, delegation_counted)
  with a as (
    select t.user_id, t.balance, t.locked, t.trusted, greatest(floor(c_fraction * (t.balance - t.locked)), 0)::bigint as own
      from public.account_trust() t
  ), c as (
    -- The delegations that carry power: from a trusted delegator (own > 0 only then) to a trusted
    -- delegate not linked to it.
    select d.delegator_id, d.delegate_id, a.own
      from public.delegations d
      join a on a.user_id = d.delegator_id
      join a delegate on delegate.user_id = d.delegate_id
     where d.delegate_id is not null and a.own > 0 and delegate.trusted
       and not public.accounts_linked(d.delegator_id, d.delegate_id)
  ), r as (
    -- What each delegate receives: the own power of its delegators (one level).
    select c.delegate_id, sum(c.own)::bigint as received from c group by c.delegate_id
  ), s as (
    select a.*, d.delegator_id is not null as delegated, d.delegate_id, coalesce(r.received, 0) as received,
           d.delegator_id is null or exists (select 1 from c where c.delegator_id = a.user_id) as counted
      from a
      left join public.delegations d on d.delegator_id = a.user_id
      left join r on r.delegate_id = a.user_id
  )
  select p_proposal_id, s.user_id, s.balance, s.locked, s.own, s.received, s.delegated, s.delegate_id,
         case when s.delegated then 0 else s.own + s.received end, s.counted
    from s
  on conflict (proposal_id, user_id) do nothing;
  select coalesce(sum(voting_power), 0) into v_total from public.proposal_power where proposal_id = p_proposal_id;
  return v_total;
end
$$;

CREATE OR REPLACE FUNCTION public.spend_tokens(p_amount integer, p_reason text, p_ref text)
 RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path TO '' AS $function$
declare
  v_uid uuid := public.require_uid();
  v_balance int;
  v_key text;
begin
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

create or replace function public.still_listening() returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_session public.listening_sessions;
begin
  perform public.init_user_tokens();
  select * into v_session from public.listening_sessions where user_id = v_uid and ended_at is null;
  perform public.listen_lock(array[v_uid, v_session.creator_id]);
  update public.user_tokens set last_interaction_at = clock_timestamp() where user_id = v_uid;
  if v_session.id is null then
    return json_build_object('needs_interaction', false);
  end if;
  return public.listen_answer(public.listen_settle(v_session.id, v_session.playing, false));
end
$$;

create or replace function public.trust_missing(p_status json) returns text
language sql immutable set search_path = '' as $$
  select concat_ws(' ',
    case when (p_status ->> 'age_hours')::int < (p_status ->> 'needed_age_hours')::int
         then format('Your account must be %s hours old (it is %s).', p_status ->> 'needed_age_hours', p_status ->> 'age_hours') end,
    case when (p_status ->> 'listening_days')::int < (p_status ->> 'needed_days')::int
           or (p_status ->> 'distinct_songs')::int < (p_status ->> 'needed_songs')::int
         then format('Listen on %s different days (%s so far) and to %s different songs (%s so far).',
                     p_status ->> 'needed_days', p_status ->> 'listening_days',
                     p_status ->> 'needed_songs', p_status ->> 'distinct_songs') end,
    case when (p_status ->> 'ring_accounts')::int >= (p_status ->> 'ring_size')::int
         then format('%s new accounts were used from one of your addresses; trust waits until at most %s are.',
                     p_status ->> 'ring_accounts', (p_status ->> 'ring_size')::int - 1) end)
$$;

revoke all on function public.trust_missing(json) from public, anon, authenticated, service_role;

grant EXECUTE on function public.trust_missing(json) to service_role;

create or replace function public.trust_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object(
    'needed_days', 3,
    'needed_songs', 10,
    'min_age_hours', 48,
    'max_accounts_per_address', 5,
    'link_days', 30,
    'listen_reason', 'listen',
    'welcome_reasons', json_build_array('welcome', 'wallet_welcome')
  )
$$;

create or replace function public.trust_status(p_user uuid) returns json
language sql stable security definer set search_path = '' as $$
  select json_build_object(
    'trusted', coalesce(a.trusted, false),
    'listening_days', coalesce(a.listening_days, 0),
    'distinct_songs', coalesce(a.distinct_songs, 0),
    'needed_days', (public.trust_rules() ->> 'needed_days')::int,
    'needed_songs', (public.trust_rules() ->> 'needed_songs')::int,
    'age_hours', coalesce(a.age_hours, 0),
    'needed_age_hours', (public.trust_rules() ->> 'min_age_hours')::int,
    -- Accounts of this one's generation on its busiest recent address, itself included.
    'ring_accounts', coalesce(a.ring_accounts, 1),
    'ring_size', (public.trust_rules() ->> 'max_accounts_per_address')::int + 1,
    'welcome', coalesce(a.welcome, 0),
    'locked', coalesce(a.locked, 0),
    'balance', coalesce(a.balance, 0)
  )
    from (select 1) one
    left join public.account_trust(p_user) a on true
$$;

create or replace function public.undelegate_voting_power() returns json
language plpgsql security definer set search_path = '' as $$
begin
  perform public.require_uid();
  perform 1 from public.user_tokens where user_id = auth.uid() for update;
  delete from public.delegations where delegator_id = auth.uid();
  return public.governance_overview();
end
$$;

create or replace function public.unpublish_song(p_song_id text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  c_rules constant json := public.publishing_rules();
  v_uid uuid := public.require_uid('Sign in to unpublish a track.');
  v_song public.songs;
  v_prefix text;
begin
  delete from public.songs where id = p_song_id and owner_id = v_uid returning * into v_song;
  if not found then
    if exists (select 1 from public.songs where id = p_song_id) then
      raise exception 'Only the creator of a song can unpublish it.' using errcode = '42501';
    end if;
    raise exception 'No published song "%".', coalesce(p_song_id, '') using errcode = 'P0002';
  end if;
  v_prefix := '/storage/v1/object/public/';
  return json_build_object(
    'id', v_song.id,
    'audio_path', substr(v_song.audio_url, char_length(v_prefix || (c_rules ->> 'audio_bucket') || '/') + 1),
    'cover_path', case when v_song.cover_url like v_prefix || (c_rules ->> 'cover_bucket') || '/%'
                       then substr(v_song.cover_url, char_length(v_prefix || (c_rules ->> 'cover_bucket') || '/') + 1) end
  );
end
$$;

create or replace function public.username_lookalike(p_name text, p_except uuid default null) returns text
language sql stable security definer set search_path = '' as $$
  select p.username from public.profiles p
   where public.username_skeleton(p.username) = public.username_skeleton(p_name)
     and (p_except is null or p.user_id <> p_except)
   limit 1
$$;

revoke all on function public.username_lookalike(text,uuid) from public, anon, authenticated, service_role;

grant EXECUTE on function public.username_lookalike(text,uuid) to service_role;

create or replace function public.username_problem(p_name text) returns text
language plpgsql stable security definer set search_path = '' as $$
declare
  v_name text := normalize(btrim(coalesce(p_name, '')), NFKC);
  v_problem text := public.username_rule_problem(v_name);
  v_taken text;
begin
  if v_problem is not null then
    return v_problem;
  end if;
  v_taken := public.username_lookalike(v_name, auth.uid());
  if v_taken is not null then
    return public.username_taken_words(v_name, v_taken);
  end if;
  return null;
end
$$;

create or replace function public.username_rule_problem(p_name text) returns text
language sql immutable set search_path = '' as $$
  select case
    when p_name is null
      or char_length(p_name) not between (r ->> 'username_min')::int and (r ->> 'username_max')::int
    then r ->> 'username_message'
    when p_name !~ (r ->> 'username_pattern')
    then rtrim(r ->> 'username_message', '.') || ': ' || coalesce(
      (select case when c ~ '^\s$' then 'a space' else '"' || c || '"' end
         from regexp_split_to_table(p_name, '') with ordinality as t(c, i)
        where c !~ replace(r ->> 'username_pattern', ']+$', ']$')
        order by i limit 1),
      'this name') || ' is not allowed.'
  end
  from (select public.profile_rules() as r) rules
$$;

create or replace function public.username_taken_words(p_name text, p_taken text) returns text
language sql immutable set search_path = '' as $$
  select case
    when p_taken = p_name then 'That username is taken. Try another one.'
    else format('That username is taken: it reads the same as "%s" (names that differ only in capitals or in letters '
                || 'that look alike are one name). Try another one.', p_taken)
  end
$$;

revoke all on function public.username_taken_words(text,text) from public, anon, authenticated, service_role;

grant EXECUTE on function public.username_taken_words(text,text) to public, anon, authenticated, service_role;

create or replace function public.wallet_claim() returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_status json;
  v_trust json;
  v_amount int;
  v_balance int;
begin
  perform public.init_user_tokens();
  -- Concurrent claims of one user wait here; the second sees the pot already emptied.
  select balance into v_balance from public.user_tokens where user_id = v_uid for update;
  v_trust := public.trust_status(v_uid);
  if not (v_trust ->> 'trusted')::boolean then
    raise exception 'not_trusted' using errcode = '22023',
      detail = 'Claiming unlocks once your account is trusted. ' || public.trust_missing(v_trust);
  end if;
  v_status := public.wallet_claim_status();
  v_amount := (v_status ->> 'claimable')::int;
  if v_amount > 0 then
    v_balance := public.post_ledger(v_uid, v_amount, 'claim', 'listening',
      'claim:' || v_uid::text || ':' || ((v_status ->> 'claimed')::bigint + v_amount)::text);
  end if;
  return json_build_object('claimed', v_amount, 'balance', v_balance);
end
$$;

create or replace function public.wallet_claim_status() returns json
language plpgsql stable security definer set search_path = '' as $$
declare
  c_rules constant json := public.wallet_rules();
  c_hour constant int := (c_rules ->> 'claim_hour_seconds')::int;
  c_per_hour constant int := (c_rules ->> 'claim_per_hour')::int;
  c_day constant bigint := (c_rules ->> 'claim_day_seconds')::bigint;
  v_uid uuid := public.require_uid();
  v_seconds bigint;
  v_claimed bigint;
begin
  select coalesce(sum(least(d.seconds, c_day)), 0) into v_seconds
    from (select floor(sum(s.earning_seconds))::bigint as seconds from public.listening_sessions s
           where s.user_id = v_uid and s.credited > 0 group by (s.started_at at time zone 'utc')::date) d;
  select coalesce(sum(amount), 0) into v_claimed from public.token_ledger where user_id = v_uid and reason = 'claim' and amount > 0;
  return json_build_object(
    'listened_seconds', v_seconds,
    'hours', v_seconds / c_hour,
    'claimable', greatest((v_seconds / c_hour) * c_per_hour - v_claimed, 0),
    'claimed', v_claimed,
    'hour_progress', round((v_seconds % c_hour)::numeric / c_hour, 4)
  );
end
$$;

create or replace function public.wallet_issue_nonce() returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := public.require_uid();
  v_nonce text := replace(gen_random_uuid()::text, '-', '') || substr(replace(gen_random_uuid()::text, '-', ''), 1, 8);
  v_expires timestamptz := clock_timestamp() + make_interval(secs => (public.wallet_rules() ->> 'nonce_ttl_seconds')::int);
begin
  -- Old nonces of this user are of no use any more.
  delete from public.siwe_nonces where user_id = v_uid and (used_at is not null or expires_at < clock_timestamp());
  insert into public.siwe_nonces (nonce, user_id, expires_at) values (v_nonce, v_uid, v_expires);
  return json_build_object('nonce', v_nonce, 'expires_at', v_expires);
end
$$;

CREATE OR REPLACE FUNCTION public.wallet_link(p_user uuid, p_address text, p_nonce text, p_chain_id integer)
 RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path TO '' AS $function$
declare
  v_nonce public.siwe_nonces;
  v_owner uuid;
  v_granted int := 0;
  v_balance int;
begin
  perform public.require_wallet_address(p_user, p_address);
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

  v_balance := public.lock_wallet(p_user);

  select user_id into v_owner from public.wallet_links where lower(address) = lower(p_address);
  if found and v_owner <> p_user then
    raise exception 'address_taken' using errcode = '23505';
  end if;
  insert into public.wallet_links (user_id, address, chain_id) values (p_user, p_address, p_chain_id)
  on conflict (user_id) do update set address = excluded.address, chain_id = excluded.chain_id, linked_at = now();

  select w.granted, w.balance into v_granted, v_balance from public.wallet_welcome_once(p_user, p_address, v_balance) w;
  return json_build_object('address', p_address, 'welcome', v_granted, 'balance', v_balance);
end
$function$;

create or replace function public.wallet_link_custodial(p_user uuid, p_address text, p_private_key text) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_address text;
  v_granted int := 0;
  v_balance int;
begin
  perform public.require_wallet_address(p_user, p_address);
  -- Only a sealed key is stored: the edge function seals it before it leaves its memory.
  if p_private_key is null or p_private_key !~ '^aes256gcm\.v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{40,}$' then
    raise exception 'invalid_private_key' using errcode = '22023', detail = 'The key must be sealed (aes256gcm.v1)';
  end if;
  v_balance := public.lock_wallet(p_user);
  insert into public.custodial_wallets (user_id, address, private_key) values (p_user, p_address, p_private_key)
  on conflict (user_id) do nothing;
  select address into v_address from public.custodial_wallets where user_id = p_user;

  insert into public.wallet_links (user_id, address, chain_id, custodial) values (p_user, v_address, null, true)
  on conflict (user_id) do update set address = excluded.address, chain_id = null, custodial = true, linked_at = now();

  select w.granted, w.balance into v_granted, v_balance from public.wallet_welcome_once(p_user, v_address, v_balance) w;
  return json_build_object('address', v_address, 'welcome', v_granted, 'balance', v_balance, 'custodial', true);
end
$$;

create or replace function public.wallet_unlink() returns json
language plpgsql security definer set search_path = '' as $$
begin
  perform public.require_uid();
  delete from public.wallet_links where user_id = auth.uid();
  return json_build_object('unlinked', found);
end
$$;

create or replace function public.wallet_welcome_once(p_user uuid, p_address text, p_balance int, out granted int,
  out balance int)
language plpgsql set search_path = '' as $$
declare
  c_welcome constant int := (public.wallet_rules() ->> 'welcome_tokens')::int;
begin
  granted := 0;
  balance := p_balance;
  insert into public.wallet_welcomes (user_id, address) values (p_user, lower(p_address))
  on conflict do nothing;
  if found then
    granted := c_welcome;
    balance := public.post_ledger(p_user, c_welcome, 'wallet_welcome', p_address, 'wallet_welcome:' || p_user::text);
  end if;
end
$$;

revoke all on function public.wallet_welcome_once(uuid,text,integer) from public, anon, authenticated, service_role;

grant EXECUTE on function public.wallet_welcome_once(uuid,text,integer) to service_role;

drop index if exists public.profiles_username_skeleton_key;

CREATE UNIQUE INDEX profiles_username_skeleton_key ON public.profiles USING btree (public.username_skeleton(username));

reset check_function_bodies;
