-- A renamed user's name follows everywhere it was copied (issue 26 item 12): the artist of the
-- songs they published, the name on their comments (copied so a live event carries it) and on
-- their proposals. Before, those kept the old name for ever.
create function public.profile_rename_follows() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.songs set artist = new.username where owner_id = new.user_id and artist is distinct from new.username;
  update public.comments set username = new.username where user_id = new.user_id and username is distinct from new.username;
  update public.proposals set author_name = new.username
   where author_id = new.user_id and author_name is distinct from new.username;
  return null;
end
$$;
revoke execute on function public.profile_rename_follows() from public, anon, authenticated;

create trigger profiles_rename_follows after update of username on public.profiles
  for each row when (new.username is distinct from old.username)
  execute function public.profile_rename_follows();
