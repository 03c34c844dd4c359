-- Images of the image settings (interface logos, favicon, OAuth2 logo; server/settings/images.ts, issue 13):
-- the current image of each setting, named by a hash of its content. The setting itself stores the image's URL.
create table if not exists setting_images (
  name varchar(128) primary key,
  file varchar(64) not null,
  content_type varchar(64) not null,
  data bytea not null,
  date_created timestamptz not null default now()
);
