/**
 * One sync of a sync instance task (docs/cloud.md): the provider's instances of the task's regions become assets
 * under the task's node. Idempotent: an unchanged network changes nothing; an instance whose address changed
 * updates its asset; an instance no longer found is released (its asset deleted) or marked, as the task says.
 * Assets that are not linked to the task's node are never touched.
 *
 * Instance status (`cloud_instances.status`, lina's 0–3): 0 new (asset created by this run), 1 sync (asset in
 * step), 2 unsync (found but not imported: no address of the wanted kind, outside the IP segment group, or its
 * asset left the node), 3 released (no longer found).
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { addMessages } from '../i18n.ts'
import { nodeTree } from '../resources/assets/nodes.ts'
import { openSecret } from '../resources/accounts/secrets.ts'
import { getSetting } from '../settings/store.ts'
import { defineTask, type TaskContext } from '../tasks/kinds.ts'
import { parseRange, DEFAULT_ALLOWED, ipToInt } from './netscan.ts'
import { PROVIDERS, ProviderRefusal, type CloudInstance, type ProviderContext } from './providers.ts'

addMessages({ 'Sync cloud instances': ['同步云实例', 'クラウドインスタンスを同期'] })

export const SYNC_TASK = 'xpack.cloud.tasks.sync_instance_task'
export const STATUS = { new: 0, sync: 1, unsync: 2, released: 3 } as const

export interface SyncTaskRow {
  id: string; org_id: string; name: string; account_id: string; regions: string[]; node_id: string
  hostname_strategy: string; protocols: Array<{ name: string; port: number }>; ip_network_segment_group: string[]
  sync_ip_type: number; is_always_update: boolean; release_assets: boolean
}

export async function allowedNetworks(db: DB): Promise<string[]> {
  const v = await getSetting<unknown>(db, 'CLOUD_SCAN_ALLOWED_NETWORKS')
  return Array.isArray(v) ? v.map(String) : DEFAULT_ALLOWED
}

/** The provider context of a cloud account row (secrets opened). */
export async function providerContext(db: DB, account: { id: string; attrs: unknown; secret_attrs: string }, log: (t: string) => Promise<void>, signal?: AbortSignal): Promise<ProviderContext> {
  const plain = openSecret(db, 'cloud_accounts', account.id, 'secret_attrs', account.secret_attrs)
  return { attrs: (account.attrs ?? {}) as Record<string, unknown>, secrets: plain ? JSON.parse(plain) as Record<string, string> : {}, allowedNetworks: await allowedNetworks(db), log, signal }
}

const inGroup = (ip: string, group: string[]) => {
  if (!group.length || group.includes('*')) return true
  const n = ipToInt(ip)
  return n !== undefined && group.some((g) => { const r = parseRange(g); return !!r && n >= r.from && n <= r.to })
}

interface Summary { new: number; sync: number; unsync: number; released: number }

