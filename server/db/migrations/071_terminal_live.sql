-- Live sessions of the built-in terminal across server processes (issue 31, docs/terminal.md "Live sessions").
-- One row per open session of a built-in terminal process: which process holds its SSH connection, until when its
-- lease runs (renewed by the holder; a row whose lease has expired belongs to a process that died, and any process
-- then finishes the session with a reason and keeps its recording so far), and the permission's actions (bits) so
-- any process can answer the share checks. Monitor, terminate and join requests that land on another process reach
-- the holder through LISTEN/NOTIFY (channel terminal_live; output on one channel per watched session).
create table terminal_live_sessions (
  session_id uuid primary key references terminal_sessions(id) on delete cascade,
  process varchar(128) not null,
  lease_until timestamptz not null,
  actions integer not null default 0,
  user_id uuid,
  replay_temp varchar(512) not null default '',
  date_created timestamptz not null default now()
);
create index terminal_live_sessions_lease_idx on terminal_live_sessions (lease_until);
create index terminal_live_sessions_process_idx on terminal_live_sessions (process);
