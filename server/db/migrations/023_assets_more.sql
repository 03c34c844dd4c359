-- Assets, finished (issue 10): a materialised node path on the asset ↔ node links and cached subtree counts on
-- the nodes, so a node's children with their counts and a node's assets with descendants read one index range
-- instead of joining every link to every node (docs/decisions.md "Node counts and paths").

-- Each link carries its node's key followed by ':' ("1:3:" for node 1:3): the subtree of node K is the one range
-- [K || ':', K || ';') of this column (':' and ';' are adjacent), the node itself included, without an OR.
alter table asset_nodes add column node_path varchar(72) not null default '';
update asset_nodes l set node_path = n.key || ':' from nodes n where n.id = l.node_id;
create index asset_nodes_path_idx on asset_nodes (node_path varchar_pattern_ops, asset_id);
-- "is this asset in that subtree", probed per asset by a page ordered by name, without visiting the heap
create index asset_nodes_asset_path_idx on asset_nodes (asset_id, node_path varchar_pattern_ops);

create function asset_nodes_path() returns trigger language plpgsql as $$
begin
  select n.key || ':' into new.node_path from nodes n where n.id = new.node_id;
  return new;
end $$;
create trigger asset_nodes_path before insert or update of node_id on asset_nodes
  for each row execute function asset_nodes_path();

-- Subtree member counts, cached: NULL = unknown (computed on the next read, then stored). `members_version`
-- grows with every change, so a reader stores its count only when no change happened since it counted.
alter table nodes add column members_amount integer;
alter table nodes add column members_version bigint not null default 0;

-- The counts of the given nodes and of all their ancestors become unknown (rows locked in key order).
create function nodes_amounts_stale(keys text[]) returns void language sql as $$
  update nodes set members_amount = null, members_version = members_version + 1
  where id in (
    select n.id from nodes n
    where n.key in (
      select array_to_string(x.p[1:i], ':')
      from (select string_to_array(k, ':') as p from unnest(keys) as k) x, generate_series(1, coalesce(array_length(x.p, 1), 0)) as i
    )
    order by n.key for update
  )
$$;

create function asset_nodes_added() returns trigger language plpgsql as $$
begin
  perform nodes_amounts_stale(array(select distinct rtrim(node_path, ':') from added_links));
  return null;
end $$;
create trigger asset_nodes_added after insert on asset_nodes referencing new table as added_links
  for each statement execute function asset_nodes_added();

create function asset_nodes_removed() returns trigger language plpgsql as $$
begin
  perform nodes_amounts_stale(array(select distinct rtrim(node_path, ':') from removed_links));
  return null;
end $$;
create trigger asset_nodes_removed after delete on asset_nodes referencing old table as removed_links
  for each statement execute function asset_nodes_removed();

-- A moved subtree. Its top (the moved node whose old parent still has its key; an inner node's old parent key
-- moved away with it) rewrites the paths of every link of the subtree in one range update, and marks the counts
-- above its old and its new place unknown. Row-level with a WHEN, so the many updates that change no key
-- (counts, child_mark, renames) cost nothing here.
create function nodes_moved() returns trigger language plpgsql as $$
begin
  if exists (select 1 from nodes p where p.key = old.parent_key) then
    update asset_nodes set node_path = new.key || substr(node_path, length(old.key) + 1)
      where node_path ~>=~ (old.key || ':') and node_path ~<~ (old.key || ';');
    perform nodes_amounts_stale(array[old.parent_key, new.parent_key]);
  end if;
  return null;
end $$;
create trigger nodes_moved after update of key on nodes
  for each row when (old.key is distinct from new.key) execute function nodes_moved();
