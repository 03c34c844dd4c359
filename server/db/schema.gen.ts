/**
 * The database's tables and columns, generated from server/db/migrations by `npm run db:types` (kysely-codegen
 * over a migrated in-memory PGlite; server/db/types.ts). Do not edit: add a migration and regenerate.
 * server/db/schema.test.ts fails when this file is stale.
 */
import type { ColumnType } from "kysely";

export type Generated<T> = T extends ColumnType<infer S, infer I, infer U>
  ? ColumnType<S, I | undefined, U>
  : ColumnType<T, T | undefined, T>;

export type Json = JsonValue;

export type JsonArray = JsonValue[];

export type JsonObject = {
  [x: string]: JsonValue | undefined;
};

export type JsonPrimitive = boolean | number | string | null;

export type JsonValue = JsonArray | JsonObject | JsonPrimitive;

export type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface AccessKeys {
  date_created: Generated<Timestamp>;
  date_last_used: Timestamp | null;
  date_updated: Generated<Timestamp>;
  id: string;
  is_active: Generated<boolean>;
  secret: string;
  user_id: string;
}

export interface AccountAutomationAssets {
  asset_id: string;
  automation_id: string;
  id: Generated<number>;
}

export interface AccountAutomationExecutions {
  artifact: Uint8Array | null;
  artifact_name: Generated<string>;
  automation_id: string;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_finished: Timestamp | null;
  date_start: Timestamp | null;
  id: string;
  org_id: string;
  reason: Generated<string>;
  recipients: Generated<Json>;
  snapshot: Generated<Json>;
  status: Generated<string>;
  summary: Generated<Json>;
  task_id: string | null;
  trigger: Generated<string>;
  type: string;
}

export interface AccountAutomationNodes {
  automation_id: string;
  id: Generated<number>;
  node_id: string;
}

export interface AccountAutomationRecipients {
  automation_id: string;
  id: Generated<number>;
  user_id: string;
}

export interface AccountAutomationRecords {
  account_id: string | null;
  asset_id: string | null;
  asset_name: Generated<string>;
  date_finished: Timestamp | null;
  date_started: Timestamp | null;
  error: Generated<string>;
  execution_id: string;
  id: string;
  is_success: Generated<boolean>;
  pending_passphrase: Generated<string>;
  pending_secret: Generated<string>;
  secret_state: Generated<string>;
  secret_type: Generated<string>;
  status: Generated<string>;
  username: Generated<string>;
}

export interface AccountAutomations {
  accounts: Generated<Json>;
  comment: Generated<string>;
  created_by: Generated<string>;
  crontab: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  interval: number | null;
  is_active: Generated<boolean>;
  is_periodic: Generated<boolean>;
  is_sync_account: Generated<boolean>;
  name: string;
  org_id: string;
  params: Generated<Json>;
  passphrase: Generated<string>;
  password_rules: Generated<Json>;
  secret: Generated<string>;
  secret_strategy: Generated<string>;
  secret_type: Generated<string>;
  ssh_key_change_strategy: Generated<string>;
  type: string;
  types: Generated<Json>;
  updated_by: Generated<string>;
  zip_encrypt_password: Generated<string>;
}

export interface Accounts {
  asset_id: string;
  comment: Generated<string>;
  connectivity: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  date_verified: Timestamp | null;
  id: string;
  is_active: Generated<boolean>;
  name: string;
  org_id: string;
  params: Generated<Json>;
  passphrase: Generated<string>;
  privileged: Generated<boolean>;
  secret: Generated<string>;
  secret_type: Generated<string>;
  source: Generated<string>;
  source_id: Generated<string>;
  su_from_id: string | null;
  updated_by: Generated<string>;
  username: string;
  version: Generated<number>;
}

export interface AccountSecretHistories {
  account_id: string;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  id: string;
  secret: Generated<string>;
  secret_type: string;
  version: number;
}

export interface AccountTemplates {
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  is_active: Generated<boolean>;
  name: string;
  org_id: string;
  passphrase: Generated<string>;
  privileged: Generated<boolean>;
  secret: Generated<string>;
  secret_type: Generated<string>;
  updated_by: Generated<string>;
  username: Generated<string>;
}

