-- viewer presence: written by `npm run db:diff` from the difference between the migrations and
-- supabase/schemas/ (where each object's comment says why it is so).

set check_function_bodies = off;

drop policy if exists "project members track presence in their room" on realtime.messages;

create policy "project members track presence in their room" on realtime.messages
  for insert to authenticated with check (extension = 'presence' and public.project_topic_allowed(realtime.topic(), false));

reset check_function_bodies;
