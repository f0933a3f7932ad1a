-- A deleted account's username leaves its proposals (issue 22, item 12).
--
-- Proposals outlive their author (20261124150500_account_deletion.sql: author_id is set null when
-- the account goes) but kept author_name, a copy of the username, so every API still showed who
-- wrote them. The rule lives on the row itself: a proposal without an author is shown as
-- 'Deleted account'. The trigger applies it to any update that clears the author (the foreign
-- key's own "set null" action included, whichever way the account was deleted), so the table, the
-- governance_proposals RPC and the Realtime UPDATE event all carry the anonymised name; the
-- constraint makes any other outcome impossible.

create function public.proposals_anonymise_author() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.author_id is null then
    new.author_name := 'Deleted account';
  end if;
  return new;
end
$$;
revoke execute on function public.proposals_anonymise_author() from public, anon, authenticated;

create trigger proposals_anonymise_author before insert or update on public.proposals
for each row execute function public.proposals_anonymise_author();

update public.proposals set author_name = 'Deleted account' where author_id is null;

alter table public.proposals add constraint proposals_deleted_author_anonymous
  check (author_id is not null or author_name = 'Deleted account');
