-- Terminal components (koko, lion, …) and what they report: sessions, commands, file transfers, replays, tasks
-- (docs/terminal.md). Sessions, commands and file-transfer logs name their user, asset and account by strings
-- (name and id), as JumpServer stores them: no foreign keys into users or assets.

-- Access keys (JumpServer's authentication.AccessKey): HTTP-Signature credentials of a user; a registered
-- component's service account holds one. The secret is sealed at rest (server/auth/atrest.ts).
create table access_keys (
  id uuid primary key,
  secret text not null,
  user_id uuid not null references users(id) on delete cascade,
  is_active boolean not null default true,
  date_last_used timestamptz,
  date_created timestamptz not null default now()
);
create index access_keys_user_idx on access_keys (user_id);

create table terminals (
  id uuid primary key,
  name varchar(128) not null,
  type varchar(64) not null default 'koko',
  remote_addr varchar(128) not null default '',
  user_id uuid references users(id) on delete set null,
  command_storage varchar(128) not null default 'default',
  replay_storage varchar(128) not null default 'default',
  is_deleted boolean not null default false,
  stat jsonb,
  date_stat timestamptz,
  comment text not null default '',
  date_created timestamptz not null default now()
);
create unique index terminals_name_live_idx on terminals (name) where not is_deleted;
create index terminals_user_idx on terminals (user_id);

-- "sessions" holds the HTTP sessions: these are terminal sessions.
create table terminal_sessions (
  id uuid primary key,
  "user" varchar(128) not null default '',
  asset varchar(128) not null default '',
  account varchar(128) not null default '',
  user_id varchar(36) not null default '',
  asset_id varchar(36) not null default '',
  account_id varchar(36) not null default '',
  protocol varchar(16) not null default 'ssh',
  type varchar(16) not null default 'normal',
  login_from varchar(2) not null default 'ST',
  remote_addr varchar(128) not null default '',
  is_success boolean not null default true,
  is_finished boolean not null default false,
  has_replay boolean not null default false,
  replay_path varchar(512),
  replay_size bigint,
  terminal_id uuid references terminals(id) on delete set null,
  date_start timestamptz not null default now(),
  date_end timestamptz,
  date_last_active timestamptz,
  comment text not null default '',
  org_id uuid not null
);
create index terminal_sessions_org_date_idx on terminal_sessions (org_id, date_start desc);
create index terminal_sessions_date_idx on terminal_sessions (date_start desc);
create index terminal_sessions_online_idx on terminal_sessions (date_start desc) where not is_finished;
create index terminal_sessions_user_idx on terminal_sessions (user_id, date_start desc);

create table commands (
  id uuid primary key,
  "user" varchar(64) not null default '',
  asset varchar(128) not null default '',
  account varchar(64) not null default '',
  input varchar(128) not null default '',
  output varchar(1024) not null default '',
  session varchar(36) not null default '',
  risk_level smallint not null default 0,
  remote_addr varchar(128) not null default '',
  timestamp integer not null,
  datetime timestamptz generated always as (to_timestamp(timestamp)) stored,
  org_id uuid not null
);
-- Newest-first pages walk (org_id, timestamp); date ranges (date_from/date_to on the generated datetime) and
-- their counts use (org_id, datetime); dangerous commands have their own small index.
create index commands_org_time_idx on commands (org_id, timestamp desc);
create index commands_time_idx on commands (timestamp desc);
create index commands_org_datetime_idx on commands (org_id, datetime desc);
create index commands_session_idx on commands (session, timestamp);
create index commands_risk_idx on commands (org_id, risk_level, datetime desc) where risk_level > 0;

create table ftp_logs (
  id uuid primary key,
  "user" varchar(128) not null default '',
  remote_addr varchar(128) not null default '',
  asset varchar(1024) not null default '',
  account varchar(128) not null default '',
  operate varchar(16) not null,
  filename varchar(1024) not null default '',
  is_success boolean not null default true,
  session varchar(36) not null default '',
  date_start timestamptz not null default now(),
  org_id uuid not null
);
create index ftp_logs_org_date_idx on ftp_logs (org_id, date_start desc);
create index ftp_logs_date_idx on ftp_logs (date_start desc);

-- Tasks for a component (terminate a session), fetched with its heartbeat and acknowledged by PATCH.
create table terminal_tasks (
  id uuid primary key,
  name varchar(128) not null,
  args varchar(1024) not null default '',
  kwargs jsonb not null default '{}',
  terminal_id uuid not null references terminals(id) on delete cascade,
  is_finished boolean not null default false,
  date_created timestamptz not null default now(),
  date_finished timestamptz
);
create index terminal_tasks_pending_idx on terminal_tasks (terminal_id, date_created) where not is_finished;

create index login_logs_username_idx on login_logs (username, datetime desc);
create index password_change_logs_datetime_idx on password_change_logs (datetime desc);

-- Trigram indexes over each resource's search expression (server/engine/query.ts searchExpression(), exactly).
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    execute $i$create index terminals_search_trgm on terminals using gin ((coalesce(name::text, '') || ' ' || coalesce(remote_addr::text, '')) gin_trgm_ops)$i$;
    execute $i$create index terminal_sessions_search_trgm on terminal_sessions using gin ((coalesce("user"::text, '') || ' ' || coalesce(asset::text, '') || ' ' || coalesce(account::text, '') || ' ' || coalesce(remote_addr::text, '')) gin_trgm_ops)$i$;
    execute $i$create index commands_search_trgm on commands using gin ((coalesce(input::text, '') || ' ' || coalesce("user"::text, '') || ' ' || coalesce(asset::text, '') || ' ' || coalesce(account::text, '')) gin_trgm_ops)$i$;
    execute $i$create index ftp_logs_search_trgm on ftp_logs using gin ((coalesce("user"::text, '') || ' ' || coalesce(asset::text, '') || ' ' || coalesce(account::text, '') || ' ' || coalesce(filename::text, '')) gin_trgm_ops)$i$;
    execute $i$create index login_logs_search_trgm on login_logs using gin ((coalesce(username::text, '') || ' ' || coalesce(ip::text, '') || ' ' || coalesce(city::text, '')) gin_trgm_ops)$i$;
    execute $i$create index password_change_logs_search_trgm on password_change_logs using gin ((coalesce("user"::text, '') || ' ' || coalesce(change_by::text, '') || ' ' || coalesce(remote_addr::text, '')) gin_trgm_ops)$i$;
  end if;
end $$;
