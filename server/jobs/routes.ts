/**
 * The job center's HTTP API (JumpServer 3.2's `/api/v1/ops/` jobs part and `/api/v1/audits/job-logs/`;
 * docs/jobs.md). Jobs and executions are the creator's own; job logs are the organization's, for auditors.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { userDisplay } from '../engine/index.ts'
import { isUuid, normUuid } from '../engine/parse.ts'
import { requirePerm, requireUser } from '../http/context.ts'
import { detailError, notFound, validationError } from '../http/errors.ts'
import { addMessages, tr } from '../i18n.ts'
import { getSetting } from '../settings/store.ts'
import { readLog } from '../tasks/logs.ts'
import { taskRunner } from '../tasks/service.ts'
import { ansibleSettings, removeEndedRuns } from './ansible.ts'
import { playbookSettings, registerPlaybookFiles } from './playbooks.ts'
import { checkParameterValues, defineOf, parseParametersDefine, type ParametersDefine } from './parameters.ts'
import { BLACKLIST, blacklisted, failStaleExecutions, materialOf, expandAssets, JOB_STOP_CHANNEL, jobSettings, parseCron, RUN_JOB_TASK, RUNAS_POLICIES, syncJobSchedule } from './run.ts'

addMessages({
  'This field is required.': ['该字段是必填项。', 'この項目は必須です。'],
  'The command "{word}" is not allowed in a job.': ['命令「{word}」不允许在作业中执行。', 'コマンド「{word}」はジョブで実行できません。'],
  'Expected a list of ids.': ['应为 ID 列表。', 'ID のリストが必要です。'],
  'These assets are not granted to you: {names}': ['以下资产未授权给您：{names}', '次の資産はあなたに許可されていません：{names}'],
  'These nodes are not granted to you: {names}': ['以下节点未授权给您：{names}', '次のノードはあなたに許可されていません：{names}'],
  'Select at least one asset or node.': ['请至少选择一个资产或节点。', '少なくとも 1 つの資産またはノードを選択してください。'],
  'A valid integer is required.': ['请输入合法的整数。', '有効な整数を入力してください。'],
  'Only adhoc shell jobs are supported so far.': ['目前仅支持 Shell 类型的快捷命令作业。', '現在はシェルのアドホックジョブのみ対応しています。'],
  'Command execution is disabled.': ['命令执行已被禁用。', 'コマンド実行は無効になっています。'],
  'The execution has already finished.': ['该执行已结束。', 'この実行はすでに終了しています。'],
  'A job with this name already exists.': ['同名作业已存在。', '同じ名前のジョブがすでに存在します。'],
})

const JOB_FIELDS = ['id', 'name', 'instant', 'type', 'module', 'args', 'assets', 'nodes', 'runas', 'runas_policy', 'timeout', 'chdir', 'comment',
  'is_periodic', 'interval', 'crontab', 'version', 'playbook_id', 'use_parameter_define', 'parameters_define', 'org_id', 'creator_id', 'created_by', 'date_created',
  'date_updated'] as const

/** A JSON value with every object's keys in order (to compare two values whatever their key order). */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted)
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]))
  return v
}

/**
 * A job as the API answers it: `parameters_define` as JSON text, as JumpServer 3.2 answers what lina 3.2.2 wrote (its
 * job list and run dialog `JSON.parse` it).
 */
function wireJob<T extends { parameters_define: unknown; playbook_id: string | null }>(job: T) {
  return { ...job, playbook: job.playbook_id, parameters_define: JSON.stringify(defineOf(job.parameters_define)) }
}

type ExecRow = {
  id: string; job_id: string; task_id: string; status: string; parameters: unknown; material: string; job_type: string; result: unknown; summary: unknown
  asset_results: unknown; org_id: string; created_by: string; creator_id: string; date_created: Date; date_start: Date | null; date_finished: Date | null
  job_version: number
}

const FINISHED = ['success', 'failed', 'timeout', 'canceled']

