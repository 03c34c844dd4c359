-- Assets, finished (issue 10): cached subtree counts on the nodes, so a node's children with their counts read
-- ten numbers instead of counting every link of every subtree (docs/decisions.md "Node counts").

-- A subtree's members are read through its node ids (one index range over the nodes' keys, then the links by
-- node id), so links never hold a copy of a key and moving a subtree rewrites only its nodes.

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
  perform nodes_amounts_stale(array(select distinct n.key from nodes n where n.id in (select node_id from added_links)));
  return null;
end $$;
create trigger asset_nodes_added after insert on asset_nodes referencing new table as added_links
  for each statement execute function asset_nodes_added();

create function asset_nodes_removed() returns trigger language plpgsql as $$
begin
  perform nodes_amounts_stale(array(select distinct n.key from nodes n where n.id in (select node_id from removed_links)));
  return null;
end $$;
create trigger asset_nodes_removed after delete on asset_nodes referencing old table as removed_links
  for each statement execute function asset_nodes_removed();

-- A moved subtree: its top (the moved node whose old parent still has its key; an inner node's old parent key
-- moved away with it) marks the counts above its old and its new place unknown. Row-level with a WHEN, so the
-- many updates that change no key (counts, child_mark, renames) cost nothing here.
create function nodes_moved() returns trigger language plpgsql as $$
begin
  if exists (select 1 from nodes p where p.key = old.parent_key) then
    perform nodes_amounts_stale(array[old.parent_key, new.parent_key]);
  end if;
  return null;
end $$;
create trigger nodes_moved after update of key on nodes
  for each row when (old.key is distinct from new.key) execute function nodes_moved();
