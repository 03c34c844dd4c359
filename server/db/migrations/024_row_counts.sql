-- Exact row counts of the big tables per organization, kept by statement-level triggers (docs/decisions.md
-- "List counts"). An unfiltered list page reads its `count` here (one row per org) instead of counting every
-- row of the org: 100,000 accounts counted ~60 ms, read here < 1 ms. Filtered lists still count exactly.
-- A table is counted when it has a row in row_count_tables; server/engine/query.ts countRows() asks.
create table row_count_tables (
  tbl text primary key
);

create table row_counts (
  tbl text not null,
  org_id uuid not null,
  n bigint not null default 0,
  primary key (tbl, org_id)
);

create function row_counts_added() returns trigger language plpgsql as $$
begin
  insert into row_counts (tbl, org_id, n)
    select TG_TABLE_NAME, c.org_id, c.n from (select org_id, count(*) as n from added_rows group by org_id) c
    order by c.org_id
  on conflict (tbl, org_id) do update set n = row_counts.n + excluded.n;
  return null;
end $$;

create function row_counts_removed() returns trigger language plpgsql as $$
begin
  update row_counts r set n = r.n - c.n
    from (select org_id, count(*) as n from removed_rows group by org_id) c
    where r.tbl = TG_TABLE_NAME and r.org_id = c.org_id;
  return null;
end $$;

create function row_counts_moved() returns trigger language plpgsql as $$
begin
  -- rows whose org changed: out of the old org, into the new one (in org order, so concurrent moves lock alike)
  insert into row_counts (tbl, org_id, n)
    select TG_TABLE_NAME, d.org_id, d.n from (
      select org_id, sum(n) as n from (
        select org_id, count(*) as n from added_rows group by org_id
        union all select org_id, -count(*) from removed_rows group by org_id
      ) x group by org_id having sum(n) <> 0
    ) d order by d.org_id
  on conflict (tbl, org_id) do update set n = row_counts.n + excluded.n;
  return null;
end $$;

create function row_counts_truncated() returns trigger language plpgsql as $$
begin
  delete from row_counts where tbl = TG_TABLE_NAME;
  return null;
end $$;

-- Registers a table: its current counts, then the four triggers.
create function row_counts_track(t text) returns void language plpgsql as $$
begin
  insert into row_count_tables (tbl) values (t) on conflict do nothing;
  delete from row_counts where tbl = t;
  execute format('insert into row_counts (tbl, org_id, n) select %L, org_id, count(*) from %I group by org_id', t, t);
  execute format('create trigger %I after insert on %I referencing new table as added_rows for each statement execute function row_counts_added()', t || '_count_ins', t);
  execute format('create trigger %I after delete on %I referencing old table as removed_rows for each statement execute function row_counts_removed()', t || '_count_del', t);
  execute format('create trigger %I after update on %I referencing new table as added_rows old table as removed_rows for each statement execute function row_counts_moved()', t || '_count_upd', t);
  execute format('create trigger %I after truncate on %I for each statement execute function row_counts_truncated()', t || '_count_trunc', t);
end $$;

select row_counts_track('accounts');
select row_counts_track('assets');
select row_counts_track('commands');
select row_counts_track('terminal_sessions');
select row_counts_track('ftp_logs');
