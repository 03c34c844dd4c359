-- Accounts, account templates, secret histories and the account automations (docs/accounts.md).
-- Secrets and passphrases are stored sealed (server/auth/atrest.ts, context `accounts.<table>:<id>:<field>`),
-- never in clear. PostgreSQL 15 subset (runs on PGlite too).
create table account_templates (
  id uuid primary key,
  org_id uuid not null references organizations(id) on delete cascade,
  name varchar(128) not null,
  username varchar(128) not null default '',
  secret_type varchar(16) not null default 'password',
  secret text not null default '',
  passphrase text not null default '',
  privileged boolean not null default false,
  is_active boolean not null default true,
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  unique (org_id, name)
);
