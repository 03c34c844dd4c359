-- The number of assets in a user's cached grant (issue 11, the first-page budget): the granted-assets list answers
-- its exact count from here instead of counting the 20,000-row semi-join to assets on every page. Written with the
-- cache rows in the same transaction (grants.ts), so it is exact whenever the cache is current; null until the
-- cache is next built (then the list counts as before).
alter table perm_user_cache add column assets_amount integer;
-- Every cache is rebuilt on its next read, which writes its count.
update perm_epoch set value = value + 1 where id = 1;
