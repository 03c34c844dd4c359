-- Targeted invalidation of the grant cache (docs/perms.md, issue 11). 018 bumped one global counter on every write
-- that could change a grant, so any such write rebuilt every user's cache. Now the statement triggers read their
-- transition tables and bump only what they can tell:
--   * per user (perm_user_epoch): permission members (users, groups → their members), a permission's assets /
--     nodes / validity / actions (→ its users and its groups' members), group membership;
--   * per organization (perm_org_epoch, which also bumps the root organization's row): an asset ↔ node link,
--     an asset or a node deleted (the users reaching them are not known cheaply);
--   * globally (perm_epoch, as before): a node moved or renamed in its key, an asset moved to another organization.
-- A cached grant is current while the three values it was built at are unchanged (and valid_until is not past).

create table perm_user_epoch (user_id uuid primary key, value bigint not null);
create table perm_org_epoch (org_id uuid primary key, value bigint not null);
alter table perm_user_cache add column user_epoch bigint not null default 0, add column org_epoch bigint not null default 0;

drop trigger perm_epoch_asset_permissions on asset_permissions;
drop trigger perm_epoch_apu on asset_permission_users;
drop trigger perm_epoch_apg on asset_permission_user_groups;
drop trigger perm_epoch_apa on asset_permission_assets;
drop trigger perm_epoch_apn on asset_permission_nodes;
drop trigger perm_epoch_group_members on user_group_members;
drop trigger perm_epoch_asset_nodes on asset_nodes;
drop trigger perm_epoch_nodes on nodes;
drop trigger perm_epoch_assets on assets;

-- still global: rare structural moves
create trigger perm_epoch_nodes after update of key, parent_key, org_id on nodes for each statement execute function perm_epoch_bump();
create trigger perm_epoch_assets after update of org_id on assets for each statement execute function perm_epoch_bump();

create function perm_bump_users(ids uuid[]) returns void language sql as $$
  insert into perm_user_epoch (user_id, value) select distinct u, 1 from unnest(ids) u where u is not null
  on conflict (user_id) do update set value = perm_user_epoch.value + 1
$$;

create function perm_bump_orgs(ids uuid[]) returns void language sql as $$
  insert into perm_org_epoch (org_id, value)
    select distinct o, 1 from unnest(ids || '00000000-0000-0000-0000-000000000000'::uuid) o where o is not null
  on conflict (org_id) do update set value = perm_org_epoch.value + 1
$$;

-- The users a set of permissions grants to (directly or through their groups).
create function perm_users_of(perm_ids uuid[]) returns uuid[] language sql stable as $$
  select coalesce(array_agg(x), '{}') from (
    select u.user_id as x from asset_permission_users u where u.assetpermission_id = any(perm_ids)
    union select m.user_id from asset_permission_user_groups g join user_group_members m on m.usergroup_id = g.usergroup_id
      where g.assetpermission_id = any(perm_ids)) s
$$;

create function perm_inv_apu() returns trigger language plpgsql as $$
begin perform perm_bump_users(array(select user_id from changed)); return null; end $$;
create function perm_inv_members() returns trigger language plpgsql as $$
begin perform perm_bump_users(array(select user_id from changed)); return null; end $$;
create function perm_inv_apg() returns trigger language plpgsql as $$
begin perform perm_bump_users(array(select m.user_id from changed c join user_group_members m on m.usergroup_id = c.usergroup_id)); return null; end $$;
create function perm_inv_ap_members() returns trigger language plpgsql as $$
begin perform perm_bump_users(perm_users_of(array(select assetpermission_id from changed))); return null; end $$;
create function perm_inv_ap() returns trigger language plpgsql as $$
begin perform perm_bump_users(perm_users_of(array(select id from changed))); return null; end $$;
create function perm_inv_asset_nodes() returns trigger language plpgsql as $$
begin
  perform perm_bump_orgs(array(select a.org_id from changed c join assets a on a.id = c.asset_id
    union select n.org_id from changed c join nodes n on n.id = c.node_id));
  return null;
end $$;
create function perm_inv_org_rows() returns trigger language plpgsql as $$
begin perform perm_bump_orgs(array(select org_id from changed)); return null; end $$;

-- One trigger per event (a transition table per trigger); an update is seen through its old and its new rows.
do $$
declare
  t record;
  ev text;
begin
  for t in select * from (values
      ('asset_permission_users', 'perm_inv_apu', 'ins,del,upd'),
      ('user_group_members', 'perm_inv_members', 'ins,del,upd'),
      ('asset_permission_user_groups', 'perm_inv_apg', 'ins,del,upd'),
      ('asset_permission_assets', 'perm_inv_ap_members', 'ins,del,upd'),
      ('asset_permission_nodes', 'perm_inv_ap_members', 'ins,del,upd'),
      ('asset_permissions', 'perm_inv_ap', 'upd'),
      ('asset_nodes', 'perm_inv_asset_nodes', 'ins,del,upd'),
      ('assets', 'perm_inv_org_rows', 'del'),
      ('nodes', 'perm_inv_org_rows', 'del')) as x(tbl, fn, events)
  loop
    foreach ev in array string_to_array(t.events, ',') loop
      if ev = 'ins' then
        execute format('create trigger %I after insert on %I referencing new table as changed for each statement execute function %I()', 'perm_inv_' || t.tbl || '_ins', t.tbl, t.fn);
      elsif ev = 'del' then
        execute format('create trigger %I after delete on %I referencing old table as changed for each statement execute function %I()', 'perm_inv_' || t.tbl || '_del', t.tbl, t.fn);
      else
        execute format('create trigger %I after update on %I referencing old table as changed for each statement execute function %I()', 'perm_inv_' || t.tbl || '_upd_old', t.tbl, t.fn);
        execute format('create trigger %I after update on %I referencing new table as changed for each statement execute function %I()', 'perm_inv_' || t.tbl || '_upd_new', t.tbl, t.fn);
      end if;
    end loop;
  end loop;
end $$;
