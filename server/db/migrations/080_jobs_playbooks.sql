-- The job center, second part (issue 33; docs/jobs.md): adhoc templates, playbooks (their files live under
-- DATA_DIR/ops/playbook/<id>), saved jobs that run a playbook, and the versions of a saved job.
create table ops_adhocs (
  id uuid primary key,
  name varchar(128) not null,
  module varchar(16) not null default 'shell',
  args text not null default '',
  comment text not null default '',
  org_id uuid not null,
  creator_id uuid not null,
  created_by varchar(256) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);
create index ops_adhocs_creator_idx on ops_adhocs (creator_id, org_id, date_created desc);

create table ops_playbooks (
  id uuid primary key,
  name varchar(128) not null,
  comment text not null default '',
  create_method varchar(16) not null default 'blank',
  vcs_url varchar(1024) not null default '',
  org_id uuid not null,
  creator_id uuid not null,
  created_by varchar(256) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);
create index ops_playbooks_creator_idx on ops_playbooks (creator_id, org_id, date_created desc);

alter table ops_jobs add column playbook_id uuid references ops_playbooks(id) on delete restrict;

-- One row per saved version of a job (the job's fields as JSON); an execution names the version it ran.
create table ops_job_versions (
  job_id uuid not null references ops_jobs(id) on delete cascade,
  version integer not null,
  data jsonb not null,
  created_by varchar(256) not null default '',
  date_created timestamptz not null default now(),
  primary key (job_id, version)
);

-- The templates' search (server/engine/query.ts searchExpression() over their search fields, repeated exactly).
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    execute $i$create index ops_adhocs_search_trgm on ops_adhocs using gin ((coalesce(name::text, '') || ' ' || coalesce(args::text, '')) gin_trgm_ops)$i$;
    execute $i$create index ops_playbooks_search_trgm on ops_playbooks using gin ((coalesce(name::text, '') || ' ' || coalesce(comment::text, '')) gin_trgm_ops)$i$;
  end if;
end $$;
