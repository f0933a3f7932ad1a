-- A username is one name however it is spelled: 'neon_tourist', 'NEON_TOURIST', 'ｎｅｏｎ_tourist'
-- (fullwidth) and 'nеon_tourist' (a Cyrillic е) were four accounts that read the same. Uniqueness
-- is now on the name's skeleton, enforced by a unique index, so no path (sign-up, rename through
-- PostgREST, a race of either) can make two that look alike:
--
--   username_skeleton(name) = Unicode NFKC (fullwidth, ligatures, compatibility forms folded), then
--   lower case, then every letter of the scripts the rule allows that reads as a Latin letter in
--   either case mapped to it (Cyrillic а в е к м н о р с т у х і ј ѕ ԁ ԛ ԝ; Greek α β ε ζ η ι κ μ ν
--   ο ρ τ υ χ), the digits 0 and 1 to o and l, and 'rn' to 'm', as Unicode's confusables (UTS #39)
--   do. A lower-case letter whose capital reads as a Latin capital maps too (т → t: ТОТ and TOT),
--   because a name and its capitals are one name.
--
-- Names are stored trimmed and in NFKC (was NFC): a fullwidth 'ｎｅｏｎ' is stored as 'neon', so it
-- meets the rule and the uniqueness check as what it reads as. A name against the rule is refused
-- with the rule's words and the first character that broke it ('"🎵" is not allowed').
--
-- Existing duplicates: in each group of profiles whose names share a skeleton, the oldest account
-- keeps its name and each later one is renamed to its name with '-2', '-3', … (cut to fit 30
-- characters, the first number whose result is free). Nothing else about those accounts changes
-- (their songs, comments, wallet and follows are by user id); they can choose another name in
-- Settings.

create or replace function public.username_skeleton(p_name text) returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select replace(
    translate(
      lower(normalize(coalesce(p_name, ''), NFKC)),
      'авекмнорстухіјѕԁԛԝαβεζηικμνορτυχ01',
      'abekmhopctyxijsdqwabezhikmnoptyxol'
    ),
    'rn', 'm')
$$;

-- Which taken name a new one would look like, or null.
create or replace function public.username_lookalike(p_name text, p_except uuid default null) returns text
language sql
stable
security definer
set search_path = ''
as $$
  select p.username from public.profiles p
   where public.username_skeleton(p.username) = public.username_skeleton(p_name)
     and (p_except is null or p.user_id <> p_except)
   limit 1
$$;
revoke execute on function public.username_lookalike(text, uuid) from public, anon, authenticated;

-- The words for a name another account already has (or one that reads the same).
create or replace function public.username_taken_words(p_name text, p_taken text) returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when p_taken = p_name then 'That username is taken. Try another one.'
    else format('That username is taken: it reads the same as "%s" (names that differ only in capitals or in letters '
                || 'that look alike are one name). Try another one.', p_taken)
  end
$$;

-- The rule's words, naming the first character the rule does not allow.
create or replace function public.username_rule_problem(p_name text) returns text
language sql
immutable
set search_path = ''
as $$
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

-- The oldest keeps the name; later ones get the first free numbered form.
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

create unique index profiles_username_skeleton_key on public.profiles (public.username_skeleton(username));

create or replace function public.username_problem(p_name text) returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
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

create or replace function public.check_profile_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
language plpgsql
security definer
set search_path = ''
as $$
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
