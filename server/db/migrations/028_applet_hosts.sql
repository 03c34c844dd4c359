-- Settings → Applets: applet hosts (issue 13). An applet host is an asset of the built-in RemoteAppHost platform
-- in the SYSTEM organization (as JumpServer 3.2's AppletHost, a Host subclass); its own fields live in
-- `applet_hosts` (one row per such asset). Deployments record each deploy task; publications say which applet
-- is installed on which host.
insert into platforms (id, name, category, type, internal, charset, domain_enabled, su_enabled, su_method, created_by)
select 26, 'RemoteAppHost', 'host', 'windows', true, 'utf-8', true, false, null, 'System'
where not exists (select 1 from platforms where name = 'RemoteAppHost' or id = 26);
insert into platform_protocols (platform_id, name, port, "primary", required, "default", setting)
select p.id, v.name, v.port, v.pos = 1, true, true, v.setting::jsonb
from platforms p
join (values (1, 'rdp', 3389, '{"console": false, "security": "any"}'), (2, 'ssh', 22, '{"sftp_enabled": true, "sftp_home": "/tmp"}'))
  as v(pos, name, port, setting) on true
where p.name = 'RemoteAppHost' and p.id = 26
on conflict (platform_id, name) do nothing;

create table applet_hosts (
  asset_id uuid primary key references assets(id) on delete cascade,
  deploy_options jsonb not null default '{}'::jsonb,
  auto_create_accounts boolean not null default true,
  accounts_create_amount integer not null default 100,
  using_same_account boolean not null default false,
  inited boolean not null default false,
  date_inited timestamptz,
  date_synced timestamptz,
  terminal_id uuid references terminals(id) on delete set null
);

create table applet_host_deployments (
  id uuid primary key,
  host_id uuid not null references assets(id) on delete cascade,
  initial boolean not null default false,
  status varchar(16) not null default 'pending',
  date_start timestamptz,
  date_finished timestamptz,
  comment text not null default '',
  task uuid,
  created_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);
create index applet_host_deployments_host_idx on applet_host_deployments (host_id, date_start desc);
create index applet_host_deployments_task_idx on applet_host_deployments (task);

create table applet_publications (
  id uuid primary key,
  applet_id uuid not null references applets(id) on delete cascade,
  host_id uuid not null references assets(id) on delete cascade,
  status varchar(16) not null default 'pending',
  comment text not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  unique (applet_id, host_id)
);
create index applet_publications_host_idx on applet_publications (host_id);
