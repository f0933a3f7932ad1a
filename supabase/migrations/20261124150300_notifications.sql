-- Live notifications (Settings › Notifications): the server writes one row per event the user
-- asked to hear about, and Realtime delivers it to their open app, which shows it as a toast.
-- Events: a reply to my comment, a new follower, a proposal I voted on closing, my mint completed.
-- The preferences (public.user_settings, default on) are applied here, on the server, when the
-- event happens; the client only shows what arrives. Rows are the user's own, read-only for them.

create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null check (kind in ('reply', 'follower', 'vote_closed', 'mint_completed')),
  title text not null check (char_length(title) <= 120),
  body text not null check (char_length(body) <= 300),
  link text check (link is null or (link ~ '^/' and char_length(link) <= 300)),
  created_at timestamptz not null default now()
);
create index notifications_user_idx on public.notifications (user_id, created_at desc);

alter table public.notifications enable row level security;
create policy "notifications: owner reads" on public.notifications for select to authenticated using (user_id = (select auth.uid()));
create policy "notifications: owner dismisses" on public.notifications for delete to authenticated using (user_id = (select auth.uid()));
revoke all on table public.notifications from anon, authenticated;
grant select, delete on public.notifications to authenticated;
grant all on table public.notifications to service_role;
select public.add_mfa_policy('notifications');

create trigger notifications_realtime after insert on public.notifications
for each row execute function cube_realtime.notify_change('user_id');
do $$
begin
  if exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    alter publication supabase_realtime add table public.notifications;
  end if;
end
$$;

/** Whether the user wants this kind of notice (no settings row yet: the defaults, all on). */
create function public.wants_notice(p_user uuid, p_kind text) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select case p_kind when 'reply' then s.notify_replies when 'follower' then s.notify_followers
                                      when 'vote_closed' then s.notify_votes when 'mint_completed' then s.notify_mints end
                     from public.user_settings s where s.user_id = p_user), true)
$$;

create function public.add_notice(p_user uuid, p_kind text, p_title text, p_body text, p_link text) returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.notifications (user_id, kind, title, body, link)
  select p_user, p_kind, left(p_title, 120), left(p_body, 300), p_link
   where public.wants_notice(p_user, p_kind)
$$;
revoke execute on function public.wants_notice(uuid, text), public.add_notice(uuid, text, text, text, text) from public, anon, authenticated;

-- A reply to my comment (not my own reply).
create function public.notice_on_reply() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_parent public.comments;
  v_slug text;
begin
  if new.parent_id is null then
    return null;
  end if;
  select * into v_parent from public.comments where id = new.parent_id;
  if v_parent.user_id is null or v_parent.user_id = new.user_id then
    return null;
  end if;
  select slug into v_slug from public.songs where id = new.song_id;
  perform public.add_notice(v_parent.user_id, 'reply', 'New reply to your comment',
    new.username || ': ' || left(new.body, 120), '/song/' || coalesce(v_slug, new.song_id));
  return null;
end
$$;
create trigger comments_notice_reply after insert on public.comments
for each row execute function public.notice_on_reply();

-- A new follower.
create function public.notice_on_follow() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_name text;
begin
  select username into v_name from public.profiles where user_id = new.follower_id;
  perform public.add_notice(new.following_id, 'follower', 'New follower', coalesce(v_name, 'Someone') || ' followed you',
    case when v_name is null then null else '/user/' || v_name end);
  return null;
end
$$;
create trigger follows_notice after insert on public.follows
for each row execute function public.notice_on_follow();

-- A proposal I voted on has closed.
create function public.notice_on_proposal_close() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.status = 'active' and new.status <> 'active' then
    perform public.add_notice(v.user_id, 'vote_closed', 'Proposal closed',
      '"' || left(new.title, 100) || '" ' || case new.status when 'passed' then 'passed' else 'was rejected' end, '/app/governance')
      from public.votes v where v.proposal_id = new.id;
  end if;
  return null;
end
$$;
create trigger proposals_notice_close after update of status on public.proposals
for each row execute function public.notice_on_proposal_close();

-- My mint is on the chain.
create function public.notice_on_mint() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.status <> 'completed' and new.status = 'completed' then
    perform public.add_notice(new.user_id, 'mint_completed', 'Mint completed',
      '"' || left(coalesce(new.metadata ->> 'name', 'Your NFT'), 100) || '" is on ' || new.blockchain || ' as token #' || coalesce(new.token_id, '?'), '/app/wallet');
  end if;
  return null;
end
$$;
create trigger mint_requests_notice after update of status on public.mint_requests
for each row execute function public.notice_on_mint();

revoke execute on function public.notice_on_reply(), public.notice_on_follow(), public.notice_on_proposal_close(), public.notice_on_mint() from public, anon, authenticated;
