-- Message subscription (JumpServer's notifications.SystemMsgSubscription): per system message type, the channels
-- it goes out on and its receivers (users and user groups). A type without a row has no receivers
-- (server/notifications, docs/settings.md).
create table system_msg_subscriptions (
  message_type varchar(128) primary key,
  receive_backends jsonb not null default '["site_msg"]'::jsonb,
  date_updated timestamptz not null default now()
);

create table system_msg_subscription_users (
  message_type varchar(128) not null references system_msg_subscriptions(message_type) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  primary key (message_type, user_id)
);

create table system_msg_subscription_groups (
  message_type varchar(128) not null references system_msg_subscriptions(message_type) on delete cascade,
  usergroup_id uuid not null references user_groups(id) on delete cascade,
  primary key (message_type, usergroup_id)
);
