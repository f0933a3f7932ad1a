-- Profiles, usernames, follows, settings and what makes a profile visible.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

CREATE TRIGGER on_auth_user_created AFTER INSERT ON auth.users FOR EACH ROW EXECUTE FUNCTION public.handle_new_user();

-- Who follows whom: the public profile's Follow/Unfollow, its follower counts, and discovery's
-- artist affinity. Public to read (follower lists are public on /user/{username}); a user can only
-- add or remove follows of their own (follower_id = themselves), never make someone else follow.
CREATE TABLE public.follows (
    follower_id uuid NOT NULL,
    following_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT follows_not_self CHECK ((follower_id <> following_id)),
    CONSTRAINT follows_pkey PRIMARY KEY (follower_id, following_id),
    CONSTRAINT follows_follower_id_fkey FOREIGN KEY (follower_id) REFERENCES auth.users(id) ON DELETE CASCADE,
    CONSTRAINT follows_following_id_fkey FOREIGN KEY (following_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE INDEX follows_following_idx ON public.follows USING btree (following_id);
ALTER TABLE public.follows ENABLE ROW LEVEL SECURITY;
CREATE POLICY follows_delete_own ON public.follows FOR DELETE TO authenticated USING ((follower_id = ( SELECT auth.uid() AS uid)));
CREATE POLICY follows_insert_own ON public.follows FOR INSERT TO authenticated WITH CHECK ((follower_id = ( SELECT auth.uid() AS uid)));
CREATE POLICY follows_read ON public.follows FOR SELECT TO anon, authenticated USING (((follower_id = ( SELECT auth.uid() AS uid))
    OR (following_id = ( SELECT auth.uid() AS uid)) OR (public.profile_visible(follower_id) AND public.profile_visible(following_id))));
CREATE TRIGGER follows_notice AFTER INSERT ON public.follows FOR EACH ROW EXECUTE FUNCTION public.notice_on_follow();

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
CREATE TABLE public.profiles (
    user_id uuid NOT NULL,
    username text NOT NULL,
    avatar_url text,
    bio text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT profiles_avatar_url_check CHECK (((avatar_url IS NULL) OR (char_length(avatar_url) <= 2048))),
    CONSTRAINT profiles_bio_check CHECK (((bio IS NULL) OR (char_length(bio) <= 1000))),
    CONSTRAINT profiles_username_check CHECK (((char_length(username) >= 1) AND (char_length(username) <= 40))),
    CONSTRAINT profiles_pkey PRIMARY KEY (user_id),
    CONSTRAINT profiles_username_key UNIQUE (username),
    CONSTRAINT profiles_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX profiles_username_skeleton_key ON public.profiles USING btree (public.username_skeleton(username));
ALTER TABLE public.profiles ENABLE ROW LEVEL SECURITY;
CREATE POLICY "owners edit their profile" ON public.profiles FOR UPDATE TO authenticated USING ((user_id = ( SELECT auth.uid() AS
    uid))) WITH CHECK ((user_id = ( SELECT auth.uid() AS uid)));
CREATE POLICY "profiles: visible unless private" ON public.profiles FOR SELECT TO anon, authenticated USING
    (public.profile_visible(user_id));
CREATE TRIGGER profiles_check_change BEFORE UPDATE ON public.profiles FOR EACH ROW EXECUTE FUNCTION public.check_profile_change();
CREATE TRIGGER profiles_rename_follows AFTER UPDATE OF username ON public.profiles FOR EACH ROW WHEN ((new.username IS DISTINCT
    FROM old.username)) EXECUTE FUNCTION public.profile_rename_follows();

-- ---------------------------------------------------------------------------------------------
-- Preferences: one row per user, theirs alone. Notifications say which live toasts they want;
-- privacy whether their profile and listening activity are public.
-- ---------------------------------------------------------------------------------------------
CREATE TABLE public.user_settings (
    user_id uuid DEFAULT auth.uid() NOT NULL,
    notify_replies boolean DEFAULT true NOT NULL,
    notify_followers boolean DEFAULT true NOT NULL,
    notify_votes boolean DEFAULT true NOT NULL,
    notify_mints boolean DEFAULT true NOT NULL,
    public_profile boolean DEFAULT true NOT NULL,
    show_activity boolean DEFAULT true NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT user_settings_pkey PRIMARY KEY (user_id),
    CONSTRAINT user_settings_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
ALTER TABLE public.user_settings ENABLE ROW LEVEL SECURITY;
CREATE POLICY "user settings: owner changes" ON public.user_settings FOR UPDATE TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid))) WITH CHECK ((user_id = ( SELECT auth.uid() AS uid)));
CREATE POLICY "user settings: owner creates" ON public.user_settings FOR INSERT TO authenticated WITH CHECK ((user_id = ( SELECT
    auth.uid() AS uid)));
CREATE POLICY "user settings: owner reads" ON public.user_settings FOR SELECT TO authenticated USING ((user_id = ( SELECT
    auth.uid() AS uid)));

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

-- A name given at sign-up that another account has (in any spelling) refuses the sign-up, as a
-- name against the rule does: the form asked username_problem() first, so only a race gets here.
-- A name made from the e-mail address still gets a number when taken.
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

create or replace function public.profile_is_public(p_user uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((select s.public_profile from public.user_settings s where s.user_id = p_user), true)
$$;

-- A renamed user's name follows everywhere it was copied: the artist of the
-- songs they published, the name on their comments (copied so a live event carries it) and on
-- their proposals. Before, those kept the old name for ever.
create or replace function public.profile_rename_follows() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.songs set artist = new.username where owner_id = new.user_id and artist is distinct from new.username;
  update public.comments set username = new.username where user_id = new.user_id and username is distinct from new.username;
  update public.proposals set author_name = new.username
   where author_id = new.user_id and author_name is distinct from new.username;
  return null;
end
$$;

create or replace function public.profile_rules() returns json
language sql immutable set search_path = '' as $$
  select json_build_object(
    'username_min', 3,
    'username_max', 30,
    'username_pattern',
      '^[A-Za-z0-9._\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F\u0300-\u036F\u0386-\u03FF\u0400-\u052F\u0531-\u0587'
      || '\u05D0-\u05EA\u0620-\u0669\u066E-\u06D3\u06D5\u06F0-\u06FF\u0900-\u0D7F\u0E01-\u0E3A\u0E40-\u0E4E'
      || '\u10A0-\u10FF\u1100-\u11FF\u1E00-\u1EFF\u1F00-\u1FFF\u3041-\u3096\u30A1-\u30FA\u30FC\u3400-\u4DBF'
      || '\u4E00-\u9FFF\uAC00-\uD7A3-]+$',
    'username_message', 'A username is 3 to 30 letters (any alphabet), digits, ".", "-" or "_".',
    'username_taken_message', 'That username is taken. Try another one.',
    'password_min', 8,
    'bio_max', 300,
    'avatar_max_bytes', 2097152,
    'avatar_size_px', 256
  )
$$;

-- Plain SQL, invoker, no SET clause and no sub-select, so Postgres inlines it into each policy and
-- query (one row of a 10,000-song catalogue costs an expression, not a function call); every name
-- is schema-qualified instead of pinning search_path.
create or replace function public.profile_visible(p_owner uuid) returns boolean
language sql stable as $$
  -- coalesce: a visitor has no auth.uid(), and a predicate must answer false, never null.
  select coalesce(p_owner is null
                  or p_owner = auth.uid()
                  or public.profile_is_public(p_owner), false)
$$;

create or replace function public.public_profile_name(p_username text) returns json
language sql stable security definer set search_path = '' as $$
  select json_build_object('user_id', p.user_id, 'username', p.username, 'private', not public.profile_visible(p.user_id))
    from public.profiles p where p.username = p_username
$$;

-- Which taken name a new one would look like, or null.
create or replace function public.username_lookalike(p_name text, p_except uuid default null) returns text
language sql stable security definer set search_path = '' as $$
  select p.username from public.profiles p
   where public.username_skeleton(p.username) = public.username_skeleton(p_name)
     and (p_except is null or p.user_id <> p_except)
   limit 1
$$;

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

-- The rule's words, naming the first character the rule does not allow.
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

-- The words for a name another account already has (or one that reads the same).
create or replace function public.username_taken_words(p_name text, p_taken text) returns text
language sql immutable set search_path = '' as $$
  select case
    when p_taken = p_name then 'That username is taken. Try another one.'
    else format('That username is taken: it reads the same as "%s" (names that differ only in capitals or in letters '
                || 'that look alike are one name). Try another one.', p_taken)
  end
$$;

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.follows, public.profiles, public.user_settings FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON TABLE public.follows, public.profiles, public.user_settings TO service_role;
GRANT DELETE, SELECT ON TABLE public.follows TO authenticated;
GRANT INSERT, SELECT, UPDATE ON TABLE public.user_settings TO authenticated;
GRANT SELECT ON TABLE public.profiles TO anon, authenticated;
GRANT SELECT ON TABLE public.follows TO anon;
GRANT INSERT (follower_id, following_id) ON TABLE public.follows TO authenticated;
GRANT UPDATE (avatar_url, bio, username) ON TABLE public.profiles TO authenticated;
REVOKE ALL ON FUNCTION public.check_profile_change(), public.handle_new_user(), public.profile_is_public(p_user uuid),
    public.profile_rename_follows(), public.profile_rules(), public.profile_visible(p_owner uuid),
    public.public_profile_name(p_username text), public.username_lookalike(p_name text, p_except uuid),
    public.username_problem(p_name text), public.username_rule_problem(p_name text), public.username_skeleton(p_name text),
    public.username_taken_words(p_name text, p_taken text) FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.check_profile_change(), public.profile_rules(), public.username_rule_problem(p_name text),
    public.username_skeleton(p_name text), public.username_taken_words(p_name text, p_taken text) TO anon, authenticated, public,
    service_role;
GRANT ALL ON FUNCTION public.profile_is_public(p_user uuid), public.profile_visible(p_owner uuid),
    public.public_profile_name(p_username text), public.username_problem(p_name text) TO anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.handle_new_user(), public.profile_rename_follows(), public.username_lookalike(p_name text, p_except
    uuid) TO service_role;
