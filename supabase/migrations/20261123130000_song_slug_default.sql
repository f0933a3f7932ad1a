-- A song inserted without a slug gets its id as the slug (ids are already slug-shaped), so server
-- code and tests that insert catalogue rows by id keep working; publishing sets its own slug.
create function public.songs_default_slug() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.slug is null then
    new.slug := new.id;
  end if;
  return new;
end
$$;
revoke execute on function public.songs_default_slug() from public, anon, authenticated;

create trigger songs_default_slug before insert on public.songs
  for each row execute function public.songs_default_slug();
