-- Notices to users and who wants which.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

-- One 'New follower' notice per (follower, followed) pair per UTC day.
--
-- A notice on every insert into public.follows would let following and unfollowing in a loop
-- flood the followed user. The pair's last noticed day is a row of public.follow_notices; the
-- trigger notifies only when it can claim today's row. Its primary key decides between concurrent follows of the same pair (the
-- second waits for the first, then finds the day taken), so no race gets a second notice.
-- Only the trigger writes the table; nobody reads it through the API.
CREATE TABLE public.follow_notices (
    follower_id uuid NOT NULL,
    following_id uuid NOT NULL,
    day date NOT NULL,
    CONSTRAINT follow_notices_pkey PRIMARY KEY (follower_id, following_id, day),
    CONSTRAINT follow_notices_follower_id_fkey FOREIGN KEY (follower_id) REFERENCES auth.users(id) ON DELETE CASCADE,
    CONSTRAINT follow_notices_following_id_fkey FOREIGN KEY (following_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
ALTER TABLE public.follow_notices ENABLE ROW LEVEL SECURITY;

-- Live notifications (Settings › Notifications): the server writes one row per event the user
-- asked to hear about, and Realtime delivers it to their open app, which shows it as a toast.
-- Events: a reply to my comment, a new follower, a proposal I voted on closing, my mint completed.
-- The preferences (public.user_settings, default on) are applied here, on the server, when the
-- event happens; the client only shows what arrives. Rows are the user's own, read-only for them.
CREATE TABLE public.notifications (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    kind text NOT NULL,
    title text NOT NULL,
    body text NOT NULL,
    link text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT notifications_body_check CHECK ((char_length(body) <= 300)),
    CONSTRAINT notifications_kind_check CHECK ((kind = ANY (ARRAY['reply'::text, 'follower'::text, 'vote_closed'::text,
        'mint_completed'::text]))),
    CONSTRAINT notifications_link_check CHECK (((link IS NULL) OR ((link ~ '^/'::text) AND (char_length(link) <= 300)))),
    CONSTRAINT notifications_title_check CHECK ((char_length(title) <= 120)),
    CONSTRAINT notifications_pkey PRIMARY KEY (id),
    CONSTRAINT notifications_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX notifications_user_idx ON public.notifications USING btree (user_id, created_at DESC);
ALTER TABLE public.notifications ENABLE ROW LEVEL SECURITY;
CREATE POLICY "notifications: owner dismisses" ON public.notifications FOR DELETE TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));
CREATE POLICY "notifications: owner reads" ON public.notifications FOR SELECT TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));
CREATE TRIGGER notifications_realtime AFTER INSERT ON public.notifications FOR EACH ROW EXECUTE FUNCTION
    cube_realtime.notify_change('user_id');

create or replace function public.add_notice(p_user uuid, p_kind text, p_title text, p_body text, p_link text) returns void
language sql security definer set search_path = '' as $$
  insert into public.notifications (user_id, kind, title, body, link)
  select p_user, p_kind, left(p_title, 120), left(p_body, 300), p_link
   where public.wants_notice(p_user, p_kind)
$$;

create or replace function public.notice_on_follow() returns trigger
language plpgsql security definer set search_path = '' as $$
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

-- My mint is on the chain.
create or replace function public.notice_on_mint() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if old.status <> 'completed' and new.status = 'completed' then
    perform public.add_notice(new.user_id, 'mint_completed', 'Mint completed',
      '"' || left(coalesce(new.metadata ->> 'name', 'Your NFT'), 100) || '" is on ' || new.blockchain || ' as token #' ||
          coalesce(new.token_id, '?'), '/app/wallet');
  end if;
  return null;
end
$$;

-- A proposal I voted on has closed.
create or replace function public.notice_on_proposal_close() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if old.status = 'active' and new.status <> 'active' then
    perform public.add_notice(v.user_id, 'vote_closed', 'Proposal closed',
      '"' || left(new.title, 100) || '" ' || case new.status when 'passed' then 'passed' else 'was rejected' end, '/app/governance')
      from public.votes v where v.proposal_id = new.id;
  end if;
  return null;
end
$$;

-- A reply to my comment (not my own reply).
create or replace function public.notice_on_reply() returns trigger
language plpgsql security definer set search_path = '' as $$
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

create or replace function public.wants_notice(p_user uuid, p_kind text) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((select case p_kind when 'reply' then s.notify_replies when 'follower' then s.notify_followers
                                      when 'vote_closed' then s.notify_votes when 'mint_completed' then s.notify_mints end
                     from public.user_settings s where s.user_id = p_user), true)
$$;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.follow_notices, public.notifications FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON TABLE public.follow_notices, public.notifications TO service_role;
GRANT DELETE, SELECT ON TABLE public.notifications TO authenticated;
REVOKE ALL ON FUNCTION public.add_notice(p_user uuid, p_kind text, p_title text, p_body text, p_link text),
    public.notice_on_follow(), public.notice_on_mint(), public.notice_on_proposal_close(), public.notice_on_reply(),
    public.wants_notice(p_user uuid, p_kind text) FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.add_notice(p_user uuid, p_kind text, p_title text, p_body text, p_link text),
    public.notice_on_follow(), public.notice_on_mint(), public.notice_on_proposal_close(), public.notice_on_reply(),
    public.wants_notice(p_user uuid, p_kind text) TO service_role;