export interface ActivityLogs {
  datetime: Generated<Timestamp>;
  detail: Generated<string>;
  detail_id: string | null;
  detail_url: Generated<string>;
  id: string;
  org_id: string | null;
  resource_id: string;
  type: string;
}

export interface AppletHostDeployments {
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_finished: Timestamp | null;
  date_start: Timestamp | null;
  date_updated: Generated<Timestamp>;
  host_id: string;
  id: string;
  initial: Generated<boolean>;
  status: Generated<string>;
  task: string | null;
}

export interface AppletHosts {
  accounts_create_amount: Generated<number>;
  asset_id: string;
  auto_create_accounts: Generated<boolean>;
  date_inited: Timestamp | null;
  date_synced: Timestamp | null;
  deploy_options: Generated<Json>;
  inited: Generated<boolean>;
  terminal_id: string | null;
  using_same_account: Generated<boolean>;
}

export interface AppletPublications {
  applet_id: string;
  comment: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  host_id: string;
  id: string;
  status: Generated<string>;
}

export interface Applets {
  author: Generated<string>;
  builtin: Generated<boolean>;
  can_concurrent: Generated<boolean>;
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  display_name: Generated<string>;
  icon: Uint8Array | null;
  icon_type: Generated<string>;
  id: string;
  is_active: Generated<boolean>;
  manifest: Generated<Json>;
  name: string;
  protocols: Generated<Json>;
  readme: Generated<string>;
  tags: Generated<Json>;
  type: Generated<string>;
  updated_by: Generated<string>;
  version: Generated<string>;
}

export interface AssetHostKeys {
  asset_id: string;
  date_created: Generated<Timestamp>;
  fingerprint: string;
  key_type: Generated<string>;
  port: number;
}

export interface AssetLabels {
  asset_id: string;
  id: Generated<number>;
  label_id: string;
}

export interface AssetNodes {
  asset_id: string;
  id: Generated<number>;
  node_id: string;
  node_path: Generated<string>;
}

export interface AssetPermissionAssets {
  asset_id: string;
  assetpermission_id: string;
  id: Generated<number>;
}

export interface AssetPermissionNodes {
  assetpermission_id: string;
  id: Generated<number>;
  node_id: string;
}

export interface AssetPermissions {
  accounts: Generated<Json>;
  actions: Generated<number>;
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_expired: Generated<Timestamp>;
  date_start: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  from_ticket: Generated<boolean>;
  id: string;
  is_active: Generated<boolean>;
  name: string;
  org_id: string;
  protocols: Generated<Json>;
  updated_by: Generated<string>;
}

export interface AssetPermissionUserGroups {
  assetpermission_id: string;
  id: Generated<number>;
  usergroup_id: string;
}

export interface AssetPermissionUsers {
  assetpermission_id: string;
  id: Generated<number>;
  user_id: string;
}

export interface AssetProtocols {
  asset_id: string;
  id: Generated<number>;
  name: string;
  port: number;
}

export interface Assets {
  address: string;
  allow_invalid_cert: Generated<boolean>;
  autofill: Generated<string>;
  ca_cert: Generated<string>;
  category: string;
  client_cert: Generated<string>;
  client_key: Generated<string>;
  comment: Generated<string>;
  connectivity: Generated<string>;
  created_by: Generated<string>;
  custom_info: Generated<Json>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  date_verified: Timestamp | null;
  db_name: Generated<string>;
  domain_id: string | null;
  gathered_info: Generated<Json>;
  id: string;
  is_active: Generated<boolean>;
  name: string;
  org_id: string;
  password_selector: Generated<string>;
  platform_id: number;
  script: Generated<Json>;
  submit_selector: Generated<string>;
  type: string;
  updated_by: Generated<string>;
  use_ssl: Generated<boolean>;
  username_selector: Generated<string>;
}

export interface AuthTokens {
  date_created: Generated<Timestamp>;
  date_expired: Timestamp;
  key: string;
  user_id: string;
}

export interface CeleryTasks {
  crontab: Generated<string>;
  date_last_publish: Timestamp | null;
  enabled: Generated<boolean>;
  id: string;
  interval: number | null;
  name: string;
  next_run_at: Timestamp | null;
}

export interface CloudAccounts {
  attrs: Generated<Json>;
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  name: string;
  org_id: string;
  provider: string;
  secret_attrs: Generated<string>;
  updated_by: Generated<string>;
  validity: Generated<boolean>;
}

