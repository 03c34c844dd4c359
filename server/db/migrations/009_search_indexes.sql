-- Trigram indexes over the search expression of every searched resource not indexed before (migration 003 did
-- users and user groups). Each repeats server/engine/query.ts searchExpression() exactly; the conformance suite
-- (server/conformance/lifecycle.test.ts) checks with EXPLAIN that every resource's search uses one.
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    execute $i$create index if not exists roles_search_trgm on roles using gin ((coalesce(name::text, '')) gin_trgm_ops)$i$;
    execute $i$create index if not exists organizations_search_trgm on organizations using gin ((coalesce(name::text, '') || ' ' || coalesce(comment::text, '')) gin_trgm_ops)$i$;
    execute $i$create index if not exists login_acls_search_trgm on login_acls using gin ((coalesce(name::text, '')) gin_trgm_ops)$i$;
    execute $i$create index if not exists operate_logs_search_trgm on operate_logs using gin ((coalesce("user"::text, '') || ' ' || coalesce(resource::text, '') || ' ' || coalesce(remote_addr::text, '')) gin_trgm_ops)$i$;
    -- Task kinds (migration 005), when that module is present.
    if to_regclass('celery_tasks') is not null then
      execute $i$create index if not exists celery_tasks_search_trgm on celery_tasks using gin ((coalesce(name::text, '')) gin_trgm_ops)$i$;
    end if;
  end if;
end $$;
