/** Settings → Tasks (lina's TaskList/TaskDetail): the task kinds `/api/v1/ops/tasks/` and their executions. */
import { msg } from '@lingui/core/macro'
import { TASK_EXECUTIONS_URL, TASKS_URL } from '../../../api/tasks.ts'
import { defineResource } from '../../../ui/common/resource.ts'

export const RUN_TASK_PERM = 'ops.add_celerytaskexecution'

export const taskResource = defineResource({
  url: TASKS_URL,
  routes: { list: { name: 'TaskList', path: '/settings/tasks' }, detail: { name: 'TaskDetail', path: '/settings/tasks/:id' } },
  typeLabel: msg`Task`,
  perms: { view: 'ops.view_celerytask', change: 'ops.change_celerytask', add: RUN_TASK_PERM, delete: 'ops.delete_celerytask' },
})

export const taskExecutionResource = defineResource({
  url: TASK_EXECUTIONS_URL,
  routes: { list: { name: 'TaskDetail', path: '/settings/tasks/:id' } },
  typeLabel: msg`Task execution`,
  perms: { view: 'ops.view_celerytask', add: RUN_TASK_PERM, change: 'ops.change_celerytask', delete: 'ops.delete_celerytaskexecution' },
})
