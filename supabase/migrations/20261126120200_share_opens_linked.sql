-- A share is opened "by someone else" only when the opener is not linked to the sharer (issue 23).
--
-- open_share (20261126110000_shares_credited_on_visit.sql) refused the sharer's own account and the
-- addresses the link was shared from. The sharer's other devices and fresh second accounts still
-- paid. Now an open also pays nothing when it comes from any address the sharer was seen at lately
-- (account_clients: listening, publishing; the creator rule's link_days), or, signed in, from an
-- account linked to the sharer by the creator rule (public.listener_linked_to_creator: a shared
-- address or an account under a day old): reasons 'same_client' and 'linked_account'.

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
  elsif (select count(*) from public.shares where user_id = v_link.user_id and day = v_today) >= c_cap then
    v_reason := 'daily_cap';
  else
    v_reason := 'credited';
    insert into public.shares (user_id, item_type, item_id, platform, day, amount)
    values (v_link.user_id, v_link.item_type, v_link.item_id, v_link.platform, v_today, v_amount);
    perform public.post_ledger(v_link.user_id, v_amount, 'share', v_link.item_type || ':' || v_link.item_id || ':' || v_link.platform,
      'share:' || v_link.user_id::text || ':' || v_link.item_type || ':' || v_link.item_id || ':' || v_link.platform
        || ':' || v_today::text);
    update public.share_links set status = 'credited', credited_at = clock_timestamp(), amount = v_amount where id = v_link.id;
  end if;

  return json_build_object('credited', v_reason = 'credited', 'reason', v_reason);
end
$$;