export interface CloudInstances {
  asset_id: string | null;
  asset_ip: Generated<string>;
  date_sync: Generated<Timestamp>;
  id: string;
  instance_id: string;
  org_id: string;
  region: Generated<string>;
  status: Generated<number>;
  task_id: string;
}

export interface CloudSyncExecutions {
  celery_task_id: string | null;
  date_sync: Generated<Timestamp>;
  id: string;
  org_id: string;
  reason: Generated<string>;
  status: Generated<number>;
  summary: Generated<Json>;
  task_id: string;
}

export interface CloudSyncTasks {
  account_id: string;
  comment: Generated<string>;
  created_by: Generated<string>;
  crontab: Generated<string>;
  date_created: Generated<Timestamp>;
  date_last_sync: Timestamp | null;
  date_updated: Generated<Timestamp>;
  hostname_strategy: Generated<string>;
  id: string;
  interval: number | null;
  ip_network_segment_group: Generated<Json>;
  is_always_update: Generated<boolean>;
  is_periodic: Generated<boolean>;
  name: string;
  node_id: string;
  org_id: string;
  platform_account: Generated<Json>;
  protocols: Generated<Json>;
  regions: Generated<Json>;
  release_assets: Generated<boolean>;
  sync_ip_type: Generated<number>;
  updated_by: Generated<string>;
}

export interface CommandFilterAclGroups {
  acl_id: string;
  commandgroup_id: string;
  id: Generated<number>;
}

export interface CommandFilterAclReviewers {
  acl_id: string;
  id: Generated<number>;
  user_id: string;
}

export interface CommandFilterAcls {
  accounts: Generated<Json>;
  action: Generated<string>;
  assets: Generated<Json>;
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  is_active: Generated<boolean>;
  name: string;
  org_id: string;
  priority: Generated<number>;
  updated_by: Generated<string>;
  users: Generated<Json>;
}

export interface CommandGroups {
  comment: Generated<string>;
  content: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  ignore_case: Generated<boolean>;
  name: string;
  org_id: string;
  type: Generated<string>;
  updated_by: Generated<string>;
}

export interface Commands {
  account: Generated<string>;
  asset: Generated<string>;
  datetime: Generated<Timestamp | null>;
  id: string;
  input: Generated<string>;
  org_id: string;
  output: Generated<string>;
  remote_addr: Generated<string>;
  risk_level: Generated<number>;
  search_text: Generated<string | null>;
  session: Generated<string>;
  timestamp: number;
  user: Generated<string>;
}

export interface CommandStorages {
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  is_default: Generated<boolean>;
  meta: Generated<Json>;
  name: string;
  type: Generated<string>;
  updated_by: Generated<string>;
}

export interface ConnectionTokens {
  account: Generated<string>;
  actions: Generated<number>;
  asset_id: string | null;
  connect_method: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_expired: Timestamp;
  date_updated: Generated<Timestamp>;
  from_ticket_id: string | null;
  id: string;
  input_secret: Generated<string>;
  input_username: Generated<string>;
  is_active: Generated<boolean>;
  is_reusable: Generated<boolean>;
  org_id: string;
  protocol: Generated<string>;
  updated_by: Generated<string>;
  user_id: string;
  value: string;
}

export interface DayCounts {
  computed: Generated<Timestamp>;
  day: Timestamp;
  gen: number;
  n: number;
  sig: string;
  tbl: string;
}

export interface DayCountTables {
  col: string;
  tbl: string;
}

export interface DayGenerations {
  day: Timestamp;
  gen: number;
  tbl: string;
}

export interface Domains {
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  name: string;
  org_id: string;
  updated_by: Generated<string>;
}

export interface EndpointRules {
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  endpoint_id: string | null;
  id: string;
  ip_group: Generated<Json>;
  name: string;
  priority: number;
  updated_by: Generated<string>;
}

export interface Endpoints {
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  host: Generated<string>;
  http_port: Generated<number>;
  https_port: Generated<number>;
  id: string;
  mariadb_port: Generated<number>;
  mysql_port: Generated<number>;
  name: string;
  postgresql_port: Generated<number>;
  rdp_port: Generated<number>;
  redis_port: Generated<number>;
  ssh_port: Generated<number>;
  updated_by: Generated<string>;
}

