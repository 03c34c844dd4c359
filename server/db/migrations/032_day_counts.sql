-- Exact filtered counts of big dated tables, cached per closed UTC day (docs/decisions.md "Filtered counts of
-- dated lists: a per-day cache for closed days"). A searched week of 1,000,000 commands counted ~78,000 rows on
-- every request; a closed day's count for one filter is kept here, and any write to that day (insert, delete,
-- update — the audit retention included) bumps the day's generation, so a cached count is used only while its
-- generation is the current one. The engine (server/engine/daycounts.ts) reads both in one statement: the count
-- and the generation it belongs to come from the same snapshot, so a write racing a computation cannot leave a
-- stale count that passes for current.
create table day_count_tables (
  tbl text primary key,
  -- the date column of the table's `dateRange` (a timestamptz)
  col text not null
);

create table day_generations (
  tbl text not null,
  day date not null,
  gen bigint not null,
  primary key (tbl, day)
);

create table day_counts (
  tbl text not null,
  -- hash of the list's other conditions (organization, search, filters), their SQL and parameters
  sig text not null,
  day date not null,
  gen bigint not null,
  n bigint not null,
  computed timestamptz not null default now(),
  primary key (tbl, sig, day)
);
create index day_counts_computed_idx on day_counts (computed);

-- Bumps the generation of every UTC day a statement's rows touch (before and after an update); days in order, so
-- concurrent writers lock alike. TG_ARGV[0] is the date column.
create function day_generations_bump() returns trigger language plpgsql as $$
begin
  if TG_OP = 'INSERT' or TG_OP = 'UPDATE' then
    execute format('insert into day_generations (tbl, day, gen)
        select %L, d.day, 1 from (select distinct (%I at time zone ''UTC'')::date as day from new_rows where %I is not null) d order by d.day
      on conflict (tbl, day) do update set gen = day_generations.gen + 1', TG_TABLE_NAME, TG_ARGV[0], TG_ARGV[0]);
  end if;
  if TG_OP = 'DELETE' or TG_OP = 'UPDATE' then
    execute format('insert into day_generations (tbl, day, gen)
        select %L, d.day, 1 from (select distinct (%I at time zone ''UTC'')::date as day from old_rows where %I is not null) d order by d.day
      on conflict (tbl, day) do update set gen = day_generations.gen + 1', TG_TABLE_NAME, TG_ARGV[0], TG_ARGV[0]);
  end if;
  return null;
end $$;

-- Truncate forgets every cached count of the table (generations restart, so the counts must go too).
create function day_counts_truncated() returns trigger language plpgsql as $$
begin
  delete from day_counts where tbl = TG_TABLE_NAME;
  delete from day_generations where tbl = TG_TABLE_NAME;
  return null;
end $$;

create function day_counts_track(t text, c text) returns void language plpgsql as $$
begin
  insert into day_count_tables (tbl, col) values (t, c) on conflict (tbl) do update set col = excluded.col;
  execute format('create trigger %I after insert on %I referencing new table as new_rows for each statement execute function day_generations_bump(%L)', t || '_daygen_ins', t, c);
  execute format('create trigger %I after delete on %I referencing old table as old_rows for each statement execute function day_generations_bump(%L)', t || '_daygen_del', t, c);
  execute format('create trigger %I after update on %I referencing new table as new_rows old table as old_rows for each statement execute function day_generations_bump(%L)', t || '_daygen_upd', t, c);
  execute format('create trigger %I after truncate on %I for each statement execute function day_counts_truncated()', t || '_daygen_trunc', t);
end $$;

select day_counts_track('commands', 'datetime');
select day_counts_track('terminal_sessions', 'date_start');
select day_counts_track('ftp_logs', 'date_start');

-- The commands' search text stored lower-cased (the engine's `searchColumn`, server/engine/query.ts): a search is
-- `search_text like lower(pattern)`, which is what ILIKE does row by row (PostgreSQL lower-cases both sides in a
-- multi-byte encoding) without lower-casing every row on every request — a third of the time of a week's scan.
-- The trigram index moves to the column.
alter table commands add column search_text text generated always as (lower(coalesce(input::text, '') || ' ' || coalesce("user"::text, '') || ' ' || coalesce(asset::text, '') || ' ' || coalesce(account::text, ''))) stored;
drop index if exists commands_search_trgm;
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    execute $i$create index commands_search_trgm on commands using gin (search_text gin_trgm_ops)$i$;
  end if;
end $$;
