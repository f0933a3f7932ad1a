-- The ledger's reasons become rows of a table instead of a check constraint's list.
--
-- Each feature that moves CUBE for a new reason (a refund, a welcome bonus, a daily-goal bonus)
-- adds its reason with one insert in its own migration, instead of every feature redefining the
-- same constraint (and the last migration silently dropping the reasons of the others).
-- Readable by everyone (the Activity tab names them); written only by migrations.

create table public.ledger_reasons (
  reason text primary key check (reason ~ '^[a-z][a-z_]{1,39}$'),
  -- 'earn': credited to the user; 'spend': debited for something bought; 'refund': a debit given back.
  kind text not null check (kind in ('earn', 'spend', 'refund')),
  description text not null
);

insert into public.ledger_reasons (reason, kind, description) values
  ('welcome', 'earn', 'Welcome tokens of a new account'),
  ('listen', 'earn', 'A qualifying listen'),
  ('comment', 'earn', 'A comment'),
  ('like', 'earn', 'A like given'),
  ('reply', 'earn', 'A reply'),
  ('share', 'earn', 'A share'),
  ('claim', 'earn', 'Claimed listening rewards'),
  ('remix', 'spend', 'A remix'),
  ('mint', 'spend', 'An NFT mint'),
  ('proposal', 'spend', 'A governance proposal');

alter table public.ledger_reasons enable row level security;
create policy ledger_reasons_read on public.ledger_reasons for select to anon, authenticated using (true);
-- As every table: the API roles get back only what they need (the default privileges grant all).
revoke all on table public.ledger_reasons from anon, authenticated;
grant select on public.ledger_reasons to anon, authenticated;
grant all on table public.ledger_reasons to service_role;

alter table public.token_ledger drop constraint token_ledger_reason_check;
alter table public.token_ledger
  add constraint token_ledger_reason_fkey foreign key (reason) references public.ledger_reasons (reason);
