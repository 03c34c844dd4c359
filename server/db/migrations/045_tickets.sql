-- Tickets and approval flows (issue 32; docs/tickets.md). One table for the four types (JumpServer's multi-table
-- subclasses of Ticket flattened: each type's columns are NULL for the others), the steps and their assignees
-- (the process map), comments, flows, direct-approve tokens and ticket ↔ session links.
create table ticket_flows (
  id uuid primary key,
  -- ROOT (all zeros) is not a row of organizations: the root flow and login tickets live there
  org_id uuid not null,
  type varchar(64) not null,
  approval_level integer not null default 1,
  -- [{strategy, assignees: [user ids]}]; the level is the index + 1
  rules jsonb not null default '[]'::jsonb,
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  unique (org_id, type)
);
-- The root organization's default flow (JumpServer's migration 0010): one level, the super admins.
insert into ticket_flows (id, org_id, type, approval_level, rules, created_by)
  values ('00000000-0000-0000-0000-00000000f100', '00000000-0000-0000-0000-000000000000', 'apply_asset', 1,
    '[{"strategy": "super_admin", "assignees": []}]'::jsonb, 'System');

create table ticket_serials (day varchar(8) primary key, n integer not null);

create table tickets (
  id uuid primary key,
  serial_num varchar(16) unique,
  title varchar(256) not null,
  type varchar(64) not null,
  state varchar(16) not null default 'pending',
  status varchar(16) not null default 'open',
  applicant_id uuid references users(id) on delete set null,
  applicant_display varchar(256) not null default '',
  flow_id uuid references ticket_flows(id) on delete set null,
  approval_step integer not null default 1,
  comment text not null default '',
  -- ROOT (all zeros) is not a row of organizations: the root flow and login tickets live there
  org_id uuid not null,
  rel_snapshot jsonb not null default '{}'::jsonb,
  -- everyone who may see the ticket (applicant and every assignee) and the current step's assignees while the
  -- ticket is open: the list's scope and the badge read these through GIN indexes.
  participants uuid[] not null default '{}',
  current_assignees uuid[] not null default '{}',
  -- apply_asset
  apply_accounts jsonb,
  apply_actions integer,
  apply_date_start timestamptz,
  apply_date_expired timestamptz,
  apply_permission_name varchar(128),
  -- login_confirm
  apply_login_ip varchar(64),
  apply_login_city varchar(64),
  apply_login_datetime timestamptz,
  -- login_asset_confirm
  apply_login_user_id uuid references users(id) on delete set null,
  apply_login_asset_id uuid references assets(id) on delete set null,
  apply_login_account varchar(128),
  -- command_confirm
  apply_run_user_id uuid references users(id) on delete set null,
  apply_run_asset varchar(128),
  apply_run_command varchar(4096),
  apply_run_account varchar(128),
  apply_from_session_id uuid,
  apply_from_cmd_filter_acl_id uuid,
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);
create index tickets_participants_idx on tickets using gin (participants);
create index tickets_current_idx on tickets using gin (current_assignees);
create index tickets_applicant_idx on tickets (applicant_id, date_created desc);
create index tickets_date_idx on tickets (date_created desc);
create index tickets_org_type_idx on tickets (org_id, type);

create table ticket_apply_nodes (
  ticket_id uuid not null references tickets(id) on delete cascade,
  node_id uuid not null references nodes(id) on delete cascade,
  primary key (ticket_id, node_id)
);
create table ticket_apply_assets (
  ticket_id uuid not null references tickets(id) on delete cascade,
  asset_id uuid not null references assets(id) on delete cascade,
  primary key (ticket_id, asset_id)
);

create table ticket_steps (
  id uuid primary key,
  ticket_id uuid not null references tickets(id) on delete cascade,
  level integer not null,
  state varchar(16) not null default 'pending',
  status varchar(16) not null default 'pending',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  unique (ticket_id, level)
);
create table ticket_assignees (
  id uuid primary key,
  step_id uuid not null references ticket_steps(id) on delete cascade,
  ticket_id uuid not null references tickets(id) on delete cascade,
  level integer not null,
  user_id uuid not null references users(id) on delete cascade,
  state varchar(16) not null default 'pending',
  date_updated timestamptz not null default now(),
  unique (step_id, user_id)
);
create index ticket_assignees_ticket_idx on ticket_assignees (ticket_id, level);

create table ticket_comments (
  id uuid primary key,
  ticket_id uuid not null references tickets(id) on delete cascade,
  user_id uuid references users(id) on delete set null,
  user_display varchar(256) not null default '',
  body text not null,
  type varchar(16) not null default 'common',
  date_created timestamptz not null default now()
);
create index ticket_comments_ticket_idx on ticket_comments (ticket_id, date_created);

-- Mailed approve links: the token's SHA-256, single use, one hour.
create table ticket_approve_tokens (
  token_hash varchar(64) primary key,
  ticket_id uuid not null references tickets(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  level integer not null,
  date_expired timestamptz not null,
  date_used timestamptz
);
create index ticket_approve_tokens_ticket_idx on ticket_approve_tokens (ticket_id);

create table ticket_sessions (
  id uuid primary key,
  ticket_id uuid not null references tickets(id) on delete cascade,
  session_id uuid not null,
  unique (ticket_id, session_id)
);

-- Connection tokens created with ?create_ticket=1 wait for their ticket.
alter table connection_tokens add column from_ticket_id uuid references tickets(id) on delete set null;

do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    execute $i$create index tickets_search_trgm on tickets using gin ((coalesce(title::text, '') || ' ' || coalesce(serial_num::text, '')) gin_trgm_ops)$i$;
  end if;
end $$;
