-- Asset permissions (issue 11): who (users, user groups) may reach what (assets, nodes and their subtrees) with
-- which accounts, protocols and actions, when. The grant computation and its cache: docs/perms.md.

create table asset_permissions (
  id uuid primary key,
  name varchar(128) not null,
  org_id uuid not null references organizations(id) on delete cascade,
  accounts jsonb not null default '[]'::jsonb,
  protocols jsonb not null default '["all"]'::jsonb,
  actions integer not null default 127,
  is_active boolean not null default true,
  date_start timestamptz not null default now(),
  date_expired timestamptz not null default now() + interval '70 years',
  from_ticket boolean not null default false,
  comment text not null default '',
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  unique (org_id, name)
);

create table asset_permission_users (
  id bigserial primary key,
  assetpermission_id uuid not null references asset_permissions(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  unique (assetpermission_id, user_id)
);
create index asset_permission_users_user_idx on asset_permission_users (user_id, assetpermission_id);

create table asset_permission_user_groups (
  id bigserial primary key,
  assetpermission_id uuid not null references asset_permissions(id) on delete cascade,
  usergroup_id uuid not null references user_groups(id) on delete cascade,
  unique (assetpermission_id, usergroup_id)
);
create index asset_permission_user_groups_group_idx on asset_permission_user_groups (usergroup_id, assetpermission_id);

create table asset_permission_assets (
  id bigserial primary key,
  assetpermission_id uuid not null references asset_permissions(id) on delete cascade,
  asset_id uuid not null references assets(id) on delete cascade,
  unique (assetpermission_id, asset_id)
);
create index asset_permission_assets_asset_idx on asset_permission_assets (asset_id, assetpermission_id);

create table asset_permission_nodes (
  id bigserial primary key,
  assetpermission_id uuid not null references asset_permissions(id) on delete cascade,
  node_id uuid not null references nodes(id) on delete cascade,
  unique (assetpermission_id, node_id)
);
create index asset_permission_nodes_node_idx on asset_permission_nodes (node_id, assetpermission_id);

-- The grant cache (docs/perms.md). `perm_epoch` is one counter bumped by a statement trigger on every table whose
-- change can change what someone is granted; a user's cached grant in an org is valid while its epoch equals the
-- counter and `valid_until` (the next date_start / date_expired of their permissions) has not passed.
create table perm_epoch (id integer primary key, value bigint not null);
insert into perm_epoch values (1, 1);

create table perm_user_cache (
  user_id uuid not null references users(id) on delete cascade,
  org_id uuid not null,
  epoch bigint not null,
  valid_until timestamptz,
  date_built timestamptz not null default now(),
  primary key (user_id, org_id)
);

-- Granted assets with their merged actions (bit or of every valid permission reaching the asset).
create table perm_user_assets (
  user_id uuid not null,
  org_id uuid not null,
  asset_id uuid not null,
  actions integer not null,
  primary key (user_id, org_id, asset_id)
);

-- Nodes to show in the user's tree: every node holding a granted asset in its subtree, with that count.
create table perm_user_nodes (
  user_id uuid not null,
  org_id uuid not null,
  node_id uuid not null,
  key varchar(64) not null,
  parent_key varchar(64) not null,
  assets_amount integer not null,
  primary key (user_id, org_id, node_id)
);
create index perm_user_nodes_parent_idx on perm_user_nodes (user_id, org_id, parent_key);

create function perm_epoch_bump() returns trigger language plpgsql as $$
begin
  update perm_epoch set value = value + 1 where id = 1;
  return null;
end $$;

create trigger perm_epoch_asset_permissions after insert or update or delete on asset_permissions for each statement execute function perm_epoch_bump();
create trigger perm_epoch_apu after insert or update or delete on asset_permission_users for each statement execute function perm_epoch_bump();
create trigger perm_epoch_apg after insert or update or delete on asset_permission_user_groups for each statement execute function perm_epoch_bump();
create trigger perm_epoch_apa after insert or update or delete on asset_permission_assets for each statement execute function perm_epoch_bump();
create trigger perm_epoch_apn after insert or update or delete on asset_permission_nodes for each statement execute function perm_epoch_bump();
create trigger perm_epoch_group_members after insert or update or delete on user_group_members for each statement execute function perm_epoch_bump();
create trigger perm_epoch_asset_nodes after insert or update or delete on asset_nodes for each statement execute function perm_epoch_bump();
create trigger perm_epoch_nodes after insert or delete or update of key, parent_key, org_id on nodes for each statement execute function perm_epoch_bump();
create trigger perm_epoch_assets after insert or delete or update of org_id on assets for each statement execute function perm_epoch_bump();

-- Connection tokens (JumpServer's authentication.ConnectionToken): a user's ticket to one account on one asset.
create table connection_tokens (
  id uuid primary key,
  value varchar(128) not null unique,
  user_id uuid not null references users(id) on delete cascade,
  asset_id uuid references assets(id) on delete cascade,
  org_id uuid not null references organizations(id) on delete cascade,
  account varchar(128) not null default '',
  input_username varchar(128) not null default '',
  input_secret text not null default '',
  protocol varchar(32) not null default '',
  connect_method varchar(32) not null default 'web_cli',
  actions integer not null default 0,
  is_reusable boolean not null default false,
  is_active boolean not null default true,
  date_expired timestamptz not null,
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);
create index connection_tokens_user_idx on connection_tokens (user_id, date_created desc);

do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    execute $i$create index if not exists asset_permissions_search_trgm on asset_permissions using gin ((coalesce(name::text, '')) gin_trgm_ops)$i$;
    execute $i$create index if not exists connection_tokens_search_trgm on connection_tokens using gin ((coalesce(account::text, '') || ' ' || coalesce(protocol::text, '')) gin_trgm_ops)$i$;
  end if;
end $$;
