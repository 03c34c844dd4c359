-- Assets (issue 10): the node tree, platforms with their protocols and automation, assets of six kinds on one
-- base table, asset ↔ node and asset ↔ label links, labels. Decisions: docs/decisions.md ("Assets: one table").

-- Nodes: a tree per organization. `key` is JumpServer's path of integers ("1:3:7"); an org's root node has a
-- bare integer key unique across organizations; `full_value` is the "/"-joined path of values, kept exact on
-- rename and move; `child_mark` numbers the next child key.
create table nodes (
  id uuid primary key,
  key varchar(64) not null unique,
  value varchar(128) not null,
  full_value varchar(4096) not null default '',
  parent_key varchar(64) not null default '',
  child_mark integer not null default 0,
  org_id uuid not null references organizations(id) on delete cascade,
  created_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);
create index nodes_parent_idx on nodes (org_id, parent_key, value);
create index nodes_key_prefix_idx on nodes (key varchar_pattern_ops);
create unique index nodes_sibling_value_idx on nodes (org_id, parent_key, value);

-- Every organization has a root node named after it (created with the organization, and now for existing ones).
create function nodes_org_root() returns trigger language plpgsql as $$
begin
  perform pg_advisory_xact_lock(7361514880124);
  insert into nodes (id, key, value, full_value, parent_key, org_id, created_by)
  select gen_random_uuid(), (select coalesce(max(key::bigint), 0) + 1 from nodes where key ~ '^[0-9]+$')::text,
         new.name, '/' || new.name, '', new.id, 'System'
  where not exists (select 1 from nodes where org_id = new.id and parent_key = '');
  return new;
end $$;
create trigger organizations_root_node after insert on organizations for each row execute function nodes_org_root();

do $$
declare o record;
begin
  perform pg_advisory_xact_lock(7361514880124);
  for o in select id, name from organizations order by (id = '00000000-0000-0000-0000-000000000002') desc, date_created loop
    insert into nodes (id, key, value, full_value, parent_key, org_id, created_by)
    select gen_random_uuid(), (select coalesce(max(key::bigint), 0) + 1 from nodes where key ~ '^[0-9]+$')::text,
           o.name, '/' || o.name, '', o.id, 'System'
    where not exists (select 1 from nodes where org_id = o.id and parent_key = '');
  end loop;
end $$;

-- Platforms: integer ids, system-wide. Built-in ones (internal) are seeded below.
create table platforms (
  id serial primary key,
  name varchar(50) not null unique,
  category varchar(32) not null,
  type varchar(32) not null,
  internal boolean not null default false,
  charset varchar(8) not null default 'utf-8',
  domain_enabled boolean not null default true,
  su_enabled boolean not null default false,
  su_method varchar(32),
  custom_fields jsonb not null default '[]'::jsonb,
  automation jsonb not null default '{}'::jsonb,
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);

create table platform_protocols (
  id serial primary key,
  platform_id integer not null references platforms(id) on delete cascade,
  name varchar(32) not null,
  port integer not null,
  "primary" boolean not null default false,
  required boolean not null default false,
  "default" boolean not null default false,
  public boolean not null default true,
  setting jsonb not null default '{}'::jsonb,
  unique (platform_id, name)
);

-- Labels (assets-net declares the resource): name:value pairs per organization.
create table labels (
  id uuid primary key,
  name varchar(128) not null,
  value varchar(128) not null,
  org_id uuid not null references organizations(id) on delete cascade,
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  unique (org_id, name, value)
);

