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

-- Accounts on assets. `version` counts the secrets set; each one is kept in account_secret_histories.
create table accounts (
  id uuid primary key,
  org_id uuid not null references organizations(id) on delete cascade,
  asset_id uuid not null references assets(id) on delete cascade,
  name varchar(128) not null,
  username varchar(128) not null,
  secret_type varchar(16) not null default 'password',
  secret text not null default '',
  passphrase text not null default '',
  privileged boolean not null default false,
  is_active boolean not null default true,
  su_from_id uuid references accounts(id) on delete set null,
  version integer not null default 0,
  source varchar(30) not null default 'local',
  source_id varchar(128) not null default '',
  connectivity varchar(16) not null default '-',
  date_verified timestamptz,
  params jsonb not null default '{}'::jsonb,
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  unique (asset_id, username),
  unique (asset_id, name)
);
create index accounts_org_idx on accounts (org_id, username, id);
create index accounts_asset_idx on accounts (asset_id);

create table account_secret_histories (
  id uuid primary key,
  account_id uuid not null references accounts(id) on delete cascade,
  secret_type varchar(16) not null,
  secret text not null default '',
  version integer not null,
  created_by varchar(128) not null default '',
  date_created timestamptz not null default now()
);
create index account_secret_histories_account_idx on account_secret_histories (account_id, version desc);


-- Account automations (push, change secret, gather, backup): one table, `type` tells them apart.
create table account_automations (
  id uuid primary key,
  org_id uuid not null references organizations(id) on delete cascade,
  type varchar(32) not null,
  name varchar(128) not null,
  is_periodic boolean not null default false,
  "interval" integer,
  crontab varchar(128) not null default '',
  accounts jsonb not null default '[]'::jsonb,
  is_active boolean not null default true,
  secret_type varchar(16) not null default 'password',
  secret_strategy varchar(16) not null default 'random',
  secret text not null default '',
  passphrase text not null default '',
  password_rules jsonb not null default '{"length": 30, "symbol_set": ""}'::jsonb,
  ssh_key_change_strategy varchar(16) not null default 'add',
  params jsonb not null default '{}'::jsonb,
  is_sync_account boolean not null default false,
  types jsonb not null default '[]'::jsonb,
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  unique (org_id, type, name)
);
create table account_automation_assets (
  id bigserial primary key,
  automation_id uuid not null references account_automations(id) on delete cascade,
  asset_id uuid not null references assets(id) on delete cascade,
  unique (automation_id, asset_id)
);
create table account_automation_nodes (
  id bigserial primary key,
  automation_id uuid not null references account_automations(id) on delete cascade,
  node_id uuid not null references nodes(id) on delete cascade,
  unique (automation_id, node_id)
);
create table account_automation_recipients (
  id bigserial primary key,
  automation_id uuid not null references account_automations(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  unique (automation_id, user_id)
);

-- Executions: ready → pending → running → success | failed | error | canceled; `task_id` is the background
-- task (server/tasks) whose live log the console follows.
create table account_automation_executions (
  id uuid primary key,
  org_id uuid not null references organizations(id) on delete cascade,
  automation_id uuid not null references account_automations(id) on delete cascade,
  type varchar(32) not null,
  trigger varchar(16) not null default 'manual',
  status varchar(16) not null default 'ready',
  snapshot jsonb not null default '{}'::jsonb,
  summary jsonb not null default '{}'::jsonb,
  reason text not null default '',
  recipients jsonb not null default '[]'::jsonb,
  task_id uuid,
  artifact bytea,
  artifact_name varchar(256) not null default '',
  created_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_start timestamptz,
  date_finished timestamptz
);
create index account_automation_executions_automation_idx on account_automation_executions (automation_id, date_created desc);
create index account_automation_executions_org_idx on account_automation_executions (org_id, type, date_created desc);

-- One row per asset (and account) an execution worked on, with its error.
create table account_automation_records (
  id uuid primary key,
  execution_id uuid not null references account_automation_executions(id) on delete cascade,
  asset_id uuid references assets(id) on delete set null,
  account_id uuid references accounts(id) on delete set null,
  asset_name varchar(256) not null default '',
  username varchar(128) not null default '',
  status varchar(16) not null default 'pending',
  is_success boolean not null default false,
  error text not null default '',
  date_started timestamptz,
  date_finished timestamptz
);
create index account_automation_records_execution_idx on account_automation_records (execution_id);

-- Accounts found on hosts by a gather automation.
create table gathered_accounts (
  id uuid primary key,
  org_id uuid not null references organizations(id) on delete cascade,
  asset_id uuid not null references assets(id) on delete cascade,
  username varchar(128) not null,
  uid integer,
  shell varchar(256) not null default '',
  sudo boolean not null default false,
  address_last_login varchar(64) not null default '',
  date_last_login timestamptz,
  present boolean not null default true,
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  unique (asset_id, username)
);
create index gathered_accounts_org_idx on gathered_accounts (org_id, username, id);

-- Trigram indexes over each search expression (server/engine/query.ts searchExpression()).
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    execute $i$create index if not exists accounts_search_trgm on accounts using gin ((coalesce(name::text, '') || ' ' || coalesce(username::text, '')) gin_trgm_ops)$i$;
    execute $i$create index if not exists account_automations_search_trgm on account_automations using gin ((coalesce(name::text, '')) gin_trgm_ops)$i$;
    execute $i$create index if not exists gathered_accounts_search_trgm on gathered_accounts using gin ((coalesce(username::text, '')) gin_trgm_ops)$i$;
    execute $i$create index if not exists account_templates_search_trgm on account_templates using gin ((coalesce(name::text, '') || ' ' || coalesce(username::text, '')) gin_trgm_ops)$i$;
  end if;
end $$;
