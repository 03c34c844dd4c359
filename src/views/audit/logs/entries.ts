/** Manifest entries of the audit logs (data only: part of the first chunk; their pages are the generic ones). */
import { msg } from '@lingui/core/macro'
import { defineEntries } from '../../../router/resources.ts'

export const AUDIT_LOG_ENTRIES = defineEntries([
  {
    key: 'login-logs',
    model: 'audits.userloginlog',
    url: '/api/v1/audits/login-logs/',
    path: '/audit/audits/login-logs',
    routeName: 'LoginLog',
    typeLabel: msg`Login log`,
    titles: { list: msg`Login logs`, detail: msg`Login log details` },
    perms: { view: 'audits.view_userloginlog' },
    offers: { create: false, update: false, delete: false, import: false },
    defaultOrder: '-datetime',
    dateRange: true,
  },
  {
    key: 'operate-logs',
    model: 'audits.operatelog',
    url: '/api/v1/audits/operate-logs/',
    path: '/audit/audits/operate-logs',
    routeName: 'OperateLog',
    typeLabel: msg`Operate log`,
    titles: { list: msg`Operate logs`, detail: msg`Operate log details` },
    offers: { create: false, update: false, delete: false, import: false },
    defaultOrder: '-datetime',
    dateRange: true,
  },
  {
    key: 'password-change-logs',
    model: 'audits.passwordchangelog',
    url: '/api/v1/audits/password-change-logs/',
    path: '/audit/audits/password-change-log',
    routeName: 'PasswordChangeLog',
    listRouteName: 'PasswordChangeLog',
    typeLabel: msg`Password change log`,
    titles: { list: msg`Password change logs` },
    offers: { create: false, update: false, delete: false, import: false, detail: false },
    defaultOrder: '-datetime',
    dateRange: true,
  },
])