-- Assets of every kind: one base row; `category`/`type` follow the platform; per-kind columns are filled only
-- for their kind (database: db_name…allow_invalid_cert; web: autofill…script; custom: custom_info;
-- host: gathered_info). `domain_id` points at assets-net's domains (constraint added with that table).
create table assets (
  id uuid primary key,
  name varchar(128) not null,
  address varchar(767) not null,
  platform_id integer not null references platforms(id) on delete restrict,
  domain_id uuid,
  category varchar(32) not null,
  type varchar(32) not null,
  is_active boolean not null default true,
  connectivity varchar(16) not null default '-',
  date_verified timestamptz,
  comment text not null default '',
  org_id uuid not null references organizations(id) on delete cascade,
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  gathered_info jsonb not null default '{}'::jsonb,
  custom_info jsonb not null default '{}'::jsonb,
  db_name varchar(1024) not null default '',
  use_ssl boolean not null default false,
  ca_cert text not null default '',
  client_cert text not null default '',
  client_key text not null default '',
  allow_invalid_cert boolean not null default false,
  autofill varchar(16) not null default 'basic',
  username_selector varchar(128) not null default 'name=username',
  password_selector varchar(128) not null default 'name=password',
  submit_selector varchar(128) not null default 'id=login_button',
  script jsonb not null default '[]'::jsonb,
  unique (org_id, name)
);
create index assets_org_name_idx on assets (org_id, name, id);
create index assets_category_idx on assets (org_id, category, type);
create index assets_platform_idx on assets (platform_id);
create index assets_domain_idx on assets (domain_id);

create table asset_protocols (
  id bigserial primary key,
  asset_id uuid not null references assets(id) on delete cascade,
  name varchar(32) not null,
  port integer not null,
  unique (asset_id, name)
);

create table asset_nodes (
  id bigserial primary key,
  asset_id uuid not null references assets(id) on delete cascade,
  node_id uuid not null references nodes(id) on delete restrict,
  unique (asset_id, node_id)
);
create index asset_nodes_node_idx on asset_nodes (node_id, asset_id);

create table asset_labels (
  id bigserial primary key,
  asset_id uuid not null references assets(id) on delete cascade,
  label_id uuid not null references labels(id) on delete cascade,
  unique (asset_id, label_id)
);
create index asset_labels_label_idx on asset_labels (label_id, asset_id);

-- Favourite assets of a user.
create table favorite_assets (
  id uuid primary key,
  user_id uuid not null references users(id) on delete cascade,
  asset_id uuid not null references assets(id) on delete cascade,
  org_id uuid references organizations(id) on delete cascade,
  date_created timestamptz not null default now(),
  unique (user_id, asset_id)
);

