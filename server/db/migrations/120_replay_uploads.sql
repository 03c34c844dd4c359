-- Replays kept in a replay storage of Settings → Terminal (docs/terminal.md "Replay storages"): a finished
-- recording is stored locally first (DATA_DIR/replays/<day>/<session>.cast.gz) and, when the default replay
-- storage is S3-compatible (s3, ceph, oss, obs, cos), uploaded there under the same relative path (JumpServer's
-- object key). The local copy is removed only once the upload has succeeded; a failed upload is tried again later
-- (backing off). `replay_storage_id` names the storage holding a session's replay (null: the local store).
alter table terminal_sessions add column replay_storage_id uuid references replay_storages(id) on delete set null;

create table replay_uploads (
  session_id uuid primary key references terminal_sessions(id) on delete cascade,
  storage_id uuid not null references replay_storages(id) on delete cascade,
  attempts integer not null default 0,
  next_attempt timestamptz not null default now(),
  last_error text not null default '',
  date_created timestamptz not null default now()
);
create index replay_uploads_due_idx on replay_uploads (next_attempt);
