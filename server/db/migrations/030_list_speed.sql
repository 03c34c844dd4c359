-- List speed (issues 10, 12, 15; docs/decisions.md "Subtree links carry the node's path").
--
-- 1. A node's assets with descendants: each asset↔node link carries its node's path (`key || ':'`), kept by
--    triggers, so a subtree's links are one range of one index (`node_path` from 'K:' up to 'K;') instead of the
--    subtree's node ids (an index range over the nodes) joined to every link (the planner hashed all 100,000
--    links for a node of 10,000). Moving a subtree rewrites its links' paths too (one statement).
alter table asset_nodes add column node_path varchar(65) not null default '';
update asset_nodes l set node_path = n.key || ':' from nodes n where n.id = l.node_id;
create index asset_nodes_path_idx on asset_nodes (node_path varchar_pattern_ops, asset_id);

create function asset_nodes_path() returns trigger language plpgsql as $$
begin
  new.node_path := coalesce((select n.key || ':' from nodes n where n.id = new.node_id), '');
  return new;
end $$;
create trigger asset_nodes_path before insert or update of node_id on asset_nodes
  for each row execute function asset_nodes_path();

-- Statement-level with transition tables: a subtree move (one update of its nodes) rewrites its links' paths in
-- one join; an update that changes no key (counts, child_mark, renames) joins a few rows and writes nothing.
create function nodes_links_path() returns trigger language plpgsql as $$
begin
  update asset_nodes l set node_path = n.key || ':'
    from moved_new n join moved_old o on o.id = n.id
    where l.node_id = n.id and n.key <> o.key;
  return null;
end $$;
create trigger nodes_links_path after update on nodes referencing new table as moved_new old table as moved_old
  for each statement execute function nodes_links_path();
