-- One username rule for sign-up and rename (issue 26 item 3). Before this, sign-up took any name
-- (cut silently to 32 characters: 5,000 characters, emoji, spaces) and Settings then refused it,
-- so such users could not even save a bio. Now both use this rule: 3 to 30 characters, each a
-- letter of any alphabet (Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic, the Indic scripts,
-- Thai, Georgian, Hangul, kana, CJK ideographs), a digit, '.', '-' or '_'; no emoji, spaces or
-- symbols. Names are stored in Unicode NFC so that one spelling is one name. The password minimum
-- is 8 characters everywhere (local Auth and supabase/config.toml follow).

create or replace function public.profile_rules() returns json
language sql
immutable
set search_path = ''
as $$
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

-- Null when `p_name` (already NFC) follows the rule, else the rule's message.
create function public.username_rule_problem(p_name text) returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when p_name is null
      or char_length(p_name) not between (r ->> 'username_min')::int and (r ->> 'username_max')::int
      or p_name !~ (r ->> 'username_pattern')
    then r ->> 'username_message'
  end
  from (select public.profile_rules() as r) rules
$$;

-- What the sign-up form asks before it registers: the same words the rename answers with.
create function public.username_problem(p_name text) returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_name text := normalize(btrim(coalesce(p_name, '')), NFC);
  v_problem text := public.username_rule_problem(v_name);
begin
  if v_problem is not null then
    return v_problem;
  end if;
  if exists (select 1 from public.profiles where username = v_name) then
    return public.profile_rules() ->> 'username_taken_message';
  end if;
  return null;
end
$$;
revoke execute on function public.username_problem(text) from public;
grant execute on function public.username_problem(text) to anon, authenticated, service_role;

create or replace function public.check_profile_change() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  r constant json := public.profile_rules();
  v_problem text;
begin
  if new.username is distinct from old.username then
    new.username := normalize(new.username, NFC);
    v_problem := public.username_rule_problem(new.username);
    if v_problem is not null then
      raise exception 'invalid_username' using errcode = '22023', detail = v_problem;
    end if;
  end if;
  if new.bio is distinct from old.bio and char_length(coalesce(new.bio, '')) > (r ->> 'bio_max')::int then
    raise exception 'bio_too_long' using errcode = '22023', detail = 'A bio is at most 300 characters.';
  end if;
  return new;
end
$$;

-- A name given at sign-up must follow the rule (the account is not created otherwise); without
-- one, the e-mail's local part is cleaned to fit it. A name taken meanwhile by a concurrent
-- sign-up gets a number, as before.
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
  v_n int := 0;
begin
  if v_given is not null then
    v_base := normalize(v_given, NFC);
    v_problem := public.username_rule_problem(v_base);
    if v_problem is not null then
      raise exception 'invalid_username' using errcode = '22023', detail = v_problem;
    end if;
  else
    v_base := left(regexp_replace(normalize(split_part(coalesce(new.email, ''), '@', 1), NFC), '[^A-Za-z0-9._-]', '', 'g'), 24);
    if char_length(v_base) < 3 then
      v_base := 'listener';
    end if;
  end if;
  v_candidate := v_base;
  loop
    if not exists (select 1 from public.profiles where username = v_candidate) then
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
