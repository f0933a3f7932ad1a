-- A proven visit to a shared link now leaves its outcome on the link (paid, or why not), so the
-- sharer sees it live, and a paid open is taken from the opener's address's daily bound like every
-- other reward a request makes the server pay.
alter table public.share_links
  add column last_open_reason text,
  add column last_open_at timestamp with time zone,
  add constraint share_links_last_open_reason_check check (char_length(last_open_reason) <= 40);

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
