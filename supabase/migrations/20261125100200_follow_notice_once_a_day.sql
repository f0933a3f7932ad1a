-- One 'New follower' notice per (follower, followed) pair per UTC day (issue 22, item 13).
--
-- notice_on_follow (20261124150300_notifications.sql) wrote a notice on every insert into
-- public.follows, so following and unfollowing in a loop flooded the followed user. The pair's
-- last noticed day is now a row of public.follow_notices; the trigger notifies only when it can
-- claim today's row. Its primary key decides between concurrent follows of the same pair (the
-- second waits for the first, then finds the day taken), so no race gets a second notice.
-- Only the trigger writes the table; nobody reads it through the API.

create table public.follow_notices (
  follower_id uuid not null references auth.users (id) on delete cascade,
  following_id uuid not null references auth.users (id) on delete cascade,
  day date not null,
  primary key (follower_id, following_id, day)
);
alter table public.follow_notices enable row level security;
revoke all on table public.follow_notices from anon, authenticated;
grant all on table public.follow_notices to service_role;

create or replace function public.notice_on_follow() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_today date := (now() at time zone 'utc')::date;
  v_name text;
begin
  insert into public.follow_notices (follower_id, following_id, day)
  values (new.follower_id, new.following_id, v_today)
  on conflict do nothing;
  if not found then
    return null;
  end if;
  -- Earlier days of this pair are no longer needed to decide anything.
  delete from public.follow_notices
   where follower_id = new.follower_id and following_id = new.following_id and day < v_today;
  select username into v_name from public.profiles where user_id = new.follower_id;
  perform public.add_notice(new.following_id, 'follower', 'New follower', coalesce(v_name, 'Someone') || ' followed you',
    case when v_name is null then null else '/user/' || v_name end);
  return null;
end
$$;
