import { msg } from '@lingui/core/macro'
import type { RouteNode } from '../types.ts'
import { resourceSlot } from '../resources.ts'
import { group, page, view } from './helpers.ts'

/** Audit view: console-behaviour §3. */
export const auditRoutes: RouteNode = view('audit', 'Audit', msg`Audit`, '/audit/dashboard', [
  page('dashboard', 'AuditDashboard', msg`Dashboard`, [], { icon: 'dashboard' }),
  group('sessions', 'Sessions', msg`Sessions`, 'sessions', [
    resourceSlot('sessions'),
    resourceSlot('commands'),
    resourceSlot('ftp-logs'),
  ]),
  group('audits', 'Audits', msg`Logs`, 'audits', [
    resourceSlot('login-logs'),
    resourceSlot('operate-logs'),
    resourceSlot('password-change-logs'),
    resourceSlot('job-logs'),
  ]),
], { showOrganization: true })
