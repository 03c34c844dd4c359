-- Command groups, command filter ACLs and login asset ACLs (docs/acls.md; JumpServer 3.2 acls app).
-- Matchers are JSON as JumpServer stores them: users {username_group}, assets {name_group, address_group},
-- accounts {username_group}. PostgreSQL 15 subset (runs on PGlite too).
create table command_groups (
  id uuid primary key,
  org_id uuid not null references organizations(id) on delete cascade,
  name varchar(128) not null,
  type varchar(16) not null default 'command',
  content text not null default '',
  ignore_case boolean not null default true,
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  unique (org_id, name)
);

create table command_filter_acls (
  id uuid primary key,
  org_id uuid not null references organizations(id) on delete cascade,
  name varchar(128) not null,
  priority integer not null default 50,
  users jsonb not null default '{"username_group": ["*"]}'::jsonb,
  assets jsonb not null default '{"name_group": ["*"], "address_group": ["*"]}'::jsonb,
  accounts jsonb not null default '{"username_group": ["*"]}'::jsonb,
  action varchar(64) not null default 'reject',
  is_active boolean not null default true,
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  unique (org_id, name)
);
create index command_filter_acls_order_idx on command_filter_acls (org_id, priority, date_updated);

create table command_filter_acl_groups (
  id bigserial primary key,
  acl_id uuid not null references command_filter_acls(id) on delete cascade,
  commandgroup_id uuid not null references command_groups(id) on delete cascade,
  unique (acl_id, commandgroup_id)
);
create index command_filter_acl_groups_group_idx on command_filter_acl_groups (commandgroup_id);

create table command_filter_acl_reviewers (
  id bigserial primary key,
  acl_id uuid not null references command_filter_acls(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  unique (acl_id, user_id)
);

create table login_asset_acls (
  id uuid primary key,
  org_id uuid not null references organizations(id) on delete cascade,
  name varchar(128) not null,
  priority integer not null default 50,
  users jsonb not null default '{"username_group": ["*"]}'::jsonb,
  assets jsonb not null default '{"name_group": ["*"], "address_group": ["*"]}'::jsonb,
  accounts jsonb not null default '{"username_group": ["*"]}'::jsonb,
  rules jsonb not null default '{"ip_group": ["*"], "time_period": []}'::jsonb,
  action varchar(64) not null default 'reject',
  is_active boolean not null default true,
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  unique (org_id, name)
);
create index login_asset_acls_order_idx on login_asset_acls (org_id, priority, date_updated);

create table login_asset_acl_reviewers (
  id bigserial primary key,
  acl_id uuid not null references login_asset_acls(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  unique (acl_id, user_id)
);

-- Trigram indexes over each search expression (server/engine/query.ts searchExpression()).
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    execute $i$create index if not exists command_groups_search_trgm on command_groups using gin ((coalesce(name::text, '')) gin_trgm_ops)$i$;
    execute $i$create index if not exists command_filter_acls_search_trgm on command_filter_acls using gin ((coalesce(name::text, '')) gin_trgm_ops)$i$;
    execute $i$create index if not exists login_asset_acls_search_trgm on login_asset_acls using gin ((coalesce(name::text, '')) gin_trgm_ops)$i$;
  end if;
end $$;
