-- Domains (zones) and their gateways, label switches, connectivity (issue 10, assets-net).
-- A gateway is an asset (a host on the built-in "Gateway" platform) whose domain_id names its domain; the other
-- assets of a domain are reached through one of its active gateways.

create table domains (
  id uuid primary key,
  name varchar(128) not null,
  org_id uuid not null references organizations(id) on delete cascade,
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  unique (org_id, name)
);

-- An asset leaves its domain when the domain is deleted (JumpServer: on_delete SET_NULL).
alter table assets add constraint assets_domain_fk foreign key (domain_id) references domains(id) on delete set null;

-- Labels gain JumpServer 3.2's active switch.
alter table labels add column is_active boolean not null default true;

-- The search expressions of server/engine/query.ts searchExpression(), repeated exactly.
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    execute $i$create index if not exists domains_search_trgm on domains using gin ((coalesce(name::text, '')) gin_trgm_ops)$i$;
    execute $i$create index if not exists labels_search_trgm on labels using gin ((coalesce(name::text, '') || ' ' || coalesce(value::text, '')) gin_trgm_ops)$i$;
  end if;
end $$;