function serializeExecution(e: ExecRow, job?: { id: string; name: string; instant: boolean }) {
  const timeCost = e.date_start ? ((e.date_finished ?? new Date()).getTime() - e.date_start.getTime()) / 1000 : 0
  return {
    id: e.id, task_id: e.task_id, job: job ? { id: job.id, name: job.name, instant: job.instant } : e.job_id, job_version: e.job_version,
    parameters: e.parameters, material: e.material, job_type: e.job_type, status: e.status,
    is_finished: FINISHED.includes(e.status), is_success: e.status === 'success', time_cost: timeCost, timedelta: timeCost,
    result: e.result, summary: e.summary, created_by: e.created_by, org_id: e.org_id,
    date_created: e.date_created, date_start: e.date_start, date_finished: e.date_finished,
  }
}

/** JumpServer's list answer: a page `{count, next, previous, results}` when `limit` is given, else the array. */
function page<T>(req: FastifyRequest, total: number, rows: T[]) {
  const q = req.query as { limit?: string }
  return q.limit === undefined ? rows : { count: total, next: null, previous: null, results: rows }
}
function limits(req: FastifyRequest) {
  const q = req.query as { limit?: string; offset?: string }
  const limit = Math.min(Math.max(Number.parseInt(q.limit ?? '', 10) || 100, 1), 1000)
  const offset = Math.max(Number.parseInt(q.offset ?? '', 10) || 0, 0)
  return { limit, offset }
}

function uuidList(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) return undefined
  const out: string[] = []
  for (const x of v) {
    const id = typeof x === 'string' ? x : typeof x === 'object' && x && typeof (x as { id?: unknown }).id === 'string' ? (x as { id: string }).id : ''
    if (!isUuid(id)) return undefined
    out.push(normUuid(id))
  }
  return [...new Set(out)]
}

async function commandExecutionOn(req: FastifyRequest) {
  if ((await getSetting<boolean>(req.ctx.db, 'SECURITY_COMMAND_EXECUTION')) === false) throw detailError(403, tr(req.ctx.lang, 'Command execution is disabled.'), 'permission_denied')
}

/** Queues an execution of a job: the row, then the background task (its id is the execution's `task_id`). */
async function startExecution(req: FastifyRequest, job: { id: string; type: string; module: string; args: string; version: number; org_id: string; playbook_id: string | null }, parameters: Record<string, unknown>) {
  const user = requireUser(req)
  const id = randomUUID()
  const runner = taskRunner(req.server)!
  const created = userDisplay(user)
  // The row first, with the task's id chosen here: the task finds it however soon it starts.
  const taskId = randomUUID()
  await req.ctx.db.insertInto('ops_job_executions').values({
    id, job_id: job.id, task_id: taskId, job_version: job.version, status: 'pending', parameters: JSON.stringify(parameters),
    material: await materialOf(req.ctx.db, job), job_type: job.type, org_id: job.org_id, creator_id: user.id, created_by: created,
  }).execute()
  await runner.enqueue(RUN_JOB_TASK, { id: taskId, kwargs: { execution_id: id }, creatorId: user.id, creator: created, lang: req.ctx.lang })
  return { id, taskId }
}

