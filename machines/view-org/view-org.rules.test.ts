// @vitest-environment node

import { describe, expect, it } from 'vitest'
import { ORG_A, ORG_B, ORG_DEFAULT, ORG_STRANGER, adminProfile, userProfile } from '../testing/fixtures.ts'
import {
  allowedViews,
  chooseOrg,
  chooseView,
  defaultOrg,
  hasAnyOrganization,
  orgsForView,
  rememberableView,
  resolveOrgSelection,
  switchOrgSelection,
  viewFromPath,
} from './view-org.rules.ts'
import { SYSTEM_ORG } from './view-org.types.ts'

describe('allowedViews', () => {
  it('offers console/audit by organizations, tickets/settings by permission, workbench and profile always', () => {
    expect(allowedViews(adminProfile())).toEqual(['console', 'audit', 'workbench', 'tickets', 'settings', 'profile'])
    expect(allowedViews(userProfile())).toEqual(['workbench', 'profile'])
    expect(allowedViews(adminProfile({ audit_orgs: [], perms: ['settings.view_setting'] }))).toEqual([
      'console',
      'workbench',
      'settings',
      'profile',
    ])
  })

  it('drops tickets when the license is known to be invalid', () => {
    expect(allowedViews(adminProfile(), { hasValidLicense: false })).not.toContain('tickets')
    expect(allowedViews(adminProfile(), { hasValidLicense: true })).toContain('tickets')
  })
})

describe('chooseView', () => {
  it('keeps an allowed requested view', () => {
    expect(chooseView('audit', adminProfile(), 'console')).toBe('audit')
    expect(chooseView('profile', userProfile(), null)).toBe('profile')
  })

  it('falls back to the last-used view, then to the first allowed of console, audit, workbench, tickets, settings', () => {
    const auditor = adminProfile({ console_orgs: [] })
    expect(chooseView('console', auditor, 'tickets')).toBe('tickets')
    expect(chooseView('console', auditor, 'console')).toBe('audit')
    expect(chooseView(null, auditor, 'nonsense')).toBe('audit')
    expect(chooseView('settings', userProfile(), undefined)).toBe('workbench')
    expect(chooseView(null, adminProfile(), null)).toBe('console')
  })
})

describe('viewFromPath', () => {
  it('reads the first segment', () => {
    expect(viewFromPath('/console/users/users')).toBe('console')
    expect(viewFromPath('audit/sessions?x=1')).toBe('audit')
    expect(viewFromPath('/settings#tab')).toBe('settings')
    expect(viewFromPath('/')).toBeNull()
    expect(viewFromPath('')).toBeNull()
    expect(viewFromPath('/ops/celery/task/1/log/')).toBeNull()
    expect(viewFromPath('/404')).toBeNull()
  })
})

describe('organizations', () => {
  it('maps views to their organizations', () => {
    const profile = adminProfile({ workbench_orgs: [ORG_B] })
    expect(orgsForView('console', profile)).toEqual([ORG_DEFAULT, ORG_A])
    expect(orgsForView('tickets', profile)).toEqual([ORG_DEFAULT, ORG_A])
    expect(orgsForView('settings', profile)).toEqual([ORG_DEFAULT, ORG_A])
    expect(orgsForView('profile', profile)).toEqual([ORG_DEFAULT, ORG_A])
    expect(orgsForView('audit', profile)).toEqual([ORG_A])
    expect(orgsForView('workbench', profile)).toEqual([ORG_B])
  })

  it('defaults to the is_default organization, else the first', () => {
    expect(defaultOrg([ORG_A, ORG_DEFAULT])).toEqual(ORG_DEFAULT)
    expect(defaultOrg([ORG_B, ORG_A])).toEqual(ORG_B)
    expect(defaultOrg([])).toBeNull()
  })

  it('keeps a usable current organization, with its fresh entry', () => {
    const renamed = { ...ORG_A, name: 'Old name' }
    expect(chooseOrg({ current: renamed, previous: null, usingOrgs: [ORG_DEFAULT, ORG_A] })).toEqual(ORG_A)
  })

  it('replaces a missing or foreign current organization with the default one', () => {
    expect(chooseOrg({ current: null, previous: ORG_A, usingOrgs: [ORG_A, ORG_DEFAULT] })).toEqual(ORG_DEFAULT)
    expect(chooseOrg({ current: ORG_STRANGER, previous: null, usingOrgs: [ORG_B, ORG_A] })).toEqual(ORG_B)
    expect(chooseOrg({ current: ORG_A, previous: null, usingOrgs: [] })).toBeNull()
  })

  it('goes back from the system organization to the previous one when it is usable', () => {
    expect(chooseOrg({ current: SYSTEM_ORG, previous: ORG_A, usingOrgs: [ORG_DEFAULT, ORG_A] })).toEqual(ORG_A)
    expect(chooseOrg({ current: SYSTEM_ORG, previous: ORG_STRANGER, usingOrgs: [ORG_DEFAULT, ORG_A] })).toEqual(ORG_DEFAULT)
    expect(chooseOrg({ current: SYSTEM_ORG, previous: null, usingOrgs: [ORG_A] })).toEqual(ORG_A)
  })

  it('resolves the settings view to the system organization, remembering where to return', () => {
    expect(resolveOrgSelection('settings', adminProfile(), { currentOrg: ORG_A, previousOrg: ORG_DEFAULT })).toEqual({
      usingOrgs: [ORG_DEFAULT, ORG_A],
      currentOrg: SYSTEM_ORG,
      previousOrg: ORG_A,
    })
  })

  it('remembers the replaced organization as previous, never the system organization', () => {
    expect(resolveOrgSelection('audit', adminProfile(), { currentOrg: ORG_DEFAULT, previousOrg: null })).toEqual({
      usingOrgs: [ORG_A],
      currentOrg: ORG_A,
      previousOrg: ORG_DEFAULT,
    })
    expect(resolveOrgSelection('console', adminProfile(), { currentOrg: SYSTEM_ORG, previousOrg: ORG_A })).toEqual({
      usingOrgs: [ORG_DEFAULT, ORG_A],
      currentOrg: ORG_A,
      previousOrg: ORG_A,
    })
  })

  it('switches only to an organization of the view', () => {
    const selection = resolveOrgSelection('console', adminProfile(), { currentOrg: ORG_DEFAULT })
    expect(switchOrgSelection(selection, ORG_A)).toEqual({ ...selection, currentOrg: ORG_A, previousOrg: ORG_DEFAULT })
    expect(switchOrgSelection(selection, ORG_STRANGER)).toBeNull()
  })

  it('knows when a user has no organization at all', () => {
    expect(hasAnyOrganization(adminProfile())).toBe(true)
    expect(hasAnyOrganization(userProfile({ workbench_orgs: [] }))).toBe(false)
  })

  it('remembers only the switcher views as last view', () => {
    expect(rememberableView('tickets')).toBe('tickets')
    expect(rememberableView('settings')).toBeNull()
    expect(rememberableView('profile')).toBeNull()
  })
})
