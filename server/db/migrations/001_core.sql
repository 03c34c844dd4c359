-- Core schema: organizations, users, RBAC, sessions, settings, audit trail, site messages.
-- PostgreSQL 15 subset (PGlite runs PostgreSQL 18; keep to what 15 understands).

create table organizations (
  id uuid primary key,
  name varchar(128) not null unique,
  comment text not null default '',
  builtin boolean not null default false,
  created_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);

create table users (
  id uuid primary key,
  name varchar(128) not null,
  username varchar(128) not null unique,
  email varchar(128) not null unique,
  password_hash text not null default '',
  public_key text not null default '',
  wechat varchar(128) not null default '',
  phone varchar(128),
  mfa_level smallint not null default 0,
  otp_secret text not null default '',
  otp_last_counter bigint not null default 0,
  source varchar(30) not null default 'local',
  wecom_id varchar(128),
  dingtalk_id varchar(128),
  feishu_id varchar(128),
  comment text not null default '',
  date_expired timestamptz,
  date_joined timestamptz not null default now(),
  last_login timestamptz,
  date_updated timestamptz not null default now(),
  date_password_last_updated timestamptz,
  is_service_account boolean not null default false,
  is_active boolean not null default true,
  need_update_password boolean not null default false,
  is_first_login boolean not null default true,
  created_by varchar(128) not null default '',
  updated_by varchar(128) not null default ''
);
create index users_name_idx on users (lower(name));

create table roles (
  id uuid primary key,
  name varchar(128) not null,
  scope varchar(10) not null,
  builtin boolean not null default false,
  comment text not null default '',
  created_by varchar(128) not null default '',
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  unique (name, scope)
);

create table role_permissions (
  role_id uuid not null references roles(id) on delete cascade,
  codename varchar(200) not null,
  primary key (role_id, codename)
);

create table role_bindings (
  id uuid primary key,
  user_id uuid not null references users(id) on delete cascade,
  role_id uuid not null references roles(id) on delete cascade,
  scope varchar(10) not null,
  org_id uuid references organizations(id) on delete cascade,
  created_by varchar(128) not null default '',
  date_created timestamptz not null default now()
);
create unique index role_bindings_system_uq on role_bindings (user_id, role_id) where org_id is null;
create unique index role_bindings_org_uq on role_bindings (user_id, role_id, org_id) where org_id is not null;
create index role_bindings_org_idx on role_bindings (org_id);

create table sessions (
  id varchar(64) primary key,
  user_id uuid references users(id) on delete cascade,
  data jsonb not null default '{}'::jsonb,
  date_created timestamptz not null default now(),
  expires_at timestamptz not null
);
create index sessions_expires_idx on sessions (expires_at);

create table auth_tokens (
  key varchar(128) primary key,
  user_id uuid not null references users(id) on delete cascade,
  date_created timestamptz not null default now(),
  date_expired timestamptz not null
);

create table settings (
  name varchar(128) primary key,
  value jsonb,
  category varchar(128) not null default 'default',
  encrypted boolean not null default false,
  date_updated timestamptz not null default now()
);

create table login_failures (
  key varchar(300) primary key,
  count integer not null default 0,
  first_at timestamptz not null default now(),
  blocked_until timestamptz
);

create table login_logs (
  id uuid primary key,
  username varchar(128) not null default '',
  type varchar(2) not null default 'W',
  ip varchar(128) not null default '',
  city varchar(254) not null default '',
  user_agent varchar(254) not null default '',
  mfa smallint not null default 2,
  reason varchar(128) not null default '',
  backend varchar(32) not null default '',
  status boolean not null default true,
  datetime timestamptz not null default now()
);
create index login_logs_datetime_idx on login_logs (datetime desc);

create table operate_logs (
  id uuid primary key,
  "user" varchar(128) not null default '',
  action varchar(16) not null,
  resource_type varchar(64) not null default '',
  resource varchar(128) not null default '',
  resource_id varchar(64) not null default '',
  remote_addr varchar(128) not null default '',
  datetime timestamptz not null default now(),
  org_id uuid,
  diff jsonb
);
create index operate_logs_resource_idx on operate_logs (resource_id, datetime desc);
create index operate_logs_datetime_idx on operate_logs (datetime desc);

create table activity_logs (
  id uuid primary key,
  type varchar(2) not null,
  resource_id varchar(64) not null,
  datetime timestamptz not null default now(),
  detail text not null default '',
  detail_id varchar(64),
  detail_url varchar(256) not null default '',
  org_id uuid
);
create index activity_logs_resource_idx on activity_logs (resource_id, datetime desc);

create table password_change_logs (
  id uuid primary key,
  "user" varchar(128) not null,
  change_by varchar(128) not null,
  remote_addr varchar(128) not null default '',
  datetime timestamptz not null default now()
);

create table site_messages (
  id uuid primary key,
  subject varchar(1024) not null,
  message text not null default '',
  sender_id uuid references users(id) on delete set null,
  is_broadcast boolean not null default false,
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now()
);

create table site_message_users (
  id uuid primary key,
  message_id uuid not null references site_messages(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  has_read boolean not null default false,
  read_at timestamptz,
  date_created timestamptz not null default now(),
  unique (message_id, user_id)
);
create index site_message_users_user_idx on site_message_users (user_id, has_read);

create table resource_cache (
  id uuid primary key,
  ids jsonb not null,
  expires_at timestamptz not null
);