/** The job calls (Audit → Job logs is an engine resource of server/resources/index.ts). */
export function registerJobs(app: FastifyInstance): void {
  const cfg = app.services.config as unknown as { jobParallelism?: number }
  const env = Number(process.env.JOB_PARALLELISM)
  if (cfg.jobParallelism) jobSettings.parallelism = cfg.jobParallelism
  else if (Number.isInteger(env) && env > 0) jobSettings.parallelism = Math.min(env, 200)
  const hostTimeout = Number(process.env.JOB_HOST_TIMEOUT)
  if (Number.isInteger(hostTimeout) && hostTimeout > 0) jobSettings.hostTimeoutSeconds = hostTimeout
  playbookSettings.dataDir = ansibleSettings.dataDir = app.services.config.dataDir
  jobSettings.services = app.services
  jobSettings.log = app.log
  registerPlaybookFiles(app)
  // Auditors read stale runs as failed too (Job logs is an engine resource: its reads pass here first).
  app.addHook('preHandler', async (req) => {
    if (req.method === 'GET' && req.url.startsWith('/api/v1/audits/job-logs/') && req.ctx?.user) await failStaleExecutions(app.services.database.db)
  })
  // Run folders a killed process left behind (a private key may be in one), once their execution has ended.
  app.addHook('onReady', async () => {
    await failStaleExecutions(app.services.database.db).catch(() => undefined)
    await removeEndedRuns(app.services.database.db).catch(() => undefined)
  })

  const ownJob = async (req: FastifyRequest, raw: string) => {
    const user = requireUser(req)
    if (!isUuid(raw)) throw notFound('Job')
    const job = await req.ctx.db.selectFrom('ops_jobs').select(JOB_FIELDS).where('id', '=', normUuid(raw)).where('creator_id', '=', user.id)
      .where('org_id', '=', req.ctx.orgId).executeTakeFirst()
    if (!job) throw notFound('Job')
    return { ...job, playbook: job.playbook_id }
  }
  /**
   * The values of a run (`parameters`, JSON text or an object) checked against the job's definitions: 400 with field
   * errors under `parameters`; `{}` for a job without parameters.
   */
  const runValues = (req: FastifyRequest, job: { use_parameter_define: boolean; parameters_define: unknown }, raw: unknown) => {
    const define = defineOf(job.parameters_define)
    if (!job.use_parameter_define || !Object.keys(define).length) return {}
    const r = checkParameterValues(define, raw, req.ctx.lang)
    if ('errors' in r) throw validationError({ parameters: r.errors })
    return r.values
  }
  /** An execution of the caller's, by its id or its task id. */
  const ownExecution = async (req: FastifyRequest, raw: string) => {
    const user = requireUser(req)
    if (!isUuid(raw)) throw notFound('Job execution')
    const id = normUuid(raw)
    const e = await req.ctx.db.selectFrom('ops_job_executions').selectAll().where((eb) => eb.or([eb('id', '=', id), eb('task_id', '=', id)]))
      .where('creator_id', '=', user.id).where('org_id', '=', req.ctx.orgId).executeTakeFirst()
    if (!e) throw notFound('Job execution')
    return e as ExecRow
  }

  app.get('/api/v1/ops/jobs/', async (req) => {
    await requirePerm(req, 'ops.view_job')
    await commandExecutionOn(req)
    const user = requireUser(req)
    const q = req.query as { type?: string; search?: string; instant?: string }
    const { limit, offset } = limits(req)
    let base = req.ctx.db.selectFrom('ops_jobs').where('creator_id', '=', user.id).where('org_id', '=', req.ctx.orgId).where('instant', '=', q.instant === 'true')
    if (q.type === 'adhoc' || q.type === 'playbook') base = base.where('type', '=', q.type)
    if (q.search) base = base.where('name', 'ilike', `%${q.search.replace(/[%_\\]/g, '\\$&')}%`)
    const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
    const rows = await base.select(JOB_FIELDS).orderBy('date_created', 'desc').orderBy('id').limit(limit).offset(offset).execute()
    return page(req, total, rows.map(wireJob))
  })

  // The detail also names the job's assets and nodes (read-only `assets_display`, `nodes_display`).
  app.get('/api/v1/ops/jobs/:id/', async (req) => {
    await requirePerm(req, 'ops.view_job')
    const job = await ownJob(req, (req.params as { id: string }).id)
    const ids = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && isUuid(x)) : [])
    const assetIds = ids(job.assets)
    const nodeIds = ids(job.nodes)
    const assets = assetIds.length ? await req.ctx.db.selectFrom('assets').select(['id', 'name', 'address']).where('id', 'in', assetIds).where('org_id', '=', job.org_id).execute() : []
    const nodes = nodeIds.length ? await req.ctx.db.selectFrom('nodes').select(['id', 'value', 'full_value']).where('id', 'in', nodeIds).where('org_id', '=', job.org_id).execute() : []
    const order = <T extends { id: string }>(list: T[], by: string[]) => by.map((id) => list.find((x) => x.id === id)).filter((x): x is T => !!x)
    return {
      ...wireJob(job),
      assets_display: order(assets, assetIds),
      nodes_display: order(nodes, nodeIds).map((n) => ({ id: n.id, name: n.value, full_value: n.full_value })),
    }
  })

  /**
   * The fields of a job from a body (create, or update over `existing`: PATCH keeps what is not sent), checked with
   * 400 field errors, assets refused when outside the creator's grants.
   */
  const parseJob = async (req: FastifyRequest, body: Record<string, unknown>, existing?: Awaited<ReturnType<typeof ownJob>>) => {
    const user = requireUser(req)
    const lang = req.ctx.lang
    const pick = (k: string, dflt: unknown) => (k in body ? body[k] : existing ? (existing as Record<string, unknown>)[k] : dflt)
    const instant = existing ? existing.instant : body.instant === true
    const errors: Record<string, string[]> = {}
    const type = pick('type', 'adhoc')
    const module = type === 'playbook' ? 'playbook' : pick('module', 'shell')
    let playbookId: string | null = null
    let playbookName = ''
    if (type !== 'adhoc' && type !== 'playbook') errors.type = [tr(lang, '"{value}" is not a valid choice.', { value: String(type) })]
    else if (type === 'adhoc' && module !== 'shell') errors.module = [tr(lang, 'Only adhoc shell jobs are supported so far.')]
    let args = pick('args', '')
    if (type === 'playbook') {
      const raw = 'playbook' in body ? body.playbook : existing?.playbook_id
      const pid = typeof raw === 'string' ? raw : typeof raw === 'object' && raw && typeof (raw as { id?: unknown }).id === 'string' ? (raw as { id: string }).id : ''
      const pb = isUuid(pid) ? await req.ctx.db.selectFrom('ops_playbooks').select(['id', 'name']).where('id', '=', normUuid(pid)).where('creator_id', '=', user.id)
        .where('org_id', '=', req.ctx.orgId).executeTakeFirst() : undefined
      if (!pb) errors.playbook = [tr(lang, 'This field is required.')]
      else {
        playbookId = pb.id
        playbookName = pb.name
        args = typeof args === 'string' ? args.slice(0, 4096) : ''
      }
    } else if (typeof args !== 'string' || !args.trim()) errors.args = [tr(lang, 'This field is required.')]
    else if (args.length > 4096) errors.args = [tr(lang, 'Ensure this field has no more than {n} characters.', { n: 4096 })]
    else {
      const word = blacklisted(args)
      if (word) errors.args = [tr(lang, 'The command "{word}" is not allowed in a job.', { word })]
    }
    const assets = uuidList(pick('assets', []))
    const nodes = uuidList(pick('nodes', []))
    if (!assets) errors.assets = [tr(lang, 'Expected a list of ids.')]
    if (!nodes) errors.nodes = [tr(lang, 'Expected a list of ids.')]
    const runas = pick('runas', 'root')
    if (typeof runas !== 'string' || !runas || runas.length > 128) errors.runas = [tr(lang, 'This field is required.')]
    const policy = pick('runas_policy', 'skip')
    if (typeof policy !== 'string' || !(RUNAS_POLICIES as readonly string[]).includes(policy)) errors.runas_policy = [tr(lang, '"{value}" is not a valid choice.', { value: String(policy) })]
    const timeout = pick('timeout', -1)
    if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < -1 || timeout > 86_400) errors.timeout = [tr(lang, 'A valid integer is required.')]
    const chdir = pick('chdir', '') ?? ''
    if (typeof chdir !== 'string' || chdir.length > 1024) errors.chdir = [tr(lang, 'Ensure this field has no more than {n} characters.', { n: 1024 })]
    const rawComment = pick('comment', '')
    const comment = typeof rawComment === 'string' ? rawComment.slice(0, 1024) : ''
    const periodic = !instant && pick('is_periodic', false) === true
    const rawCron = pick('crontab', '')
    const crontab = typeof rawCron === 'string' ? rawCron.trim() : ''
    const rawInterval = pick('interval', null)
    const interval = rawInterval === undefined || rawInterval === null || rawInterval === '' ? null : rawInterval
    if (crontab && !parseCron(crontab)) errors.crontab = [tr(lang, 'Not a valid cron expression (five fields: minute hour day month weekday)')]
    if (interval !== null && (typeof interval !== 'number' || !Number.isInteger(interval) || interval < 1 || interval > 24 * 365)) errors.interval = [tr(lang, 'A valid integer is required.')]
    if (periodic && !crontab && interval === null) errors.crontab = [tr(lang, 'Set a crontab or an interval before enabling the schedule')]
    const usesParameters = pick('use_parameter_define', false)
    if (typeof usesParameters !== 'boolean') errors.use_parameter_define = [tr(lang, 'Must be a valid boolean.')]
    let define: ParametersDefine = {}
    const parsedDefine = parseParametersDefine(pick('parameters_define', {}), lang)
    if ('errors' in parsedDefine) errors.parameters_define = parsedDefine.errors
    else define = parsedDefine.define
    let name = pick('name', '')
    if (instant && !existing) name = `job-${randomUUID().slice(-12)}`
    else if (typeof name !== 'string' || !name.trim() || name.length > 128) errors.name = [tr(lang, 'This field is required.')]
    if (Object.keys(errors).length) throw validationError(errors)
    if (!assets!.length && !nodes!.length) throw validationError({ assets: [tr(lang, 'Select at least one asset or node.')] })
    // Never more than the creator's grants: named assets outside them are refused before anything is stored.
    const { excluded } = await expandAssets(req.ctx.db, user.id, req.ctx.orgId, assets!, nodes!)
    if (excluded.length) {
      const names = (await req.ctx.db.selectFrom('assets').select('name').where('id', 'in', excluded).execute()).map((a) => a.name)
      throw validationError({ assets: [tr(lang, 'These assets are not granted to you: {names}', { names: (names.length ? names : excluded).join(', ') })] })
    }
    // Nodes: those of the creator's granted tree only (at run time each is expanded again to the granted assets under it).
    if (nodes!.length) {
      const visible = new Set((await req.ctx.db.selectFrom('perm_user_nodes').select('node_id').where('user_id', '=', user.id).where('org_id', '=', req.ctx.orgId)
        .where('node_id', 'in', nodes!).execute()).map((n) => n.node_id))
      const outside = nodes!.filter((n) => !visible.has(n))
      if (outside.length) {
        const names = (await req.ctx.db.selectFrom('nodes').select('value').where('id', 'in', outside).where('org_id', '=', req.ctx.orgId).execute()).map((n) => n.value)
        throw validationError({ nodes: [tr(lang, 'These nodes are not granted to you: {names}', { names: (names.length ? names : outside).join(', ') })] })
      }
    }
    const trimmed = (name as string).trim()
    if (!instant) {
      const clash = await req.ctx.db.selectFrom('ops_jobs').select('id').where('creator_id', '=', user.id).where('org_id', '=', req.ctx.orgId)
        .where('instant', '=', false).where('name', '=', trimmed).$if(!!existing, (q) => q.where('id', '<>', existing!.id)).executeTakeFirst()
      if (clash) throw validationError({ name: [tr(lang, 'A job with this name already exists.')] })
    }
    return {
      values: {
        name: trimmed, instant, type: type as string, module: module as string, args: args as string, playbook_id: playbookId,
        assets: JSON.stringify(assets), nodes: JSON.stringify(nodes), runas: runas as string, runas_policy: policy as string, timeout: timeout as number,
        chdir: chdir as string, comment, is_periodic: periodic, crontab, interval: crontab ? null : (interval as number | null),
        use_parameter_define: usesParameters as boolean, parameters_define: JSON.stringify(define),
      },
      playbookName,
    }
  }

  const saveVersion = async (db: typeof app.services.database.db, jobId: string, version: number, by: string) => {
    const j = await db.selectFrom('ops_jobs').select(JOB_FIELDS).select('playbook_id').where('id', '=', jobId).executeTakeFirstOrThrow()
    await db.insertInto('ops_job_versions').values({ job_id: jobId, version, data: JSON.stringify(j), created_by: by })
      .onConflict((oc) => oc.columns(['job_id', 'version']).doNothing()).execute()
  }

  app.post('/api/v1/ops/jobs/', async (req, reply) => {
    const user = requireUser(req)
    await requirePerm(req, 'ops.add_job')
    const body = (req.body ?? {}) as Record<string, unknown>
    const instant = body.instant === true
    if (instant || body.run_after_save === true) await requirePerm(req, 'ops.add_jobexecution')
    await commandExecutionOn(req)
    const { values } = await parseJob(req, body)
    // A run at once takes the parameters given (or their defaults): checked before anything is stored.
    const runNow = instant || body.run_after_save === true
    const parameters = runNow ? runValues(req, { use_parameter_define: values.use_parameter_define, parameters_define: JSON.parse(values.parameters_define) }, body.parameters) : {}
    const id = randomUUID()
    await req.ctx.db.transaction().execute(async (tx) => {
      await tx.insertInto('ops_jobs').values({ id, ...values, org_id: req.ctx.orgId, creator_id: user.id, created_by: userDisplay(user) }).execute()
      if (!values.instant) await saveVersion(tx, id, 1, userDisplay(user))
    })
    const runner = taskRunner(req.server)!
    await syncJobSchedule(req.ctx.db, id, runner.timeZone, runner.clock())
    const job = await ownJob(req, id)
    let taskId: string | undefined
    if (runNow) taskId = (await startExecution(req, job, parameters)).taskId
    reply.code(201)
    return { ...wireJob(job), ...(taskId ? { task_id: taskId } : {}) }
  })

  // Editing a saved job makes a new version when what it runs or where changes (JumpServer's `version`).
  const update = async (req: FastifyRequest) => {
    await requirePerm(req, 'ops.change_job')
    await commandExecutionOn(req)
    const user = requireUser(req)
    const job = await ownJob(req, (req.params as { id: string }).id)
    const body = (req.body ?? {}) as Record<string, unknown>
    const { values } = await parseJob(req, body, job)
    // (the definitions compared with their keys sorted: jsonb keeps its own key order)
    const keyOf = (v: Record<string, unknown>) => JSON.stringify([v.type, v.module, v.args, v.playbook_id, JSON.parse(JSON.stringify(v.assets)), JSON.parse(JSON.stringify(v.nodes)), v.runas, v.runas_policy, v.timeout, v.chdir,
      v.use_parameter_define, sorted(JSON.parse(String(v.parameters_define)))])
    const before = keyOf({ ...job, assets: JSON.stringify(job.assets), nodes: JSON.stringify(job.nodes), parameters_define: JSON.stringify(defineOf(job.parameters_define)) })
    const changed = before !== keyOf(values)
    const version = changed ? job.version + 1 : job.version
    await req.ctx.db.transaction().execute(async (tx) => {
      await tx.updateTable('ops_jobs').set({ ...values, version, date_updated: new Date() }).where('id', '=', job.id).execute()
      if (changed) await saveVersion(tx, job.id, version, userDisplay(user))
    })
    const runner = taskRunner(req.server)!
    await syncJobSchedule(req.ctx.db, job.id, runner.timeZone, runner.clock())
    return wireJob(await ownJob(req, job.id))
  }
  app.put('/api/v1/ops/jobs/:id/', (req) => update(req))
  app.patch('/api/v1/ops/jobs/:id/', (req) => update(req))

  app.get('/api/v1/ops/jobs/:id/versions/', async (req) => {
    await requirePerm(req, 'ops.view_job')
    const job = await ownJob(req, (req.params as { id: string }).id)
    const rows = await req.ctx.db.selectFrom('ops_job_versions').select(['version', 'data', 'created_by', 'date_created']).where('job_id', '=', job.id).orderBy('version', 'desc').execute()
    return rows
  })

  app.delete('/api/v1/ops/jobs/:id/', async (req, reply) => {
    await requirePerm(req, 'ops.delete_job')
    const job = await ownJob(req, (req.params as { id: string }).id)
    await req.ctx.db.deleteFrom('ops_jobs').where('id', '=', job.id).execute()
    await syncJobSchedule(req.ctx.db, job.id, 'UTC', new Date())
    reply.code(204)
    return null
  })

  app.get('/api/v1/ops/job-executions/', async (req) => {
    await requirePerm(req, 'ops.view_jobexecution')
    await failStaleExecutions(req.ctx.db)
    const user = requireUser(req)
    const q = req.query as { job_id?: string }
    const { limit, offset } = limits(req)
    let base = req.ctx.db.selectFrom('ops_job_executions as e').innerJoin('ops_jobs as j', 'j.id', 'e.job_id').where('e.creator_id', '=', user.id).where('e.org_id', '=', req.ctx.orgId)
    if (q.job_id) base = isUuid(q.job_id) ? base.where('e.job_id', '=', normUuid(q.job_id)) : base.where(sql<boolean>`false`)
    const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
    const rows = await base.selectAll('e').select(['j.name as job_name', 'j.instant as job_instant']).orderBy('e.date_created', 'desc').orderBy('e.id').limit(limit).offset(offset).execute()
    return page(req, total, rows.map((r) => serializeExecution(r as ExecRow, { id: r.job_id, name: r.job_name, instant: r.job_instant })))
  })

  app.post('/api/v1/ops/job-executions/', async (req, reply) => {
    await requirePerm(req, 'ops.add_jobexecution')
    await commandExecutionOn(req)
    const body = (req.body ?? {}) as { job?: unknown; parameters?: unknown }
    if (typeof body.job !== 'string') throw validationError({ job: [tr(req.ctx.lang, 'This field is required.')] })
    const job = await ownJob(req, body.job)
    const { id, taskId } = await startExecution(req, job, runValues(req, job, body.parameters))
    reply.code(201)
    return { id, task_id: taskId, job: job.id }
  })

  app.get('/api/v1/ops/job-executions/:id/', async (req) => {
    await requirePerm(req, 'ops.view_jobexecution')
    await failStaleExecutions(req.ctx.db)
    const e = await ownExecution(req, (req.params as { id: string }).id)
    const job = await req.ctx.db.selectFrom('ops_jobs').select(['id', 'name', 'instant']).where('id', '=', e.job_id).executeTakeFirst()
    return serializeExecution(e, job)
  })

  // Stop a run: the process running it hears the NOTIFY and aborts every host's connection.
  app.post('/api/v1/ops/job-executions/:id/stop/', async (req) => {
    await requirePerm(req, 'ops.change_jobexecution|ops.add_jobexecution')
    const e = await ownExecution(req, (req.params as { id: string }).id)
    if (FINISHED.includes(e.status)) throw detailError(400, tr(req.ctx.lang, 'The execution has already finished.'), 'finished')
    // Not started yet: the task finds `canceled` and runs nothing.
    await req.ctx.db.updateTable('ops_job_executions').set({ status: 'canceled' }).where('id', '=', e.id).where('status', '=', 'pending').execute()
    await req.server.services.database.notify(JOB_STOP_CHANNEL, e.id)
    return { id: e.id, task_id: e.task_id, status: 'canceling' }
  })

  app.get('/api/v1/ops/job-execution/task-detail/:taskId/', async (req) => {
    await requirePerm(req, 'ops.view_jobexecution')
    await failStaleExecutions(req.ctx.db)
    const e = await ownExecution(req, (req.params as { taskId: string }).taskId)
    const s = serializeExecution(e)
    return { status: e.status, is_finished: s.is_finished, is_success: s.is_success, time_cost: s.time_cost, job_id: e.job_id, summary: e.summary, result: e.result }
  })

  app.get('/api/v1/ops/job-execution/asset-detail/', async (req) => {
    await requirePerm(req, 'ops.view_jobexecution')
    const raw = String((req.query as { execution_id?: string }).execution_id ?? '')
    const e = await ownExecution(req, raw)
    const per = (e.asset_results ?? {}) as Record<string, { name: string; status: string; output: string; rc?: number | null }>
    return Object.entries(per).map(([id, r]) => ({ id, name: r.name, status: r.status, rc: r.rc ?? null, tasks: [{ name: 'shell', output: r.output }] }))
  })

  app.get('/api/v1/ops/ansible/job-execution/:id/log/', async (req) => {
    await requirePerm(req, 'ops.view_jobexecution')
    const e = await ownExecution(req, (req.params as { id: string }).id)
    const rawMark = String((req.query as { mark?: unknown }).mark ?? '')
    const mark = /^\d{1,15}$/.test(rawMark) ? Number(rawMark) : 0
    const slice = await readLog(req.ctx.db, e.task_id, mark)
    return { data: slice.data.replace(/\r?\n/g, '\r\n'), end: slice.end, mark: String(slice.mark), status: e.status }
  })

  app.get('/api/v1/ops/variables/help/', async (req) => {
    await requirePerm(req, 'ops.view_job')
    return { jms_asset: ['id', 'name', 'address', 'type', 'category', 'protocol', 'port', 'spec_info', 'secret_info', 'org_id', 'org_name'].map((f) => `jms_asset.${f}`), jms_account: ['jms_account.id', 'jms_account.name', 'jms_account.username', 'jms_account.secret_type'], blacklist: BLACKLIST }
  })

  app.get('/api/v1/ops/frequent-username/', async (req) => {
    await requirePerm(req, 'ops.view_job')
    const rows = await sql<{ username: string }>`select username from accounts where org_id = ${req.ctx.orgId} group by username order by count(*) desc, username limit 5`.execute(req.ctx.db)
    return rows.rows.map((r) => r.username)
  })
}
