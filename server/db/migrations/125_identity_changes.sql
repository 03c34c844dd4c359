-- Issue 32 (the header badge's fixed cost): a request's identity — its session, the session's user, the user's role
-- bindings and the organizations it names — is kept in memory between requests where the database lives in the
-- server's own process (PGlite), and dropped by these triggers on any change (server/http/identity.ts;
-- docs/decisions/the-request-s-identity-is-cached-only-beside-an-in-process-database.md). They notify only when the
-- connection asked for it (`bastion.identity_notify`, set by the PGlite server at start): on PostgreSQL nothing
-- listens and nothing is sent.
create or replace function notify_identity_change() returns trigger language plpgsql as $$
declare
  r record;
begin
  if coalesce(current_setting('bastion.identity_notify', true), '') <> 'on' then
    return null;
  end if;
  if tg_op = 'DELETE' then r := old; else r := new; end if;
  if tg_table_name = 'sessions' then
    perform pg_notify('identity_changed', 's:' || r.id);
  elsif tg_table_name = 'users' then
    perform pg_notify('identity_changed', 'u:' || r.id);
  elsif tg_table_name = 'role_bindings' then
    perform pg_notify('identity_changed', 'u:' || r.user_id);
    if tg_op = 'UPDATE' and old.user_id is distinct from new.user_id then
      perform pg_notify('identity_changed', 'u:' || old.user_id);
    end if;
  else
    perform pg_notify('identity_changed', 'o');
  end if;
  return null;
end $$;

create trigger sessions_identity_change after insert or update or delete on sessions
  for each row execute function notify_identity_change();
create trigger users_identity_change after insert or update or delete on users
  for each row execute function notify_identity_change();
create trigger role_bindings_identity_change after insert or update or delete on role_bindings
  for each row execute function notify_identity_change();
create trigger organizations_identity_change after insert or update or delete on organizations
  for each row execute function notify_identity_change();
