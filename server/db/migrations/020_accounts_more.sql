-- Issue 15, session 4: account backups for real. The password a backup plan encrypts its archives with (sealed
-- at rest like every secret, write-only in the API).
alter table account_automations add column zip_encrypt_password text not null default '';
