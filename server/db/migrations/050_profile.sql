-- The profile area (issue 34; docs/api-auth.md "Profile"): temporary passwords for the terminal components' login,
-- and each user's preferences by category (lina, luna, koko) as JumpServer's users.Preference rows.
alter table access_keys add column if not exists date_updated timestamptz not null default now();

-- JumpServer's authentication.TempToken: a one-time password valid 300 s. The secret is kept as its SHA-256 only.
create table temp_tokens (
  id uuid primary key,
  user_id uuid not null references users(id) on delete cascade,
  username varchar(128) not null,
  secret varchar(64) not null,
  verified boolean not null default false,
  date_verified timestamptz,
  date_expired timestamptz not null,
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);
create index temp_tokens_user_idx on temp_tokens (user_id, date_created desc);
create index temp_tokens_username_idx on temp_tokens (username) where not verified;

create table user_preferences (
  user_id uuid not null references users(id) on delete cascade,
  category varchar(128) not null,
  name varchar(128) not null,
  value jsonb not null,
  date_updated timestamptz not null default now(),
  primary key (user_id, category, name)
);

-- The SSH gateway finds a user by the key a client offers (server/startup/ssh-key.ts userByPublicKey).
create index users_public_key_blob_idx on users (split_part(public_key, ' ', 2)) where public_key <> '';