export interface FavoriteAssets {
  asset_id: string;
  date_created: Generated<Timestamp>;
  id: string;
  org_id: string | null;
  user_id: string;
}

export interface FtpLogs {
  account: Generated<string>;
  asset: Generated<string>;
  date_start: Generated<Timestamp>;
  filename: Generated<string>;
  id: string;
  is_success: Generated<boolean>;
  operate: string;
  org_id: string;
  remote_addr: Generated<string>;
  session: Generated<string>;
  user: Generated<string>;
}

export interface GatheredAccounts {
  address_last_login: Generated<string>;
  asset_id: string;
  date_created: Generated<Timestamp>;
  date_last_login: Timestamp | null;
  date_updated: Generated<Timestamp>;
  id: string;
  org_id: string;
  present: Generated<boolean>;
  shell: Generated<string>;
  sudo: Generated<boolean>;
  uid: number | null;
  username: string;
}

export interface Labels {
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  is_active: Generated<boolean>;
  name: string;
  org_id: string;
  updated_by: Generated<string>;
  value: string;
}

export interface LoginAclReviewers {
  acl_id: string;
  id: Generated<number>;
  user_id: string;
}

export interface LoginAcls {
  action: Generated<string>;
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  is_active: Generated<boolean>;
  name: string;
  priority: Generated<number>;
  rules: Generated<Json>;
  updated_by: Generated<string>;
  user_id: string;
}

export interface LoginAssetAclReviewers {
  acl_id: string;
  id: Generated<number>;
  user_id: string;
}

export interface LoginAssetAcls {
  accounts: Generated<Json>;
  action: Generated<string>;
  assets: Generated<Json>;
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  is_active: Generated<boolean>;
  name: string;
  org_id: string;
  priority: Generated<number>;
  rules: Generated<Json>;
  updated_by: Generated<string>;
  users: Generated<Json>;
}

export interface LoginFailures {
  blocked_until: Timestamp | null;
  count: Generated<number>;
  first_at: Generated<Timestamp>;
  key: string;
  username: string | null;
}

export interface LoginLogs {
  backend: Generated<string>;
  city: Generated<string>;
  datetime: Generated<Timestamp>;
  id: string;
  ip: Generated<string>;
  mfa: Generated<number>;
  reason: Generated<string>;
  status: Generated<boolean>;
  type: Generated<string>;
  user_agent: Generated<string>;
  username: Generated<string>;
}

export interface Nodes {
  child_mark: Generated<number>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  full_value: Generated<string>;
  id: string;
  key: string;
  members_amount: number | null;
  members_version: Generated<number>;
  org_id: string;
  parent_key: Generated<string>;
  value: string;
}

export interface OperateLogs {
  action: string;
  datetime: Generated<Timestamp>;
  diff: Json | null;
  id: string;
  org_id: string | null;
  remote_addr: Generated<string>;
  resource: Generated<string>;
  resource_id: Generated<string>;
  resource_type: Generated<string>;
  user: Generated<string>;
}

export interface OpsAdhocs {
  args: Generated<string>;
  comment: Generated<string>;
  created_by: Generated<string>;
  creator_id: string;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  module: Generated<string>;
  name: string;
  org_id: string;
}

export interface OpsJobExecutions {
  asset_results: Generated<Json>;
  created_by: Generated<string>;
  creator_id: string;
  date_created: Generated<Timestamp>;
  date_finished: Timestamp | null;
  date_start: Timestamp | null;
  id: string;
  job_id: string;
  job_type: Generated<string>;
  job_version: Generated<number>;
  material: Generated<string>;
  org_id: string;
  parameters: Generated<Json>;
  result: Generated<Json>;
  status: Generated<string>;
  summary: Generated<Json>;
  task_id: string;
}

export interface OpsJobs {
  args: Generated<string>;
  assets: Generated<Json>;
  chdir: Generated<string>;
  comment: Generated<string>;
  created_by: Generated<string>;
  creator_id: string;
  crontab: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  instant: Generated<boolean>;
  interval: number | null;
  is_periodic: Generated<boolean>;
  module: Generated<string>;
  name: string;
  nodes: Generated<Json>;
  org_id: string;
  parameters_define: Generated<Json>;
  playbook_id: string | null;
  runas: Generated<string>;
  runas_policy: Generated<string>;
  timeout: Generated<number>;
  type: Generated<string>;
  use_parameter_define: Generated<boolean>;
  version: Generated<number>;
}

