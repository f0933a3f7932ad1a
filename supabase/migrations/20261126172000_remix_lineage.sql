-- Remix lineage (issue 25): a published remix names the song it was made from, and that song's
-- page lists its remixes.
--
-- The source is the server's own record: remix_burn() stored it (remixes.source_ref) when the user
-- paid for the remix. Publishing a Library track that came from a remix calls record_remix_source()
-- right after publish_song() with the remix's id; the function takes the source from the remix,
-- never from the client, and links only the caller's own published song to the caller's own
-- rendered remix, once. A source that is not a song on the server (a track in the user's own
-- Library) leaves remix_of null: the remix is still linked, the page names no source.

alter table public.songs
  add column remix_id uuid unique references public.remixes (id) on delete set null,
  add column remix_of text references public.songs (id) on delete set null;
create index songs_remix_of_idx on public.songs (remix_of) where remix_of is not null;

comment on column public.songs.remix_id is 'The remix (public.remixes) this published song was rendered from; null for any other song.';
comment on column public.songs.remix_of is
  'The song the remix was made from (remixes.source_ref, when that is a song here); null when unknown or not a remix.';

create function public.record_remix_source(p_song_id text, p_remix_id uuid) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_song public.songs;
  v_remix public.remixes;
  v_source text;
begin
  if v_uid is null then
    raise exception 'Sign in to record where a remix comes from.' using errcode = '42501';
  end if;
  select * into v_song from public.songs where id = p_song_id for update;
  if not found or v_song.owner_id is distinct from v_uid then
    raise exception 'Only the creator of a published song can say which remix it is.' using errcode = '42501';
  end if;
  -- Locked: two publications racing for one remix take turns (the second is refused below).
  select * into v_remix from public.remixes where id = p_remix_id and user_id = v_uid for update;
  if not found then
    raise exception 'This is not one of your remixes.' using errcode = '42501';
  end if;
  if v_remix.status <> 'rendered' then
    raise exception 'Only a finished remix can be published as one (this one is %).', v_remix.status using errcode = '22023';
  end if;
  -- Once: the same pair again answers the same, anything else is refused.
  if v_song.remix_id is not null then
    if v_song.remix_id = p_remix_id then
      return json_build_object('remix_of', v_song.remix_of, 'recorded', false);
    end if;
    raise exception 'This song is already published as another remix.' using errcode = '22023';
  end if;
  if exists (select 1 from public.songs where remix_id = p_remix_id) then
    raise exception 'This remix is already published as another song.' using errcode = '22023';
  end if;
  select id into v_source from public.songs where id = v_remix.source_ref and id <> p_song_id;
  update public.songs set remix_id = p_remix_id, remix_of = v_source where id = p_song_id;
  return json_build_object('remix_of', v_source, 'recorded', true);
end
$$;
revoke execute on function public.record_remix_source(text, uuid) from public, anon;
grant execute on function public.record_remix_source(text, uuid) to authenticated, service_role;
