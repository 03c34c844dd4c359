-- The job center (issue 33; docs/jobs.md): jobs (quick jobs are instant jobs, hidden from the job list) and their
-- executions. Every execution is run by a background task (task_executions); `task_id` is that execution's id.
create table ops_jobs (
  id uuid primary key,
  name varchar(128) not null,
  instant boolean not null default false,
  type varchar(16) not null default 'adhoc',
  module varchar(16) not null default 'shell',
  args text not null default '',
  assets jsonb not null default '[]'::jsonb,
  nodes jsonb not null default '[]'::jsonb,
  runas varchar(128) not null default 'root',
  runas_policy varchar(32) not null default 'skip',
  timeout integer not null default -1,
  chdir varchar(1024) not null default '',
  comment text not null default '',
  is_periodic boolean not null default false,
  interval integer,
  crontab varchar(128) not null default '',
  version integer not null default 1,
  org_id uuid not null,
  creator_id uuid not null,
  created_by varchar(256) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);
create index ops_jobs_creator_idx on ops_jobs (creator_id, org_id, date_created desc);

create table ops_job_executions (
  id uuid primary key,
  job_id uuid not null references ops_jobs(id) on delete cascade,
  task_id uuid not null unique,
  job_version integer not null default 1,
  status varchar(16) not null default 'running',
  parameters jsonb not null default '{}'::jsonb,
  material text not null default '',
  job_type varchar(16) not null default 'adhoc',
  result jsonb not null default '{}'::jsonb,
  summary jsonb not null default '{}'::jsonb,
  -- Per asset: {asset_id: {name, status, output}} (job-execution/asset-detail/).
  asset_results jsonb not null default '{}'::jsonb,
  org_id uuid not null,
  creator_id uuid not null,
  created_by varchar(256) not null default '',
  date_created timestamptz not null default now(),
  date_start timestamptz,
  date_finished timestamptz
);
create index ops_job_executions_creator_idx on ops_job_executions (creator_id, date_created desc);
create index ops_job_executions_job_idx on ops_job_executions (job_id, date_created desc);
create index ops_job_executions_org_idx on ops_job_executions (org_id, date_start desc);

-- Job logs' search (server/engine/query.ts searchExpression() over `material`, `created_by`, repeated exactly).
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    execute $i$create index ops_job_executions_search_trgm on ops_job_executions using gin ((coalesce(material::text, '') || ' ' || coalesce(created_by::text, '')) gin_trgm_ops)$i$;
  end if;
end $$;
