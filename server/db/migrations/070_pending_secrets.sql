-- A changed secret is never lost (issue 35): before a change-secret execution touches a host, the candidate secret
-- is stored sealed in the execution's record for that account (pending); after the new secret logged in it is
-- promoted to the account and the record's copy is cleared. When the host may have taken it but it could not be
-- verified, the record keeps it (secret_state 'unknown') for an administrator to read behind an MFA confirmation.
alter table account_automation_records
  add column secret_type varchar(16) not null default '',
  add column pending_secret text not null default '',
  add column pending_passphrase text not null default '',
  add column secret_state varchar(16) not null default '';
