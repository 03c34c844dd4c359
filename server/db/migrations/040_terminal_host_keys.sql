-- The built-in terminal component (issue 30, docs/terminal.md): host keys recorded on first connection (trust on
-- first use). One key per asset and port; a changed key refuses connections until an administrator clears it.
create table asset_host_keys (
  asset_id uuid not null references assets(id) on delete cascade,
  port integer not null,
  key_type varchar(64) not null default '',
  fingerprint varchar(128) not null,
  date_created timestamptz not null default now(),
  primary key (asset_id, port)
);
