-- project room policies: written by `npm run db:diff` from the difference between the migrations and
-- supabase/schemas/ (where each object's comment says why it is so).

set check_function_bodies = off;

drop policy if exists "project editors send to their room" on realtime.messages;

create policy "project editors send to their room" on realtime.messages
  for insert to authenticated with check (public.project_topic_allowed(realtime.topic(), true));

drop policy if exists "project members receive their room" on realtime.messages;

create policy "project members receive their room" on realtime.messages
  for select to authenticated using (public.project_topic_allowed(realtime.topic(), false));

reset check_function_bodies;
