-- Settings → Applets (issue 13): the package's icon is kept in the row (bounded by the upload limit), so an
-- upload is one transaction and a refused one writes nothing.
alter table applets add column icon bytea;
