/**
 * Background tasks (docs/tasks.md): the runner of this process, the task and execution resources, the log and
 * result endpoints of JumpServer's ops API, the periodic-task switch, and the live log websocket.
 */
import type { FastifyInstance } from 'fastify'
import { registerResource, resourceApi, userDisplay } from '../engine/index.ts'
import { isUuid, normUuid } from '../engine/parse.ts'
import { requirePerm, requireUser } from '../http/context.ts'
import { notFound } from '../http/errors.ts'
import { addMessages } from '../i18n.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { mayReadExecution } from './access.ts'
import './cleanup.ts'
import { taskKind } from './kinds.ts'
import { readLog, TaskLogHub } from './logs.ts'
import { celeryTaskExecutions, celeryTasks } from './resources.ts'
import { TaskRunner } from './runner.ts'
import { setTaskRunner } from './service.ts'
import { registerTaskLogSocket } from './socket.ts'

export async function registerTasks(app: FastifyInstance): Promise<void> {
  const database = app.services.database
  const runner = new TaskRunner(database, {
    concurrency: app.services.config.taskWorkers,
    leaseMs: app.services.config.taskLeaseSeconds * 1000,
    timeZone: app.services.config.timeZone,
  })
  setTaskRunner(app, runner)
  const hub = new TaskLogHub(database)
  await hub.start()
  await registerResource(app, celeryTasks)
  await registerResource(app, celeryTaskExecutions)

  const readable = async (req: Parameters<typeof mayReadExecution>[0], raw: string) => {
    requireUser(req)
    if (!isUuid(raw) || !(await mayReadExecution(req, normUuid(raw)))) throw notFound('Celery task execution')
    return normUuid(raw)
  }

  // The log so far from `mark` (JumpServer's LogTailApi): `{data, end, mark}`; poll with the returned mark.
  app.get('/api/v1/ops/celery/task/:name/task-execution/:id/log/', async (req) => {
    const id = await readable(req, (req.params as { id: string }).id)
    const rawMark = String((req.query as { mark?: unknown }).mark ?? '')
    const mark = /^\d{1,15}$/.test(rawMark) ? Number(rawMark) : 0
    const slice = await readLog(req.ctx.db, id, mark)
    return { data: slice.data.replace(/\r?\n/g, '\r\n'), end: slice.end, mark: String(slice.mark), state: slice.state }
  })

  app.get('/api/v1/ops/celery/task/:name/task-execution/:id/result/', async (req) => {
    const id = await readable(req, (req.params as { id: string }).id)
    const row = await req.ctx.db.selectFrom('task_executions').select(['state', 'result']).where('id', '=', id).executeTakeFirstOrThrow()
    return { id, result: row.result ?? null, state: row.state }
  })

  // The reference console's enable switch: PATCH /api/v1/ops/celery/period-tasks/<task name>/ {enabled}.
  const tasksApi = resourceApi(celeryTasks)
  app.patch('/api/v1/ops/celery/period-tasks/:name/', async (req) => {
    await requirePerm(req, 'ops.change_celerytask', ORG_IDS.ROOT)
    const name = (req.params as { name: string }).name
    const row = await req.ctx.db.selectFrom('celery_tasks').select('id').where('name', '=', name).executeTakeFirst()
    if (!row) throw notFound('Celery task')
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>
    const updated = await tasksApi.update(req, row.id, { enabled: body.enabled }, { partial: true })
    return { name, enabled: updated.enabled }
  })

  // The reference console's "Run again": POST /api/v1/ops/task-executions/?from=<execution id> → 201 {task_id}.
  // The executions resource serves no create; this hook answers before the engine's 405.
  app.addHook('preHandler', async (req, reply) => {
    if (req.method !== 'POST' || req.routeOptions.url !== celeryTaskExecutions.path) return
    const from = (req.query as { from?: unknown } | undefined)?.from
    if (typeof from !== 'string' || !from) return
    await requirePerm(req, 'ops.add_celerytaskexecution', ORG_IDS.ROOT)
    const prev = isUuid(from)
      ? await req.ctx.db.selectFrom('task_executions').select(['task_name', 'args', 'kwargs']).where('id', '=', normUuid(from)).executeTakeFirst()
      : undefined
    if (!prev || !taskKind(prev.task_name)) throw notFound('Celery task execution')
    const user = req.ctx.user!
    const id = await runner.enqueue(prev.task_name, { args: prev.args as unknown[], kwargs: prev.kwargs as Record<string, unknown>, creatorId: user.id, creator: userDisplay(user), lang: req.ctx.lang })
    await reply.status(201).send({ task: id, task_id: id })
    return reply
  })

  // The non-API task log page of JumpServer lives in the console.
  app.get('/core/ops/celery/task/:id/log/', async (req, reply) => reply.redirect(`/ui/ops/celery/task/${encodeURIComponent((req.params as { id: string }).id)}/log/`))

  registerTaskLogSocket(app, hub)
  await runner.start()
  app.addHook('onClose', async () => {
    await runner.stop()
    await hub.stop()
  })
}

addMessages({
  'Celery task execution object does not exist.': ['任务执行不存在。', 'タスク実行が存在しません。'],
  'Celery task object does not exist.': ['任务不存在。', 'タスクが存在しません。'],
})
