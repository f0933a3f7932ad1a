-- The token ledger: the one posting function, balances, reasons, rewards and spending.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

-- CUBE paid per client address (hashed) and UTC day: the address bound's counter.
CREATE TABLE public.address_earnings (
    address_key text NOT NULL,
    day date NOT NULL,
    earned integer DEFAULT 0 NOT NULL,
    CONSTRAINT address_earnings_earned_check CHECK ((earned >= 0)),
    CONSTRAINT address_earnings_pkey PRIMARY KEY (address_key, day)
);
ALTER TABLE public.address_earnings ENABLE ROW LEVEL SECURITY;

-- The ledger's reasons become rows of a table instead of a check constraint's list.
--
-- Each feature that moves CUBE for a new reason (a refund, a welcome bonus, a daily-goal bonus)
-- adds its reason with one insert in its own migration, instead of every feature redefining the
-- same constraint (and the last migration silently dropping the reasons of the others).
-- Readable by everyone (the Activity tab names them); written only by migrations.
CREATE TABLE public.ledger_reasons (
    reason text NOT NULL,
    kind text NOT NULL,
    description text NOT NULL,
    CONSTRAINT ledger_reasons_kind_check CHECK ((kind = ANY (ARRAY['earn'::text, 'spend'::text, 'refund'::text]))),
    CONSTRAINT ledger_reasons_reason_check CHECK ((reason ~ '^[a-z][a-z_]{1,39}$'::text)),
    CONSTRAINT ledger_reasons_pkey PRIMARY KEY (reason)
);
ALTER TABLE public.ledger_reasons ENABLE ROW LEVEL SECURITY;
CREATE POLICY ledger_reasons_read ON public.ledger_reasons FOR SELECT TO anon, authenticated USING (true);

CREATE TABLE public.token_ledger (
    id bigint NOT NULL,
    user_id uuid,
    amount integer NOT NULL,
    reason text NOT NULL,
    reference text,
    idempotency_key text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT token_ledger_amount_check CHECK ((amount <> 0)),
    CONSTRAINT token_ledger_idempotency_key_key UNIQUE (idempotency_key),
    CONSTRAINT token_ledger_pkey PRIMARY KEY (id),
    CONSTRAINT token_ledger_reason_fkey FOREIGN KEY (reason) REFERENCES public.ledger_reasons(reason),
    CONSTRAINT token_ledger_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE SET NULL
);
ALTER TABLE public.token_ledger ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.token_ledger_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
CREATE INDEX token_ledger_user_created_idx ON public.token_ledger USING btree (user_id, created_at DESC);
ALTER TABLE public.token_ledger ENABLE ROW LEVEL SECURITY;
CREATE POLICY "owners read their ledger" ON public.token_ledger FOR SELECT TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)));
CREATE TRIGGER token_ledger_append_only BEFORE DELETE OR UPDATE ON public.token_ledger FOR EACH ROW EXECUTE FUNCTION
    public.token_ledger_append_only();

CREATE TABLE public.user_tokens (
    user_id uuid NOT NULL,
    balance integer DEFAULT 0 NOT NULL,
    daily_earned integer DEFAULT 0 NOT NULL,
    listens_today integer DEFAULT 0 NOT NULL,
    day date DEFAULT ((now() AT TIME ZONE 'utc'::text))::date NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    last_interaction_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT user_tokens_balance_check CHECK ((balance >= 0)),
    CONSTRAINT user_tokens_daily_earned_check CHECK ((daily_earned >= 0)),
    CONSTRAINT user_tokens_listens_today_check CHECK (((listens_today >= 0) AND (listens_today <= 20))),
    CONSTRAINT user_tokens_pkey PRIMARY KEY (user_id),
    CONSTRAINT user_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
ALTER TABLE public.user_tokens ENABLE ROW LEVEL SECURITY;
CREATE POLICY "owners read their wallet" ON public.user_tokens FOR SELECT TO authenticated USING ((user_id = ( SELECT auth.uid() AS uid)));

-- init_user_tokens
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

-- What a creator's songs earned them, per song (own account only).
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

create or replace function public.post_ledger(p_user uuid, p_amount int, p_reason text, p_reference text, p_key text) returns int
language plpgsql security definer set search_path = '' as $$
declare
  v_balance int;
  v_listen constant boolean := p_reason = 'listen';
begin
  insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
  values (p_user, p_amount, p_reason, p_reference, p_key);
  update public.user_tokens
     set balance = balance + p_amount,
         updated_at = clock_timestamp(),
         listens_today = listens_today + case when v_listen then 1 else 0 end,
         daily_earned = daily_earned + case when v_listen then p_amount else 0 end
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

create or replace function public.reward_rules() returns json
language sql stable as $$
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

-- spend_tokens
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

create or replace function public.token_ledger_append_only() returns trigger
language plpgsql set search_path = '' as $$
begin
  if tg_op = 'DELETE' and pg_trigger_depth() > 1 then
    return old;
  end if;
  if tg_op = 'UPDATE' and pg_trigger_depth() > 1 and old.user_id is not null and new.user_id is null
     and new.id = old.id and new.amount = old.amount and new.reason = old.reason
     and new.reference is not distinct from old.reference and new.idempotency_key = old.idempotency_key
     and new.created_at = old.created_at then
    return new;
  end if;
  raise exception 'token_ledger is append-only' using errcode = '42501';
end
$$;

insert into public.ledger_reasons (reason, kind, description) values
  ('claim', 'earn', 'Claimed listening rewards'),
  ('comment', 'earn', 'A comment'),
  ('comment_goal', 'earn', 'Daily comment goal bonus'),
  ('creator', 'earn', 'A listen of a song you published'),
  ('like', 'earn', 'A like given'),
  ('listen', 'earn', 'A qualifying listen'),
  ('mint', 'spend', 'An NFT mint'),
  ('mint_refund', 'refund', 'An NFT mint that failed on chain, given back'),
  ('proposal', 'spend', 'A governance proposal'),
  ('remix', 'spend', 'A remix'),
  ('remix_refund', 'refund', 'A remix that could not be produced, given back'),
  ('reply', 'earn', 'A reply'),
  ('share', 'earn', 'A share'),
  ('wallet_welcome', 'earn', 'Welcome tokens for the first verified wallet'),
  ('welcome', 'earn', 'Welcome tokens of a new account');

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.address_earnings, public.ledger_reasons, public.token_ledger, public.user_tokens FROM PUBLIC, anon,
    authenticated, service_role;
GRANT ALL ON TABLE public.address_earnings, public.ledger_reasons, public.token_ledger, public.user_tokens TO service_role;
GRANT SELECT ON TABLE public.ledger_reasons TO anon, authenticated;
GRANT SELECT ON TABLE public.token_ledger, public.user_tokens TO authenticated;
REVOKE ALL ON SEQUENCE public.token_ledger_id_seq FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON SEQUENCE public.token_ledger_id_seq TO service_role;
REVOKE ALL ON FUNCTION public.init_user_tokens(), public.my_creator_earnings(), public.post_ledger(p_user uuid, p_amount integer,
    p_reason text, p_reference text, p_key text), public.reward_rules(), public.spend_tokens(p_amount integer, p_reason text, p_ref
    text), public.token_ledger_append_only() FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.reward_rules() TO anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.init_user_tokens(), public.my_creator_earnings(), public.spend_tokens(p_amount integer, p_reason text,
    p_ref text) TO authenticated, service_role;
GRANT ALL ON FUNCTION public.token_ledger_append_only() TO service_role;