export interface OpsJobVersions {
  created_by: Generated<string>;
  data: Json;
  date_created: Generated<Timestamp>;
  job_id: string;
  version: number;
}

export interface OpsPlaybooks {
  comment: Generated<string>;
  create_method: Generated<string>;
  created_by: Generated<string>;
  creator_id: string;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  name: string;
  org_id: string;
  vcs_url: Generated<string>;
}

export interface Organizations {
  builtin: Generated<boolean>;
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  name: string;
}

export interface PasswordChangeLogs {
  change_by: string;
  datetime: Generated<Timestamp>;
  id: string;
  remote_addr: Generated<string>;
  user: string;
}

export interface PasswordHistory {
  date_created: Generated<Timestamp>;
  id: string;
  password_hash: string;
  user_id: string;
}

export interface PasswordResetTokens {
  date_created: Generated<Timestamp>;
  expires_at: Timestamp;
  token: string;
  user_id: string;
}

export interface PermEpoch {
  id: number;
  value: number;
}

export interface PermOrgEpoch {
  org_id: string;
  value: number;
}

export interface PermUserAssets {
  actions: number;
  asset_id: string;
  org_id: string;
  user_id: string;
}

export interface PermUserCache {
  assets_amount: number | null;
  date_built: Generated<Timestamp>;
  epoch: number;
  org_epoch: Generated<number>;
  org_id: string;
  user_epoch: Generated<number>;
  user_id: string;
  valid_until: Timestamp | null;
}

export interface PermUserEpoch {
  user_id: string;
  value: number;
}

export interface PermUserNodes {
  assets_amount: number;
  key: string;
  node_id: string;
  org_id: string;
  parent_key: string;
  user_id: string;
}

export interface PlatformProtocols {
  default: Generated<boolean>;
  id: Generated<number>;
  name: string;
  platform_id: number;
  port: number;
  primary: Generated<boolean>;
  public: Generated<boolean>;
  required: Generated<boolean>;
  setting: Generated<Json>;
}

export interface Platforms {
  automation: Generated<Json>;
  category: string;
  charset: Generated<string>;
  comment: Generated<string>;
  created_by: Generated<string>;
  custom_fields: Generated<Json>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  domain_enabled: Generated<boolean>;
  id: Generated<number>;
  internal: Generated<boolean>;
  name: string;
  su_enabled: Generated<boolean>;
  su_method: string | null;
  type: string;
  updated_by: Generated<string>;
}

export interface ReplayStorages {
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  is_default: Generated<boolean>;
  meta: Generated<Json>;
  name: string;
  type: Generated<string>;
  updated_by: Generated<string>;
}

export interface ReplayUploads {
  attempts: Generated<number>;
  date_created: Generated<Timestamp>;
  last_error: Generated<string>;
  next_attempt: Generated<Timestamp>;
  session_id: string;
  storage_id: string;
}

export interface ResourceCache {
  expires_at: Timestamp;
  id: string;
  ids: Json;
}

export interface RoleBindings {
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  id: string;
  org_id: string | null;
  role_id: string;
  scope: string;
  user_id: string;
}

export interface RolePermissions {
  codename: string;
  role_id: string;
}

export interface Roles {
  builtin: Generated<boolean>;
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  name: string;
  scope: string;
  updated_by: Generated<string>;
}

export interface RowCounts {
  n: Generated<number>;
  org_id: string;
  tbl: string;
}

export interface RowCountTables {
  tbl: string;
}

export interface SchemaMigrations {
  applied_at: Generated<Timestamp>;
  name: string;
}

export interface SessionJoinRecords {
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_joined: Generated<Timestamp>;
  date_left: Timestamp | null;
  date_updated: Generated<Timestamp>;
  id: string;
  is_finished: Generated<boolean>;
  is_success: Generated<boolean>;
  joiner_id: string | null;
  login_from: Generated<string>;
  org_id: string;
  reason: Generated<string | null>;
  remote_addr: string | null;
  session_id: string;
  sharing_id: string;
  verify_code: string;
}

