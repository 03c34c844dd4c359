/**
 * "Test connectivity" as background tasks (docs/tasks.md) and the calls that start them, where JumpServer 3.2
 * and its console put them (contract §5.2):
 *   POST /api/v1/assets/assets/<id>/tasks/   {action: "test"}            → {task}
 *   POST /api/v1/assets/assets/tasks/        {action: "test", assets: […]} → {task}
 *   POST /api/v1/assets/nodes/<id>/tasks/    {action: "test"}            → {task} (the node's assets, descendants included)
 *   POST /api/v1/assets/gateways/<id>/test-connective/ {port?}           → {task}
 * All need `assets.test_assetconnectivity` (JumpServer 3.2's codename, gateways included). The work is in
 * server/automation/connectivity.ts. The same `tasks/` calls with `{action: "refresh"}` (permission
 * `assets.refresh_assethardwareinfo`) refresh the hardware info of the assets (server/automation/facts.ts).
 */
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { testConnectivity } from '../../automation/connectivity.ts'
import { gatherFacts } from '../../automation/facts.ts'
import { requirePerm } from '../../http/context.ts'
import { userDisplay } from '../../engine/audit.ts'
import type { RowOf } from '../../db/connection.ts'
import type { ActionDef } from '../../engine/types.ts'
import { bodyObject, refId } from '../../http/body.ts'
import { detailError, validationError } from '../../http/errors.ts'
import { tr } from '../../i18n.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { defineTask } from '../../tasks/kinds.ts'
import { taskRunner } from '../../tasks/service.ts'
import { assets } from './assets.ts'
import { gateways } from './domains.ts'
import { nodes, nodeTree } from './nodes.ts'
import './net-messages.ts'

const PERM = 'assets.test_assetconnectivity'
const REFRESH_PERM = 'assets.refresh_assethardwareinfo'
/** The tasks endpoints take either action; each is then checked against its own permission. */
const TASKS_PERM = `${PERM}|${REFRESH_PERM}`
const isUuid = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)

export const testAssetsConnectivity = defineTask({
  name: 'assets.tasks.ping.test_assets_connectivity_task',
  displayName: 'Test assets connectivity',
  async run(ctx) {
    const kw = ctx.kwargs as { asset_ids?: string[]; node_id?: string; org_id?: string }
    let ids = (kw.asset_ids ?? []).filter(isUuid)
    if (kw.node_id) {
      const node = await nodeTree.byId(ctx.db, kw.node_id)
      if (!node) throw new Error('The node no longer exists')
      await ctx.log(`>>> Node ${node.full_value}`)
      const r = await sql<{ id: string }>`select t.id from assets t where ${nodeTree.memberCond(node, true)}`.execute(ctx.db)
      ids = r.rows.map((x) => x.id)
    }
    const { ok, failed } = await testConnectivity(ctx.db, ids, { log: ctx.log, now: ctx.now, signal: ctx.signal })
    return { ok: ok.length, failed: failed.length }
  },
})

/** "refresh": the hosts' hardware info over SSH (server/automation/facts.ts). */
export const refreshHardwareInfo = defineTask({
  name: 'assets.tasks.gather_facts.update_assets_hardware_info_manual',
  displayName: 'Update assets hardware info',
  async run(ctx) {
    const kw = ctx.kwargs as { asset_ids?: string[]; node_id?: string }
    let ids = (kw.asset_ids ?? []).filter(isUuid)
    if (kw.node_id) {
      const node = await nodeTree.byId(ctx.db, kw.node_id)
      if (!node) throw new Error('The node no longer exists')
      await ctx.log(`>>> Node ${node.full_value}`)
      ids = (await sql<{ id: string }>`select t.id from assets t where ${nodeTree.memberCond(node, true)}`.execute(ctx.db)).rows.map((x) => x.id)
    }
    const { ok, failed } = await gatherFacts(ctx.db, ids, { log: ctx.log, now: ctx.now, signal: ctx.signal })
    return { ok: ok.length, failed: failed.length }
  },
})

