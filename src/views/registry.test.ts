import { describe, expect, it } from 'vitest'
import { routeByName } from '../router/catalog.ts'
import { genericPages } from './registry.ts'
import { userResource } from './console/users/resource.ts'
import { userGroupResource } from './console/groups/resource.ts'
import { roleResources } from './console/roles/resource.ts'
import { loginAclResource } from './console/user-acls/resource.ts'
import { organizationResource } from './settings/orgs/resource.ts'

describe('generic pages registry', () => {
  it('names routes that exist in the catalogue', () => {
    for (const name of Object.keys(genericPages)) expect(routeByName(name), name).toBeDefined()
  })
  it('resource route paths match the catalogue', () => {
    for (const resource of [userResource, userGroupResource, roleResources.system, loginAclResource, organizationResource]) {
      for (const ref of Object.values(resource.routes)) {
        if (!ref) continue
        expect(routeByName(ref.name)?.path, ref.name).toBe(ref.path)
        expect(genericPages[ref.name], ref.name).toBeDefined()
      }
    }
  })
})
