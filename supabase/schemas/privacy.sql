-- Deleting an account and everything it owns.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

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

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON FUNCTION public.delete_my_account(p_confirm_username text) FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.delete_my_account(p_confirm_username text) TO authenticated, service_role;
