import { msg } from '@lingui/core/macro'
import type { RouteNode } from '../types.ts'
import { page } from './helpers.ts'

export { taskLogPath } from '../../ui/tasks/taskLogPath.ts'

/** Routes outside the views: home, 404, task logs, the legacy session link (console-behaviour §3). */
export const commonRoutes: RouteNode[] = [
  // `/` goes to the user's preferred view; the guard computes where.
  { kind: 'group', path: '/', name: 'Home', title: msg`Home`, hidden: true },
  page('/404', 'NotFound', msg`Page not found`, [], { hidden: true }),
  page('/ops/celery/task/:id/log', 'CeleryTaskLog', msg`Task log`, [], { hidden: true }),
  page('/ops/ansible/task/:id/log', 'AnsibleTaskLog', msg`Task log`, [], { hidden: true }),
  page('/ops/task/task/:id/log', 'TaskLog', msg`Task log`, [], { hidden: true }),
  // Old links to a session: same params and query on the audit view's session detail.
  { kind: 'group', path: '/terminal/sessions/:id', name: 'LegacySessionDetail', title: msg`Session details`, hidden: true,
    permissions: ['terminal.view_session'], redirect: '/audit/sessions/sessions/:id' },
]