export const testGatewaysConnectivity = defineTask({
  name: 'assets.tasks.ping_gateway.test_gateways_connectivity_task',
  displayName: 'Test gateways connectivity',
  async run(ctx) {
    const kw = ctx.kwargs as { asset_ids?: string[]; port?: number }
    const port = Number.isInteger(kw.port) ? kw.port : undefined
    const { ok, failed } = await testConnectivity(ctx.db, (kw.asset_ids ?? []).filter(isUuid), { log: ctx.log, now: ctx.now, signal: ctx.signal, portOverride: port })
    return { ok: ok.length, failed: failed.length }
  },
})

async function start(req: FastifyRequest, name: string, kwargs: Record<string, unknown>): Promise<{ task: string }> {
  const runner = taskRunner(req.server)
  if (!runner) throw detailError(503, 'Background tasks are not running', 'task_runner_unavailable')
  const user = req.ctx.user!
  const task = await runner.enqueue(name, { kwargs, creatorId: user.id, creator: userDisplay(user), lang: req.ctx.lang })
  return { task }
}

/** The body's action (test or refresh), after checking the permission of that action: its task's name. */
async function action(req: FastifyRequest): Promise<string> {
  const a = bodyObject(req).action
  if (a === 'test' || a === 'refresh') {
    await requirePerm(req, a === 'test' ? PERM : REFRESH_PERM)
    return a === 'test' ? testAssetsConnectivity.name : refreshHardwareInfo.name
  }
  throw validationError({ action: [tr(req.ctx.lang, '"{input}" is not a valid choice.', { input: String(a ?? '') })] })
}

const assetActions: Array<ActionDef<RowOf<'assets'>>> = [
  {
    path: 'tasks', detail: true, method: 'POST', perm: TASKS_PERM,
    async handler(req, reply, api, id) {
      const task = await action(req)
      const row = await api.getObject(req, id!)
      return reply.status(201).send(await start(req, task, { asset_ids: [row.id] }))
    },
  },
  {
    path: 'tasks', detail: false, method: 'POST', perm: TASKS_PERM,
    async handler(req, reply) {
      const task = await action(req)
      const given = bodyObject(req).assets ?? []
      if (!Array.isArray(given) || !given.length) throw validationError({ assets: [tr(req.ctx.lang, 'This list may not be empty.')] })
      const wanted = given.map(refId).filter(isUuid)
      // only assets the request's organization shows
      const visible = new Set((await sql<{ id: string }>`select t.id from assets t where t.id = any(${wanted}::uuid[])
        ${req.ctx.orgId === ORG_IDS.ROOT ? sql`` : sql`and t.org_id = ${req.ctx.orgId}`}`.execute(req.ctx.db)).rows.map((r) => r.id))
      const missing = given.find((x, i) => !isUuid(wanted[i]) || !visible.has(wanted[i]!))
      if (missing !== undefined) throw validationError({ assets: [tr(req.ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: String(typeof missing === 'object' ? JSON.stringify(missing) : missing) })] })
      return reply.status(201).send(await start(req, task, { asset_ids: [...visible] }))
    },
  },
]

const nodeActions: Array<ActionDef<RowOf<'nodes'>>> = [{
  path: 'tasks', detail: true, method: 'POST', perm: TASKS_PERM,
  async handler(req, reply, api, id) {
    const task = await action(req)
    const node = await api.getObject(req, id!)
    return reply.status(201).send(await start(req, task, { node_id: node.id }))
  },
}]

const gatewayActions: Array<ActionDef<RowOf<'assets'>>> = [{
  path: 'test-connective', detail: true, method: 'POST', perm: PERM,
  async handler(req, reply, api, id) {
    const gateway = await api.getObject(req, id!)
    const raw = bodyObject(req).port
    let port: number | undefined
    if (raw !== undefined && raw !== null && raw !== '') {
      port = Number(raw)
      if (!Number.isInteger(port) || port < 1 || port > 65535) throw validationError({ port: [tr(req.ctx.lang, 'Ensure the port is a number between 1 and 65535.')] })
    }
    return reply.status(201).send(await start(req, testGatewaysConnectivity.name, { asset_ids: [gateway.id], ...(port ? { port } : {}) }))
  },
}]

function addActions<R>(def: { actions?: Array<ActionDef<R>> }, actions: Array<ActionDef<R>>): void {
  def.actions = [...(def.actions ?? []), ...actions.filter((a) => !def.actions?.some((b) => b.path === a.path && b.detail === a.detail && b.method === a.method))]
}

addActions(assets, assetActions)
addActions(nodes, nodeActions)
addActions(gateways, gatewayActions)
