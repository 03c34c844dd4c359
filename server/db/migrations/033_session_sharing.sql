-- Session sharing (JumpServer 3.2's terminal.SessionSharing and SessionJoinRecord; docs/terminal.md): a component
-- shares a session (a verify code, who may join, for how long, read-only or writable); each attempt to join it is
-- recorded, successful or not, and finished when the joiner leaves. lina reads the records on a session's detail.
create table session_sharings (
  id uuid primary key,
  session_id uuid not null references terminal_sessions(id) on delete cascade,
  creator_id uuid references users(id) on delete cascade,
  verify_code varchar(16) not null,
  is_active boolean not null default true,
  expired_time integer not null default 0,
  -- the user ids allowed to join, comma separated (JumpServer's text field); empty: anyone with the code
  users text not null default '',
  action_permission varchar(16) not null default 'writable',
  created_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  org_id uuid not null references organizations(id) on delete cascade
);
create index session_sharings_creator_idx on session_sharings (creator_id, date_created desc);
create index session_sharings_session_idx on session_sharings (session_id);

create table session_join_records (
  id uuid primary key,
  session_id uuid not null references terminal_sessions(id) on delete cascade,
  sharing_id uuid not null references session_sharings(id) on delete cascade,
  joiner_id uuid references users(id) on delete cascade,
  verify_code varchar(16) not null,
  date_joined timestamptz not null default now(),
  date_left timestamptz,
  remote_addr varchar(128),
  login_from varchar(2) not null default 'WT',
  is_success boolean not null default true,
  reason varchar(1024) default '-',
  is_finished boolean not null default false,
  created_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  org_id uuid not null references organizations(id) on delete cascade
);
create index session_join_records_session_idx on session_join_records (session_id, date_joined desc);
create index session_join_records_org_idx on session_join_records (org_id, date_joined desc);
create index session_join_records_date_idx on session_join_records (date_joined desc);
create index session_join_records_sharing_idx on session_join_records (sharing_id);

-- Trigram index over the records' search expression (server/engine/query.ts searchExpression(), exactly).
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    execute $i$create index session_join_records_search_trgm on session_join_records using gin ((coalesce(verify_code::text, '') || ' ' || coalesce(remote_addr::text, '') || ' ' || coalesce(reason::text, '')) gin_trgm_ops)$i$;
    execute $i$create index session_sharings_search_trgm on session_sharings using gin ((coalesce(verify_code::text, '') || ' ' || coalesce(created_by::text, '')) gin_trgm_ops)$i$;
  end if;
end $$;
