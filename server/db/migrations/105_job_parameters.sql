-- Job parameters (issue 33; docs/jobs.md "Parameters"): JumpServer 3.2's `use_parameter_define` and
-- `parameters_define` on a saved job — named parameters `{name: {label, type: text|select, default, options}}`
-- whose values an execution records in `ops_job_executions.parameters`.
alter table ops_jobs add column use_parameter_define boolean not null default false;
-- json, not jsonb: the parameters keep the order their author gave them (the run dialog asks them in that order).
alter table ops_jobs add column parameters_define json not null default '{}'::json;
