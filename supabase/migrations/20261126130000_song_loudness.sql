-- Loudness normalisation (issue 24): each song's integrated loudness (ITU-R BS.1770-4 / EBU R128,
-- LUFS) and true peak (dBTP), measured once over the whole file by dsp/song-loudness.ts: for the
-- catalogue when its files are generated (the catalogue seed carries the values), for a published
-- song by the publishing pipeline in the creator's browser before upload, recorded right after
-- publish_song() by record_song_loudness(). The player turns them into a gain toward the listener's
-- target (src/domain/playback/loudness-normalisation.ts); null means "not measured": no gain.
--
-- Loudness is no economic value, so the creator's measurement is taken, but only once, only for
-- their own song, and only within the range a real file can have (the checks below).

alter table public.songs
  add column loudness_lufs real,
  add column true_peak_dbtp real,
  add constraint songs_loudness_lufs_range check (loudness_lufs is null or loudness_lufs between -70 and 3),
  add constraint songs_true_peak_dbtp_range check (true_peak_dbtp is null or true_peak_dbtp between -100 and 12);

comment on column public.songs.loudness_lufs is 'Integrated loudness, LUFS (BS.1770-4, gated); null = not measured.';
comment on column public.songs.true_peak_dbtp is 'True peak, dBTP (BS.1770-4 Annex 2, 4x oversampled); null = not measured.';

-- Answers true when the values were recorded, false when the song already had a measurement.
create function public.record_song_loudness(p_song_id text, p_loudness_lufs real, p_true_peak_dbtp real)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_owner uuid;
  v_measured boolean;
begin
  if v_uid is null then
    raise exception 'Sign in to record a song''s loudness.' using errcode = '42501';
  end if;
  if p_loudness_lufs is null or p_loudness_lufs not between -70 and 3 then
    raise exception 'The loudness must be between -70 and +3 LUFS.' using errcode = '22023';
  end if;
  if p_true_peak_dbtp is null or p_true_peak_dbtp not between -100 and 12 then
    raise exception 'The true peak must be between -100 and +12 dBTP.' using errcode = '22023';
  end if;
  select owner_id, loudness_lufs is not null into v_owner, v_measured from public.songs where id = p_song_id for update;
  if not found or v_owner is distinct from v_uid then
    raise exception 'Only the creator of a published song can record its loudness.' using errcode = '42501';
  end if;
  if v_measured then
    return false;
  end if;
  update public.songs set loudness_lufs = p_loudness_lufs, true_peak_dbtp = p_true_peak_dbtp where id = p_song_id;
  return true;
end
$$;
revoke execute on function public.record_song_loudness(text, real, real) from public, anon;
grant execute on function public.record_song_loudness(text, real, real) to authenticated, service_role;