export async function runSync(db: DB, taskId: string, o: { log(t: string): Promise<void>; signal?: AbortSignal; celeryTaskId?: string; now?: () => Date }): Promise<{ summary: Summary; execution: string }> {
  const now = o.now ?? (() => new Date())
  const task = (await sql<SyncTaskRow>`select * from cloud_sync_tasks where id = ${taskId}`.execute(db)).rows[0]
  if (!task) throw new Error(`sync task ${taskId} does not exist`)
  const account = (await sql<{ id: string; provider: string; attrs: unknown; secret_attrs: string }>`select id, provider, attrs, secret_attrs from cloud_accounts where id = ${task.account_id}`.execute(db)).rows[0]!
  const provider = PROVIDERS[account.provider]
  const execution = randomUUID()
  const summary: Summary = { new: 0, sync: 0, unsync: 0, released: 0 }
  const finish = async (status: number, reason = '') => {
    await sql`insert into cloud_sync_executions (id, org_id, task_id, status, summary, reason, celery_task_id, date_sync)
      values (${execution}, ${task.org_id}, ${task.id}, ${status}, ${JSON.stringify(summary)}::jsonb, ${reason}, ${o.celeryTaskId ?? null}, ${now()})`.execute(db)
    await sql`update cloud_sync_tasks set date_last_sync = ${now()} where id = ${task.id}`.execute(db)
  }
  if (!provider) {
    await o.log(`The provider "${account.provider}" cannot be synced by this server.`)
    await finish(0, 'provider not available')
    throw new Error(`provider ${account.provider} not available`)
  }
  const pctx = await providerContext(db, account, o.log, o.signal)
  // every region is checked before the first probe
  try {
    provider.validate?.({ ...pctx, attrs: { ...pctx.attrs, ip_group: task.regions } })
  } catch (e) {
    const msg = e instanceof ProviderRefusal ? e.message.replace(/\{(\w+)\}/g, (_, k: string) => e.params[k] ?? '') : String(e)
    await o.log(`Refused: ${msg}`)
    await finish(0, msg)
    throw e
  }
  const node = (await sql<{ id: string; key: string }>`select id, key from nodes where id = ${task.node_id} and org_id = ${task.org_id}`.execute(db)).rows[0]
  if (!node) { await finish(0, 'node not found'); throw new Error('the task\'s node does not exist') }

  const found: Array<CloudInstance & { region: string }> = []
  for (const region of task.regions) {
    await o.log(`Region ${region}: listing instances`)
    for (const i of await provider.instances(pctx, region)) found.push({ ...i, region })
  }
  const platforms = new Map((await sql<{ id: number; name: string; category: string; type: string }>`select id, name, category, type from platforms`.execute(db)).rows.map((p) => [p.name, p]))
  const inNode = async (assetId: string) => !!(await sql`select 1 from asset_nodes where asset_id = ${assetId} and node_id = ${node.id}`.execute(db)).rows.length
  const seen = new Set<string>()

  for (const inst of found) {
    seen.add(inst.id)
    const ips = task.sync_ip_type === 1 ? inst.publicIps : inst.privateIps
    const ip = ips.find((x) => inGroup(x, task.ip_network_segment_group))
    const record = (await sql<{ id: string; asset_id: string | null }>`select id, asset_id from cloud_instances where task_id = ${task.id} and instance_id = ${inst.id}`.execute(db)).rows[0]
    const upsert = async (status: number, assetId: string | null, address: string) => {
      await sql`insert into cloud_instances (id, org_id, task_id, instance_id, region, asset_id, asset_ip, status, date_sync)
        values (${randomUUID()}, ${task.org_id}, ${task.id}, ${inst.id}, ${inst.region}, ${assetId}, ${address}, ${status}, ${now()})
        on conflict (task_id, instance_id) do update set region = excluded.region, asset_id = excluded.asset_id, asset_ip = excluded.asset_ip, status = excluded.status, date_sync = excluded.date_sync`.execute(db)
    }
    if (!ip) {
      summary.unsync++
      await o.log(`${inst.name}: no address of the wanted kind inside the IP segment group; not imported`)
      await upsert(STATUS.unsync, record?.asset_id ?? null, '')
      continue
    }
    const platform = platforms.get(inst.platform) ?? platforms.get('Linux')!
    const protocols = inst.protocols.length ? inst.protocols : task.protocols.length ? task.protocols : [{ name: 'ssh', port: 22 }]
    const name = task.hostname_strategy === 'ip' ? ip : inst.name
    let assetId = record?.asset_id ?? null
    if (assetId && !(await sql`select 1 from assets where id = ${assetId}`.execute(db)).rows.length) assetId = null
    if (assetId && !(await inNode(assetId))) {
      summary.unsync++
      await o.log(`${inst.name}: its asset left the node; not touched`)
      await upsert(STATUS.unsync, assetId, ip)
      continue
    }
    if (!assetId) {
      // an asset with this address already under the node is adopted, not duplicated
      const same = (await sql<{ id: string }>`select a.id from assets a join asset_nodes an on an.asset_id = a.id and an.node_id = ${node.id}
        where a.org_id = ${task.org_id} and a.address = ${ip} and not exists (select 1 from cloud_instances ci where ci.asset_id = a.id and ci.task_id = ${task.id})
        order by a.date_created limit 1`.execute(db)).rows[0]
      assetId = same?.id ?? null
    }
    if (!assetId) {
      const id = randomUUID()
      let candidate = name
      for (let k = 2; (await sql`select 1 from assets where org_id = ${task.org_id} and name = ${candidate}`.execute(db)).rows.length; k++) candidate = `${name}-${k}`
      await db.transaction().execute(async (tx) => {
        await sql`insert into assets (id, org_id, name, address, platform_id, category, type, created_by, comment)
          values (${id}, ${task.org_id}, ${candidate}, ${ip}, ${platform.id}, ${platform.category}, ${platform.type}, ${'Cloud sync'}, ${`${task.name}: ${inst.region}`})`.execute(tx)
        for (const p of protocols) await sql`insert into asset_protocols (asset_id, name, port) values (${id}, ${p.name}, ${p.port})`.execute(tx)
        await nodeTree.placeMember(tx, task.org_id, id, [node.id])
      })
      summary.new++
      await o.log(`${inst.name}: new asset ${candidate} (${ip}, ${platform.name}, ${protocols.map((p) => `${p.name}/${p.port}`).join(' ')})`)
      await upsert(STATUS.new, id, ip)
      continue
    }
    // an existing asset: the address always follows the instance; the rest when the task says so
    const cur = (await sql<{ address: string; platform_id: number; name: string; protocols: string }>`select address, platform_id, name,
        coalesce((select string_agg(ap.name || '/' || ap.port, ' ' order by ap.name, ap.port) from asset_protocols ap where ap.asset_id = a.id), '') as protocols
      from assets a where id = ${assetId}`.execute(db)).rows[0]!
    const wanted = [...protocols].sort((x, y) => x.name.localeCompare(y.name) || x.port - y.port).map((p) => `${p.name}/${p.port}`).join(' ')
    const changes: string[] = []
    await db.transaction().execute(async (tx) => {
      if (cur.address !== ip) {
        await sql`update assets set address = ${ip}, date_updated = now() where id = ${assetId}`.execute(tx)
        changes.push(`address ${cur.address} → ${ip}`)
      }
      if (task.is_always_update) {
        if (cur.platform_id !== platform.id) {
          await sql`update assets set platform_id = ${platform.id}, category = ${platform.category}, type = ${platform.type}, date_updated = now() where id = ${assetId}`.execute(tx)
          changes.push(`platform → ${platform.name}`)
        }
        if (cur.protocols !== wanted) {
          await sql`delete from asset_protocols where asset_id = ${assetId}`.execute(tx)
          for (const p of protocols) await sql`insert into asset_protocols (asset_id, name, port) values (${assetId}, ${p.name}, ${p.port})`.execute(tx)
          changes.push(`protocols → ${wanted}`)
        }
      }
    })
    summary.sync++
    await o.log(`${inst.name}: ${changes.length ? `updated (${changes.join(', ')})` : 'unchanged'}`)
    await upsert(STATUS.sync, assetId, ip)
  }

  // instances recorded before and not found now
  const gone = (await sql<{ id: string; instance_id: string; asset_id: string | null; status: number }>`select id, instance_id, asset_id, status from cloud_instances
    where task_id = ${task.id}`.execute(db)).rows.filter((r) => !seen.has(r.instance_id))
  for (const g of gone) {
    if (g.status === STATUS.released && !g.asset_id) continue
    if (task.release_assets && g.asset_id && (await inNode(g.asset_id))) {
      await deleteAssets(db, [g.asset_id])
      await o.log(`${g.instance_id}: no longer found; its asset is released (deleted)`)
      await sql`update cloud_instances set status = ${STATUS.released}, asset_id = null, date_sync = ${now()} where id = ${g.id}`.execute(db)
      summary.released++
    } else if (g.status !== STATUS.released) {
      await o.log(`${g.instance_id}: no longer found; marked released${g.asset_id ? ' (its asset is kept)' : ''}`)
      await sql`update cloud_instances set status = ${STATUS.released}, date_sync = ${now()} where id = ${g.id}`.execute(db)
      summary.released++
    }
  }
  await o.log(`Summary: new ${summary.new}, sync ${summary.sync}, unsync ${summary.unsync}, released ${summary.released}`)
  await finish(1)
  return { summary, execution }
}

/** Deletes assets and their links (the cascade of the assets table). */
export async function deleteAssets(db: DB, ids: string[]): Promise<void> {
  if (!ids.length) return
  await sql`delete from assets where id = any(${ids}::uuid[])`.execute(db)
}

defineTask({
  name: SYNC_TASK,
  displayName: 'Sync cloud instances',
  family: true,
  async run(ctx: TaskContext) {
    const id = ctx.name.startsWith(`${SYNC_TASK}:`) ? ctx.name.slice(SYNC_TASK.length + 1) : String(ctx.kwargs.task_id ?? '')
    if (!(await sql`select 1 from cloud_sync_tasks where id = ${id}`.execute(ctx.db)).rows.length) return { skipped: true }
    const r = await runSync(ctx.db, id, { log: ctx.log, signal: ctx.signal, celeryTaskId: ctx.id, now: ctx.now })
    return r.summary
  },
})
