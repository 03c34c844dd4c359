-- Auth: previous password hashes (OLD_PASSWORD_HISTORY_LIMIT_COUNT). PostgreSQL 15 subset.
create table password_history (
  id uuid primary key,
  user_id uuid not null references users(id) on delete cascade,
  password_hash text not null,
  date_created timestamptz not null default now()
);
create index password_history_user_idx on password_history (user_id, date_created desc);
