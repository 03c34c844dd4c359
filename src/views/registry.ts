/**
 * Pages of the generic list/form/detail stack by route name (the names of src/router/routes/*.ts). The router
 * looks pages up in src/router/pages.ts, which spreads this registry in. Every page loads lazily.
 */
import type { ComponentType } from 'react'

type PageLoader = () => Promise<ComponentType>

export const genericPages: Readonly<Record<string, PageLoader>> = {
  UserList: () => import('./console/users/UserListPage.tsx').then((m) => m.UserListPage),
  UserCreate: () => import('./console/users/UserFormPage.tsx').then((m) => m.UserFormPage),
  UserUpdate: () => import('./console/users/UserFormPage.tsx').then((m) => m.UserFormPage),
  UserDetail: () => import('./console/users/UserDetailPage.tsx').then((m) => m.UserDetailPage),
  UserLoginACLList: () => import('./console/user-acls/UserLoginAclListPage.tsx').then((m) => m.UserLoginAclListPage),
  UserLoginACLCreate: () => import('./console/user-acls/UserLoginAclFormPage.tsx').then((m) => m.UserLoginAclFormPage),
  UserLoginACLUpdate: () => import('./console/user-acls/UserLoginAclFormPage.tsx').then((m) => m.UserLoginAclFormPage),
  UserLoginACLDetail: () => import('./console/user-acls/UserLoginAclDetailPage.tsx').then((m) => m.UserLoginAclDetailPage),
  UserGroupList: () => import('./console/groups/UserGroupPages.tsx').then((m) => m.UserGroupListPage),
  UserGroupCreate: () => import('./console/groups/UserGroupPages.tsx').then((m) => m.UserGroupFormPage),
  UserGroupUpdate: () => import('./console/groups/UserGroupPages.tsx').then((m) => m.UserGroupFormPage),
  UserGroupDetail: () => import('./console/groups/UserGroupPages.tsx').then((m) => m.UserGroupDetailPage),
  RoleList: () => import('./console/roles/RoleListPage.tsx').then((m) => m.RoleListPage),
  RoleCreate: () => import('./console/roles/RoleFormPage.tsx').then((m) => m.RoleFormPage),
  RoleUpdate: () => import('./console/roles/RoleFormPage.tsx').then((m) => m.RoleFormPage),
  RoleDetail: () => import('./console/roles/RoleDetailPage.tsx').then((m) => m.RoleDetailPage),
  OrganizationList: () => import('./settings/orgs/OrganizationPages.tsx').then((m) => m.OrganizationListPage),
  OrganizationCreate: () => import('./settings/orgs/OrganizationPages.tsx').then((m) => m.OrganizationFormPage),
  OrganizationUpdate: () => import('./settings/orgs/OrganizationPages.tsx').then((m) => m.OrganizationFormPage),
  OrganizationDetail: () => import('./settings/orgs/OrganizationPages.tsx').then((m) => m.OrganizationDetailPage),
}
