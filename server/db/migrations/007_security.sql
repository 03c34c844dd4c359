-- Security hardening (issue 16).
-- A password change (date_password_last_updated moves), a disable or an expiry ends the user's sessions and
-- revokes their tokens. The session the change comes from may be kept: the server names it in the transaction
-- setting `bastion.keep_session` (a user changing their own password stays logged in). Deleting a user cascades.
create or replace function end_user_sessions() returns trigger language plpgsql as $$
begin
  if new.date_password_last_updated is distinct from old.date_password_last_updated
     or (old.is_active and not new.is_active)
     or (new.date_expired is distinct from old.date_expired and new.date_expired is not null and new.date_expired <= now()) then
    delete from sessions where user_id = new.id
      and id is distinct from nullif(current_setting('bastion.keep_session', true), '');
    delete from auth_tokens where user_id = new.id;
  end if;
  return new;
end $$;

create trigger users_end_sessions after update of date_password_last_updated, is_active, date_expired on users
  for each row execute function end_user_sessions();

create index if not exists sessions_user_idx on sessions (user_id);
