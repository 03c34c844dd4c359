import type { FastifyInstance } from 'fastify'
import { ACCOUNT_RESOURCES } from './accounts/index.ts'
import { registerResource, registerSpmRoute } from '../engine/index.ts'
import { ACL_RESOURCES } from './acls/asset-acls.ts'
import { installLoginAcl, loginAcls } from './acls/login-acls.ts'
import { ASSET_KINDS, assets } from './assets/assets.ts'
import './assets/connectivity.ts'
import './assets/host-keys.ts'
import { domains, gateways } from './assets/domains.ts'
import { labels } from './assets/labels.ts'
import { nodes } from './assets/nodes.ts'
import { platforms } from './assets/platforms.ts'
import { registerAssetRoutes } from './assets/routes.ts'
import { operateLogs, registerActivities } from './audits/operate-logs.ts'
import { organizations } from './orgs/orgs.ts'
import { orgRoleBindings, roleBindings, systemRoleBindings } from './rbac/bindings.ts'
import { registerPermissionRoutes } from './rbac/permissions.ts'
import { orgRoles, roles, systemRoles } from './rbac/roles.ts'
import { userGroupRelations, userGroups } from './users/groups.ts'
import { users } from './users/users.ts'
import { registerTerminal, TERMINAL_RESOURCES } from './terminal/index.ts'
import { PERMS_RESOURCES, registerPerms } from './perms/index.ts'
import { accessKeys } from '../profile/access-keys.ts'
import { tempTokens } from '../profile/temp-tokens.ts'
import { CLOUD_RESOURCES, registerCloud } from '../cloud/resources.ts'
import '../cloud/sync.ts'
import { jobLogs } from '../jobs/resources.ts'
import { adhocs, playbooks } from '../jobs/playbooks.ts'

/** Every resource declared through the engine (server/engine, docs/engine.md), in registration order. */
export const RESOURCES = [
  users, userGroups, userGroupRelations,
  roles, systemRoles, orgRoles, roleBindings, systemRoleBindings, orgRoleBindings,
  organizations, loginAcls, operateLogs,
  platforms, nodes, assets, ...ASSET_KINDS,
  labels, domains, gateways,
  ...TERMINAL_RESOURCES,
  ...ACCOUNT_RESOURCES,
  ...ACL_RESOURCES,
  ...PERMS_RESOURCES,
  accessKeys, tempTokens,
  ...CLOUD_RESOURCES,
  jobLogs,
  adhocs,
  playbooks,
]

export async function registerResources(app: FastifyInstance): Promise<void> {
  await registerSpmRoute(app)
  for (const def of RESOURCES) await registerResource(app, def)
  await registerPermissionRoutes(app)
  await registerActivities(app)
  await registerAssetRoutes(app)
  await registerTerminal(app)
  registerPerms(app)
  registerCloud(app)
  installLoginAcl(app)
}
