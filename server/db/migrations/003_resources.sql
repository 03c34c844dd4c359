-- Resources of the engine (users & groups, roles, login ACLs) and the indexes the list pages need.
-- PostgreSQL 15 subset.

-- Trigram search (pg_trgm: Debian PostgreSQL 15 contrib; PGlite when the extension is loaded).
do $$
begin
  create extension if not exists pg_trgm;
exception when others then
  raise notice 'pg_trgm is not available: searches fall back to sequential scans';
end $$;

create table user_groups (
  id uuid primary key,
  name varchar(128) not null,
  comment text not null default '',
  org_id uuid not null references organizations(id) on delete cascade,
  created_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  unique (org_id, name)
);

create table user_group_members (
  id bigserial primary key,
  user_id uuid not null references users(id) on delete cascade,
  usergroup_id uuid not null references user_groups(id) on delete cascade,
  unique (user_id, usergroup_id)
);
create index user_group_members_group_idx on user_group_members (usergroup_id);

alter table roles add column updated_by varchar(128) not null default '';

create table login_acls (
  id uuid primary key,
  name varchar(128) not null,
  priority integer not null default 50,
  user_id uuid not null references users(id) on delete cascade,
  rules jsonb not null default '{"ip_group": ["*"], "time_period": []}'::jsonb,
  action varchar(64) not null default 'reject',
  is_active boolean not null default true,
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);
create index login_acls_user_idx on login_acls (user_id, priority);

create table login_acl_reviewers (
  id bigserial primary key,
  acl_id uuid not null references login_acls(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  unique (acl_id, user_id)
);

-- One-time password reset links (password_strategy = email, "reset password" action).
create table password_reset_tokens (
  token varchar(64) primary key,
  user_id uuid not null references users(id) on delete cascade,
  date_created timestamptz not null default now(),
  expires_at timestamptz not null
);

-- List pages: ordering and membership lookups.
create index users_name_order_idx on users (name, id);
create index role_bindings_user_idx on role_bindings (user_id, org_id);
create index role_bindings_role_idx on role_bindings (role_id, org_id);
create index operate_logs_org_idx on operate_logs (org_id, datetime desc);

-- The search expressions of server/engine/query.ts searchExpression(), repeated exactly.
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    execute $i$create index users_search_trgm on users using gin ((coalesce(username::text, '') || ' ' || coalesce(email::text, '') || ' ' || coalesce(name::text, '')) gin_trgm_ops)$i$;
    execute $i$create index user_groups_search_trgm on user_groups using gin ((coalesce(name::text, '')) gin_trgm_ops)$i$;
  end if;
end $$;
