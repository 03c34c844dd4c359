-- Cloud sync (issue 37, docs/cloud.md): provider accounts, sync instance tasks, their executions (history) and
-- the instances each task found, linked to the asset it made.
create table cloud_accounts (
  id uuid primary key,
  org_id uuid not null references organizations(id) on delete cascade,
  name varchar(128) not null,
  provider varchar(32) not null,
  -- the provider's settings that are not secret (e.g. the scan provider's ranges and ports)
  attrs jsonb not null default '{}'::jsonb,
  -- the secret attributes as one sealed JSON object (server/auth/atrest.ts), never returned
  secret_attrs text not null default '',
  validity boolean not null default true,
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);
create unique index cloud_accounts_name_idx on cloud_accounts (org_id, name);

create table cloud_sync_tasks (
  id uuid primary key,
  org_id uuid not null references organizations(id) on delete cascade,
  name varchar(128) not null,
  account_id uuid not null references cloud_accounts(id) on delete cascade,
  regions jsonb not null default '[]'::jsonb,
  node_id uuid not null references nodes(id),
  hostname_strategy varchar(16) not null default 'instance_name',
  protocols jsonb not null default '[]'::jsonb,
  ip_network_segment_group jsonb not null default '["*"]'::jsonb,
  sync_ip_type integer not null default 0,
  is_always_update boolean not null default true,
  release_assets boolean not null default false,
  platform_account jsonb not null default '{}'::jsonb,
  is_periodic boolean not null default false,
  "interval" integer,
  crontab varchar(128) not null default '',
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  date_last_sync timestamptz
);
create unique index cloud_sync_tasks_name_idx on cloud_sync_tasks (org_id, name);

create table cloud_sync_executions (
  id uuid primary key,
  org_id uuid not null references organizations(id) on delete cascade,
  task_id uuid not null references cloud_sync_tasks(id) on delete cascade,
  status integer not null default 0,
  summary jsonb not null default '{}'::jsonb,
  reason text not null default '',
  celery_task_id uuid,
  date_sync timestamptz not null default now()
);
create index cloud_sync_executions_task_idx on cloud_sync_executions (task_id, date_sync desc);

create table cloud_instances (
  id uuid primary key,
  org_id uuid not null references organizations(id) on delete cascade,
  task_id uuid not null references cloud_sync_tasks(id) on delete cascade,
  instance_id varchar(256) not null,
  region varchar(256) not null default '',
  asset_id uuid references assets(id) on delete set null,
  asset_ip varchar(256) not null default '',
  status integer not null default 0,
  date_sync timestamptz not null default now()
);
create unique index cloud_instances_task_idx on cloud_instances (task_id, instance_id);
create index cloud_instances_asset_idx on cloud_instances (asset_id);

-- search (server/engine/query.ts searchExpression(); checked by server/conformance/lifecycle.test.ts)
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    execute $i$create index if not exists cloud_accounts_search_trgm on cloud_accounts using gin ((coalesce(name::text, '')) gin_trgm_ops)$i$;
    execute $i$create index if not exists cloud_sync_tasks_search_trgm on cloud_sync_tasks using gin ((coalesce(name::text, '')) gin_trgm_ops)$i$;
  end if;
end $$;
