-- Delete my account (Settings › Privacy), confirmed by typing the username.
--
-- What goes: the auth user and with it the profile, wallet, settings, playlists, favourites,
-- follows, likes, votes, delegations, notifications, studio projects and publications (their
-- foreign keys cascade); the user's published songs; and, before this function may run, every
-- Storage object in the user's folders (the app removes them as the user; the function refuses
-- while any is left, so no audio or picture of a deleted account stays behind).
-- What stays, anonymised: the CUBE ledger rows (user_id set to null, so every remaining wallet
-- still equals its ledger sum and the token history stays whole), comments that others replied to
-- (shown as 'comment deleted', author removed) and proposals (author removed; tallies unchanged).

-- The ledger keeps its rows when their user goes: user_id becomes null (the one change the
-- append-only rule allows, and only as the foreign key's own action).
alter table public.token_ledger alter column user_id drop not null;
alter table public.token_ledger drop constraint token_ledger_user_id_fkey;
alter table public.token_ledger add constraint token_ledger_user_id_fkey
  foreign key (user_id) references auth.users (id) on delete set null;

create or replace function public.token_ledger_append_only() returns trigger
language plpgsql
set search_path = ''
as $$
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

-- Comments and proposals outlive their author, anonymised.
alter table public.comments alter column user_id drop not null;
alter table public.comments drop constraint comments_user_id_fkey;
alter table public.comments add constraint comments_user_id_fkey foreign key (user_id) references auth.users (id) on delete set null;
alter table public.proposals alter column author_id drop not null;
alter table public.proposals drop constraint proposals_author_id_fkey;
alter table public.proposals add constraint proposals_author_id_fkey foreign key (author_id) references auth.users (id) on delete set null;

-- The wallet welcome stays with its address after the account goes, so deleting an account and
-- registering again with the same wallet never earns the 50 CUBE twice.
alter table public.wallet_welcomes alter column user_id drop not null;
alter table public.wallet_welcomes drop constraint wallet_welcomes_user_id_fkey;
alter table public.wallet_welcomes add constraint wallet_welcomes_user_id_fkey foreign key (user_id) references auth.users (id) on delete set null;

create function public.delete_my_account(p_confirm_username text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_name text;
  v_left int;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Sign in first.';
  end if;
  if not public.aal_satisfied() then
    raise exception 'insufficient_aal' using errcode = '42501', detail = 'Confirm your two-factor code first.';
  end if;
  select username into v_name from public.profiles where user_id = v_uid for update;
  if v_name is null or p_confirm_username is distinct from v_name then
    raise exception 'confirmation_mismatch' using errcode = '22023', detail = 'Type your username exactly to confirm.';
  end if;
  if exists (select 1 from public.administrators where user_id = v_uid)
     and not exists (select 1 from public.administrators where user_id <> v_uid) then
    raise exception 'last_admin' using errcode = '22023', detail = 'The last administrator cannot delete their account: grant the role to someone else first.';
  end if;
  select count(*) into v_left from storage.objects where (storage.foldername(name))[1] = v_uid::text;
  if v_left > 0 then
    raise exception 'storage_not_empty' using errcode = '22023', detail = format('%s of your files are still stored; remove them first.', v_left);
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
revoke execute on function public.delete_my_account(text) from public, anon;
grant execute on function public.delete_my_account(text) to authenticated;
