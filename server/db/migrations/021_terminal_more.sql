-- Settings → Terminal and Settings → Applets (docs/terminal.md): replay and command storages, endpoints and
-- endpoint rules (which address a user's connection goes to), applets uploaded as zip packages.

-- Storages: `meta` holds the kind's settings (BUCKET, ENDPOINT, HOSTS, …); secret keys (SECRET_KEY,
-- ACCOUNT_KEY) are sealed inside it (server/auth/atrest.ts) and never answered.
create table replay_storages (
  id uuid primary key,
  name varchar(128) not null unique,
  type varchar(16) not null default 'server',
  meta jsonb not null default '{}',
  is_default boolean not null default false,
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);
create unique index replay_storages_default_idx on replay_storages (is_default) where is_default;

create table command_storages (
  id uuid primary key,
  name varchar(128) not null unique,
  type varchar(16) not null default 'server',
  meta jsonb not null default '{}',
  is_default boolean not null default false,
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);
create unique index command_storages_default_idx on command_storages (is_default) where is_default;

insert into replay_storages (id, name, type, is_default, created_by)
  values ('00000000-0000-0000-0000-000000000001', 'default', 'server', true, 'System');
insert into command_storages (id, name, type, is_default, created_by)
  values ('00000000-0000-0000-0000-000000000001', 'default', 'server', true, 'System');

-- A port of 0 means the protocol is not offered through this endpoint.
create table endpoints (
  id uuid primary key,
  name varchar(128) not null unique,
  host varchar(256) not null default '',
  https_port integer not null default 443 check (https_port between 0 and 65535),
  http_port integer not null default 80 check (http_port between 0 and 65535),
  ssh_port integer not null default 2222 check (ssh_port between 0 and 65535),
  rdp_port integer not null default 3389 check (rdp_port between 0 and 65535),
  mysql_port integer not null default 33061 check (mysql_port between 0 and 65535),
  mariadb_port integer not null default 33062 check (mariadb_port between 0 and 65535),
  postgresql_port integer not null default 54320 check (postgresql_port between 0 and 65535),
  redis_port integer not null default 63790 check (redis_port between 0 and 65535),
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);
-- JumpServer's built-in default endpoint (empty host: the address the user's browser used).
insert into endpoints (id, name, host, https_port, http_port, created_by)
  values ('00000000-0000-0000-0000-000000000001', 'Default', '', 0, 0, 'System');

create table endpoint_rules (
  id uuid primary key,
  name varchar(128) not null unique,
  ip_group jsonb not null default '["*"]',
  priority integer not null unique check (priority between 1 and 100),
  endpoint_id uuid references endpoints(id) on delete set null,
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);

-- Applets (remote apps run on applet hosts): the package is kept under DATA_DIR/applets/<name>/.
create table applets (
  id uuid primary key,
  name varchar(128) not null unique,
  display_name varchar(128) not null default '',
  version varchar(16) not null default '',
  author varchar(128) not null default '',
  type varchar(16) not null default 'general',
  is_active boolean not null default true,
  builtin boolean not null default false,
  can_concurrent boolean not null default true,
  protocols jsonb not null default '[]',
  tags jsonb not null default '[]',
  manifest jsonb not null default '{}',
  readme text not null default '',
  icon_type varchar(16) not null default '',
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);

do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    execute $i$create index replay_storages_search_trgm on replay_storages using gin ((coalesce(name::text, '') || ' ' || coalesce(type::text, '')) gin_trgm_ops)$i$;
    execute $i$create index command_storages_search_trgm on command_storages using gin ((coalesce(name::text, '') || ' ' || coalesce(type::text, '')) gin_trgm_ops)$i$;
    execute $i$create index endpoints_search_trgm on endpoints using gin ((coalesce(name::text, '') || ' ' || coalesce(host::text, '')) gin_trgm_ops)$i$;
    execute $i$create index endpoint_rules_search_trgm on endpoint_rules using gin ((coalesce(name::text, '')) gin_trgm_ops)$i$;
    execute $i$create index applets_search_trgm on applets using gin ((coalesce(name::text, '') || ' ' || coalesce(display_name::text, '') || ' ' || coalesce(author::text, '')) gin_trgm_ops)$i$;
  end if;
end $$;