export interface Sessions {
  data: Generated<Json>;
  date_created: Generated<Timestamp>;
  expires_at: Timestamp;
  id: string;
  user_id: string | null;
}

export interface SessionSharings {
  action_permission: Generated<string>;
  created_by: Generated<string>;
  creator_id: string | null;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  expired_time: Generated<number>;
  id: string;
  is_active: Generated<boolean>;
  org_id: string;
  session_id: string;
  users: Generated<string>;
  verify_code: string;
}

export interface SettingImages {
  content_type: string;
  data: Uint8Array;
  date_created: Generated<Timestamp>;
  file: string;
  name: string;
}

export interface Settings {
  category: Generated<string>;
  date_updated: Generated<Timestamp>;
  encrypted: Generated<boolean>;
  name: string;
  value: Json | null;
}

export interface SiteMessages {
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  is_broadcast: Generated<boolean>;
  message: Generated<string>;
  sender_id: string | null;
  subject: string;
}

export interface SiteMessageUsers {
  date_created: Generated<Timestamp>;
  has_read: Generated<boolean>;
  id: string;
  message_id: string;
  read_at: Timestamp | null;
  user_id: string;
}

export interface SystemMsgSubscriptionGroups {
  message_type: string;
  usergroup_id: string;
}

export interface SystemMsgSubscriptions {
  date_updated: Generated<Timestamp>;
  message_type: string;
  receive_backends: Generated<Json>;
}

export interface SystemMsgSubscriptionUsers {
  message_type: string;
  user_id: string;
}

export interface TaskExecutions {
  args: Generated<Json>;
  creator: Generated<string>;
  creator_id: string | null;
  date_finished: Timestamp | null;
  date_published: Generated<Timestamp>;
  date_start: Timestamp | null;
  id: string;
  kwargs: Generated<Json>;
  lang: Generated<string>;
  lease_until: Timestamp | null;
  reason: Generated<string>;
  result: Json | null;
  state: Generated<string>;
  task_name: string;
  worker: Generated<string>;
}

export interface TaskLogChunks {
  data: string;
  execution_id: string;
  id: Generated<number>;
}

export interface TempTokens {
  date_created: Generated<Timestamp>;
  date_expired: Timestamp;
  date_updated: Generated<Timestamp>;
  date_verified: Timestamp | null;
  id: string;
  secret: string;
  user_id: string;
  username: string;
  verified: Generated<boolean>;
}

export interface TerminalLiveSessions {
  actions: Generated<number>;
  date_created: Generated<Timestamp>;
  lease_until: Timestamp;
  process: string;
  replay_temp: Generated<string>;
  session_id: string;
  user_id: string | null;
}

export interface Terminals {
  command_storage: Generated<string>;
  comment: Generated<string>;
  date_created: Generated<Timestamp>;
  date_stat: Timestamp | null;
  id: string;
  is_deleted: Generated<boolean>;
  name: string;
  remote_addr: Generated<string>;
  replay_storage: Generated<string>;
  stat: Json | null;
  type: Generated<string>;
  user_id: string | null;
}

export interface TerminalSessions {
  account: Generated<string>;
  account_id: Generated<string>;
  asset: Generated<string>;
  asset_id: Generated<string>;
  comment: Generated<string>;
  date_end: Timestamp | null;
  date_last_active: Timestamp | null;
  date_start: Generated<Timestamp>;
  has_replay: Generated<boolean>;
  id: string;
  is_finished: Generated<boolean>;
  is_success: Generated<boolean>;
  login_from: Generated<string>;
  org_id: string;
  protocol: Generated<string>;
  remote_addr: Generated<string>;
  replay_path: string | null;
  replay_size: number | null;
  replay_storage_id: string | null;
  terminal_id: string | null;
  type: Generated<string>;
  user: Generated<string>;
  user_id: Generated<string>;
}

export interface TerminalTasks {
  args: Generated<string>;
  date_created: Generated<Timestamp>;
  date_finished: Timestamp | null;
  id: string;
  is_finished: Generated<boolean>;
  kwargs: Generated<Json>;
  name: string;
  terminal_id: string;
}

export interface TicketApplyAssets {
  asset_id: string;
  ticket_id: string;
}

export interface TicketApplyNodes {
  node_id: string;
  ticket_id: string;
}

