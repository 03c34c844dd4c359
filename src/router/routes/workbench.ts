import { msg } from '@lingui/core/macro'
import type { RouteNode } from '../types.ts'
import { group, link, page, perm, view } from './helpers.ts'

const job = perm('ops', 'job')
const adhoc = perm('ops', 'adhoc')
const playbook = perm('ops', 'playbook')

/** Workbench (ordinary user) view: console-behaviour §3. The job centre follows SECURITY_COMMAND_EXECUTION. */
export const workbenchRoutes: RouteNode = view('workbench', 'Workbench', msg`Workbench`, '/workbench/home', [
  page('home', 'MyHome', msg`Home`, [], { icon: 'home' }),
  page('assets', 'MyAssets', msg`My assets`, ['perms.view_myassets'], { icon: 'myAssets' }),
  link('external-luna', 'WebTerminal', msg`Web terminal`, '/luna/', ['rbac.view_webterminal'], 'webTerminal'),
  page('file-manager', 'FileManager', msg`File manager`, ['rbac.view_filemanager'], { icon: 'fileManager' }),
  group('ops', 'JobCenter', msg`Job center`, 'ops', [
    page('quick-job', 'QuickJob', msg`Quick job`, [job.view, job.add, 'ops.add_jobexecution']),
    page('job', 'JobList', msg`Jobs`, [job.view], {
      children: [
        page('create', 'JobCreate', msg`Create job`, [job.add]),
        page(':id/update', 'JobUpdate', msg`Update job`, [job.change]),
        page(':id', 'JobDetail', msg`Job details`, [job.view]),
      ],
    }),
    page('templates', 'Template', msg`Templates`, ['ops.view_adhoc|ops.view_playbook']),
    // Command and playbook templates are edited from the templates page (their paths are kept from the reference).
    ...[
      page('adhoc/create', 'AdhocCreate', msg`Create command`, [adhoc.add]),
      page('adhoc/:id/update', 'AdhocUpdate', msg`Update command`, [adhoc.change]),
      page('adhoc/:id', 'AdhocDetail', msg`Command details`, [adhoc.view]),
      page('playbook/create', 'PlaybookCreate', msg`Create playbook`, [playbook.add]),
      page('playbook/:id/update', 'PlaybookUpdate', msg`Update playbook`, [playbook.change]),
      page('playbook/:id', 'PlaybookDetail', msg`Playbook details`, [playbook.view]),
    ].map((node) => ({ ...node, hidden: true, activeMenu: '/workbench/ops/templates' })),
    page('executions', 'ExecutionList', msg`Execution history`, ['ops.view_jobexecution'], {
      children: [page(':id', 'ExecutionDetail', msg`Execution details`, ['ops.view_jobexecution'])],
    }),
  ], { available: ({ settings }) => settings.SECURITY_COMMAND_EXECUTION !== false }),
], { showOrganization: true })
