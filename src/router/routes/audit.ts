import { msg } from '@lingui/core/macro'
import type { RouteNode } from '../types.ts'
import { group, page, view } from './helpers.ts'

/** Audit view: console-behaviour §3. */
export const auditRoutes: RouteNode = view('audit', 'Audit', msg`Audit`, '/audit/dashboard', [
  page('dashboard', 'AuditDashboard', msg`Dashboard`, [], { icon: 'dashboard' }),
  group('sessions', 'Sessions', msg`Sessions`, 'sessions', [
    page('sessions', 'SessionList', msg`Session list`, ['terminal.view_session'], {
      children: [page(':id', 'SessionDetail', msg`Session details`, ['terminal.view_session'])],
    }),
    page('command', 'CommandList', msg`Commands`, ['terminal.view_command']),
    page('ftp', 'FtpLog', msg`File transfers`, ['audits.view_ftplog']),
  ]),
  group('audits', 'Audits', msg`Logs`, 'audits', [
    page('login-logs', 'LoginLogList', msg`Login logs`, ['audits.view_userloginlog'], {
      children: [page(':id', 'LoginLogDetail', msg`Login log details`, ['audits.view_userloginlog'])],
    }),
    page('operate-logs', 'OperateLogList', msg`Operate logs`, ['audits.view_operatelog'], {
      children: [page(':id', 'OperateLogDetail', msg`Operate log details`, ['audits.view_operatelog'])],
    }),
    page('password-change-log', 'PasswordChangeLog', msg`Password change logs`, ['audits.view_passwordchangelog']),
    page('job-execution-log', 'JobExecutionLog', msg`Job logs`, ['audits.view_jobauditlog']),
  ]),
], { showOrganization: true })