export interface TicketApproveTokens {
  date_expired: Timestamp;
  date_used: Timestamp | null;
  level: number;
  ticket_id: string;
  token_hash: string;
  user_id: string;
}

export interface TicketAssignees {
  date_updated: Generated<Timestamp>;
  id: string;
  level: number;
  state: Generated<string>;
  step_id: string;
  ticket_id: string;
  user_id: string;
}

export interface TicketComments {
  body: string;
  date_created: Generated<Timestamp>;
  id: string;
  ticket_id: string;
  type: Generated<string>;
  user_display: Generated<string>;
  user_id: string | null;
}

export interface TicketFlows {
  approval_level: Generated<number>;
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  org_id: string;
  rules: Generated<Json>;
  type: string;
  updated_by: Generated<string>;
}

export interface Tickets {
  applicant_display: Generated<string>;
  applicant_id: string | null;
  apply_accounts: Json | null;
  apply_actions: number | null;
  apply_date_expired: Timestamp | null;
  apply_date_start: Timestamp | null;
  apply_from_cmd_filter_acl_id: string | null;
  apply_from_session_id: string | null;
  apply_login_account: string | null;
  apply_login_asset_id: string | null;
  apply_login_city: string | null;
  apply_login_datetime: Timestamp | null;
  apply_login_ip: string | null;
  apply_login_user_id: string | null;
  apply_permission_name: string | null;
  apply_run_account: string | null;
  apply_run_asset: string | null;
  apply_run_command: string | null;
  apply_run_user_id: string | null;
  approval_step: Generated<number>;
  comment: Generated<string>;
  created_by: Generated<string>;
  current_assignees: Generated<string[]>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  flow_id: string | null;
  id: string;
  org_id: string;
  participants: Generated<string[]>;
  rel_snapshot: Generated<Json>;
  serial_num: string | null;
  state: Generated<string>;
  status: Generated<string>;
  title: string;
  type: string;
  updated_by: Generated<string>;
}

export interface TicketSerials {
  day: string;
  n: number;
}

export interface TicketSessions {
  id: string;
  session_id: string;
  ticket_id: string;
}

export interface TicketSteps {
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  level: number;
  state: Generated<string>;
  status: Generated<string>;
  ticket_id: string;
}

export interface UserGroupMembers {
  id: Generated<number>;
  user_id: string;
  usergroup_id: string;
}

export interface UserGroups {
  comment: Generated<string>;
  created_by: Generated<string>;
  date_created: Generated<Timestamp>;
  date_updated: Generated<Timestamp>;
  id: string;
  name: string;
  org_id: string;
}

export interface UserPreferences {
  category: string;
  date_updated: Generated<Timestamp>;
  name: string;
  user_id: string;
  value: Json;
}

export interface Users {
  comment: Generated<string>;
  created_by: Generated<string>;
  date_expired: Timestamp | null;
  date_joined: Generated<Timestamp>;
  date_password_last_updated: Timestamp | null;
  date_updated: Generated<Timestamp>;
  dingtalk_id: string | null;
  email: string;
  feishu_id: string | null;
  id: string;
  is_active: Generated<boolean>;
  is_first_login: Generated<boolean>;
  is_service_account: Generated<boolean>;
  last_login: Timestamp | null;
  mfa_level: Generated<number>;
  name: string;
  need_update_password: Generated<boolean>;
  org_ids: Generated<string[]>;
  otp_last_counter: Generated<number>;
  otp_secret: Generated<string>;
  password_hash: Generated<string>;
  phone: string | null;
  public_key: Generated<string>;
  source: Generated<string>;
  updated_by: Generated<string>;
  username: string;
  wechat: Generated<string>;
  wecom_id: string | null;
}