-- Built-in platforms as JumpServer 3.2 seeds them (assets/const/*.py internal_platforms), protected from change.
insert into platforms (id, name, category, type, internal, charset, domain_enabled, su_enabled, su_method, created_by) values
  (1, 'Linux', 'host', 'linux', true, 'utf-8', true, true, 'sudo', 'System'),
  (2, 'Gateway', 'host', 'linux', true, 'utf-8', true, true, 'sudo', 'System'),
  (3, 'Unix', 'host', 'unix', true, 'utf-8', true, true, 'sudo', 'System'),
  (4, 'macOS', 'host', 'unix', true, 'utf-8', true, true, 'sudo', 'System'),
  (5, 'BSD', 'host', 'unix', true, 'utf-8', true, true, 'sudo', 'System'),
  (6, 'AIX', 'host', 'unix', true, 'utf-8', true, true, 'sudo', 'System'),
  (7, 'Windows', 'host', 'windows', true, 'utf-8', true, false, null, 'System'),
  (8, 'Windows-TLS', 'host', 'windows', true, 'utf-8', true, false, null, 'System'),
  (9, 'Windows-RDP', 'host', 'windows', true, 'utf-8', true, false, null, 'System'),
  (10, 'General', 'device', 'general', true, 'utf-8', true, true, 'enable', 'System'),
  (11, 'Cisco', 'device', 'general', true, 'utf-8', true, true, 'enable', 'System'),
  (12, 'Huawei', 'device', 'general', true, 'utf-8', true, true, 'super', 'System'),
  (13, 'H3C', 'device', 'general', true, 'utf-8', true, true, 'super_level', 'System'),
  (14, 'MySQL', 'database', 'mysql', true, 'utf-8', true, false, null, 'System'),
  (15, 'MariaDB', 'database', 'mariadb', true, 'utf-8', true, false, null, 'System'),
  (16, 'PostgreSQL', 'database', 'postgresql', true, 'utf-8', true, false, null, 'System'),
  (17, 'Oracle', 'database', 'oracle', true, 'utf-8', true, false, null, 'System'),
  (18, 'SQLServer', 'database', 'sqlserver', true, 'utf-8', true, false, null, 'System'),
  (19, 'ClickHouse', 'database', 'clickhouse', true, 'utf-8', true, false, null, 'System'),
  (20, 'MongoDB', 'database', 'mongodb', true, 'utf-8', true, false, null, 'System'),
  (21, 'Redis', 'database', 'redis', true, 'utf-8', true, false, null, 'System'),
  (22, 'Redis6+', 'database', 'redis', true, 'utf-8', true, false, null, 'System'),
  (23, 'Website', 'web', 'website', true, 'utf-8', false, false, null, 'System'),
  (24, 'Vmware-vSphere', 'cloud', 'private', true, 'utf-8', false, false, null, 'System'),
  (25, 'Kubernetes', 'cloud', 'k8s', true, 'utf-8', false, false, null, 'System');
select setval('platforms_id_seq', 100);

-- Protocols per type: the first is primary and default; database and k8s protocols are required.
insert into platform_protocols (platform_id, name, port, "primary", required, "default", setting)
select p.id, v.name, v.port, v.pos = 1, v.required, v.pos = 1, v.setting::jsonb
from platforms p
join (values
  ('linux', 1, 'ssh', 22, false, '{"sftp_enabled": true, "sftp_home": "/tmp"}'),
  ('linux', 2, 'telnet', 23, false, '{}'), ('linux', 3, 'vnc', 5900, false, '{}'), ('linux', 4, 'rdp', 3389, false, '{"console": false, "security": "any"}'),
  ('unix', 1, 'ssh', 22, false, '{"sftp_enabled": true, "sftp_home": "/tmp"}'),
  ('unix', 2, 'telnet', 23, false, '{}'), ('unix', 3, 'vnc', 5900, false, '{}'), ('unix', 4, 'rdp', 3389, false, '{"console": false, "security": "any"}'),
  ('windows', 1, 'rdp', 3389, false, '{"console": false, "security": "any"}'), ('windows', 2, 'ssh', 22, false, '{"sftp_enabled": true, "sftp_home": "/tmp"}'),
  ('windows', 3, 'vnc', 5900, false, '{}'),
  ('general', 1, 'ssh', 22, false, '{"sftp_enabled": true, "sftp_home": "/tmp"}'), ('general', 2, 'telnet', 23, false, '{}'),
  ('mysql', 1, 'mysql', 3306, true, '{}'), ('mariadb', 1, 'mariadb', 3306, true, '{}'),
  ('postgresql', 1, 'postgresql', 5432, true, '{}'), ('oracle', 1, 'oracle', 1521, true, '{}'),
  ('sqlserver', 1, 'sqlserver', 1433, true, '{}'), ('clickhouse', 1, 'clickhouse', 9000, true, '{}'),
  ('mongodb', 1, 'mongodb', 27017, true, '{}'), ('redis', 1, 'redis', 6379, true, '{"auth_username": false}'),
  ('website', 1, 'http', 80, false, '{"autofill": "basic", "username_selector": "name=username", "password_selector": "name=password", "submit_selector": "type=submit", "script": []}'),
  ('private', 1, 'http', 80, false, '{}'),
  ('k8s', 1, 'k8s', 443, true, '{}')
) as v(type, pos, name, port, required, setting) on v.type = p.type;
-- Automation: platforms store only the switches set on them; reading merges them over the type's defaults
-- (server/resources/assets/platforms.ts), so built-in platforms store none.
-- Windows-TLS / Windows-RDP differ in the RDP security layer; Redis6+ authenticates with a username.
update platform_protocols set setting = jsonb_set(setting, '{security}', '"tls"') where platform_id = 8 and name = 'rdp';
update platform_protocols set setting = jsonb_set(setting, '{security}', '"rdp"') where platform_id = 9 and name = 'rdp';
update platform_protocols set setting = '{"auth_username": true}'::jsonb where platform_id = 22 and name = 'redis';

-- The search expressions of server/engine/query.ts searchExpression(), repeated exactly.
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    execute $i$create index if not exists assets_search_trgm on assets using gin ((coalesce(name::text, '') || ' ' || coalesce(address::text, '')) gin_trgm_ops)$i$;
    execute $i$create index if not exists nodes_search_trgm on nodes using gin ((coalesce(value::text, '')) gin_trgm_ops)$i$;
    execute $i$create index if not exists platforms_search_trgm on platforms using gin ((coalesce(name::text, '')) gin_trgm_ops)$i$;
  end if;
end $$;
