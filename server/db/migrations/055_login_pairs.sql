-- Issue 36 point 8: login failures are counted per (username, address) pair, not per username; the username of a
-- pair's row is kept so "is this user blocked anywhere" and an administrator's unblock find every pair.
alter table login_failures add column username varchar(300);
create index login_failures_username_idx on login_failures (username) where username is not null;
-- The per-username counters are replaced by the pairs.
delete from login_failures where key like 'user:%';
