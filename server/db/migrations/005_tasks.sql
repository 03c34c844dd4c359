-- Background tasks (docs/tasks.md): task kinds with their schedules, executions, and their logs.
-- PostgreSQL 15 subset (runs on PGlite too).
create table celery_tasks (
  id uuid primary key,
  name varchar(1024) not null unique,
  -- Schedule: a 5-field cron expression or an interval in hours (at most one), enabled or not.
  crontab varchar(128) not null default '',
  "interval" integer,
  enabled boolean not null default false,
  next_run_at timestamptz,
  date_last_publish timestamptz
);

create table task_executions (
  id uuid primary key,
  task_name varchar(1024) not null,
  args jsonb not null default '[]'::jsonb,
  kwargs jsonb not null default '{}'::jsonb,
  state varchar(16) not null default 'PENDING',
  date_published timestamptz not null default now(),
  date_start timestamptz,
  date_finished timestamptz,
  creator_id uuid,
  creator varchar(256) not null default '',
  result jsonb,
  reason text not null default '',
  -- The process running it, and until when it holds the task: a RUNNING task whose lease has run out belongs to
  -- a process that died and is marked FAILURE by any other process.
  worker varchar(128) not null default '',
  lease_until timestamptz
);
create index task_executions_pending_idx on task_executions (date_published) where state = 'PENDING';
create index task_executions_running_idx on task_executions (lease_until) where state = 'RUNNING';
create index task_executions_name_idx on task_executions (task_name, date_published desc);
create index task_executions_published_idx on task_executions (date_published);

create table task_log_chunks (
  id bigserial primary key,
  execution_id uuid not null references task_executions(id) on delete cascade,
  data text not null
);
create index task_log_chunks_execution_idx on task_log_chunks (execution_id, id);