export interface DB {
  access_keys: AccessKeys;
  account_automation_assets: AccountAutomationAssets;
  account_automation_executions: AccountAutomationExecutions;
  account_automation_nodes: AccountAutomationNodes;
  account_automation_recipients: AccountAutomationRecipients;
  account_automation_records: AccountAutomationRecords;
  account_automations: AccountAutomations;
  account_secret_histories: AccountSecretHistories;
  account_templates: AccountTemplates;
  accounts: Accounts;
  activity_logs: ActivityLogs;
  applet_host_deployments: AppletHostDeployments;
  applet_hosts: AppletHosts;
  applet_publications: AppletPublications;
  applets: Applets;
  asset_host_keys: AssetHostKeys;
  asset_labels: AssetLabels;
  asset_nodes: AssetNodes;
  asset_permission_assets: AssetPermissionAssets;
  asset_permission_nodes: AssetPermissionNodes;
  asset_permission_user_groups: AssetPermissionUserGroups;
  asset_permission_users: AssetPermissionUsers;
  asset_permissions: AssetPermissions;
  asset_protocols: AssetProtocols;
  assets: Assets;
  auth_tokens: AuthTokens;
  celery_tasks: CeleryTasks;
  cloud_accounts: CloudAccounts;
  cloud_instances: CloudInstances;
  cloud_sync_executions: CloudSyncExecutions;
  cloud_sync_tasks: CloudSyncTasks;
  command_filter_acl_groups: CommandFilterAclGroups;
  command_filter_acl_reviewers: CommandFilterAclReviewers;
  command_filter_acls: CommandFilterAcls;
  command_groups: CommandGroups;
  command_storages: CommandStorages;
  commands: Commands;
  connection_tokens: ConnectionTokens;
  day_count_tables: DayCountTables;
  day_counts: DayCounts;
  day_generations: DayGenerations;
  domains: Domains;
  endpoint_rules: EndpointRules;
  endpoints: Endpoints;
  favorite_assets: FavoriteAssets;
  ftp_logs: FtpLogs;
  gathered_accounts: GatheredAccounts;
  labels: Labels;
  login_acl_reviewers: LoginAclReviewers;
  login_acls: LoginAcls;
  login_asset_acl_reviewers: LoginAssetAclReviewers;
  login_asset_acls: LoginAssetAcls;
  login_failures: LoginFailures;
  login_logs: LoginLogs;
  nodes: Nodes;
  operate_logs: OperateLogs;
  ops_adhocs: OpsAdhocs;
  ops_job_executions: OpsJobExecutions;
  ops_job_versions: OpsJobVersions;
  ops_jobs: OpsJobs;
  ops_playbooks: OpsPlaybooks;
  organizations: Organizations;
  password_change_logs: PasswordChangeLogs;
  password_history: PasswordHistory;
  password_reset_tokens: PasswordResetTokens;
  perm_epoch: PermEpoch;
  perm_org_epoch: PermOrgEpoch;
  perm_user_assets: PermUserAssets;
  perm_user_cache: PermUserCache;
  perm_user_epoch: PermUserEpoch;
  perm_user_nodes: PermUserNodes;
  platform_protocols: PlatformProtocols;
  platforms: Platforms;
  replay_storages: ReplayStorages;
  replay_uploads: ReplayUploads;
  resource_cache: ResourceCache;
  role_bindings: RoleBindings;
  role_permissions: RolePermissions;
  roles: Roles;
  row_count_tables: RowCountTables;
  row_counts: RowCounts;
  schema_migrations: SchemaMigrations;
  session_join_records: SessionJoinRecords;
  session_sharings: SessionSharings;
  sessions: Sessions;
  setting_images: SettingImages;
  settings: Settings;
  site_message_users: SiteMessageUsers;
  site_messages: SiteMessages;
  system_msg_subscription_groups: SystemMsgSubscriptionGroups;
  system_msg_subscription_users: SystemMsgSubscriptionUsers;
  system_msg_subscriptions: SystemMsgSubscriptions;
  task_executions: TaskExecutions;
  task_log_chunks: TaskLogChunks;
  temp_tokens: TempTokens;
  terminal_live_sessions: TerminalLiveSessions;
  terminal_sessions: TerminalSessions;
  terminal_tasks: TerminalTasks;
  terminals: Terminals;
  ticket_apply_assets: TicketApplyAssets;
  ticket_apply_nodes: TicketApplyNodes;
  ticket_approve_tokens: TicketApproveTokens;
  ticket_assignees: TicketAssignees;
  ticket_comments: TicketComments;
  ticket_flows: TicketFlows;
  ticket_serials: TicketSerials;
  ticket_sessions: TicketSessions;
  ticket_steps: TicketSteps;
  tickets: Tickets;
  user_group_members: UserGroupMembers;
  user_groups: UserGroups;
  user_preferences: UserPreferences;
  users: Users;
}
