/**
 * How a job execution runs (docs/jobs.md; JumpServer 3.2's `JobExecution.start`): the assets are expanded again
 * to those the creator is granted now (the rest are `excludes`, never touched), each asset's account is chosen by
 * `runas` + `runas_policy` among the accounts the creator's permissions grant, the command is checked against the
 * first-word blacklist and the command filter ACLs, then run over SSH on each host (through the one SSH-target
 * resolver, gateways and host keys included) with bounded parallelism and a per-host timeout. The result and
 * summary have JumpServer's shapes.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { openTunnel, SshError, sshLogin, withSsh, type Tunnel } from '../automation/ssh.ts'
import type { DB } from '../db/connection.ts'
import { loadCommandAcls } from '../resources/acls/asset-acls.ts'
import { decideCommand } from '../resources/acls/decide.ts'
import { assetGrant, ensureUserGrants } from '../resources/perms/grants.ts'
import { accountCredential, credentialTarget, knownHostKey, loadAssets, reachAll, recordHostKey } from '../ssh/target.ts'
import { defineTask, TaskFailed, type TaskContext } from '../tasks/kinds.ts'
import { addMessages } from '../i18n.ts'
import { openSystemTicket, systemClose, waitForDecision } from '../tickets/gate.ts'
import type { Services } from '../tickets/notify.ts'
import { inventoryName, runAnsiblePlaybook, type PlaybookHost } from './ansible.ts'
import { checkParameterValues, defineOf, shellQuote, substituteParameters } from './parameters.ts'
import { dangerousKeywords, playbookDir } from './playbooks.ts'
import { nextRun, parseCron } from '../tasks/schedule.ts'

export { parseCron }

export const RUN_JOB_TASK = 'ops.tasks.run_ops_job_execution'
/** `NOTIFY ops_job_stop, <execution id>`: the process running it aborts it. */
export const JOB_STOP_CHANNEL = 'ops_job_stop'
/** JumpServer's first-word blacklist of adhoc commands. */
export const BLACKLIST = ['reboot', 'shutdown', 'poweroff', 'halt', 'dd', 'top']
/** Characters of one host's output kept in the execution and its log. */
const OUTPUT_KEEP = 32 * 1024
export const RUNAS_POLICIES = ['skip', 'privileged_first', 'privileged_only'] as const

/** Tunables (the app sets them from its config: JOB_PARALLELISM, JOB_HOST_TIMEOUT). */
export const jobSettings: {
  parallelism: number; hostTimeoutSeconds: number; connectTimeoutMs: number; playbookTimeoutSeconds: number
  /** The app's services (set by registerJobs): a review ACL opens its command-confirm ticket with them. */
  services?: Services; log?: { warn(m: string): void }
} = { parallelism: 10, hostTimeoutSeconds: 60, connectTimeoutMs: 10_000, playbookTimeoutSeconds: 3600 }

/** The blacklisted word a command starts with (each line and each `;`, `&&`, `||`, `|` part), or undefined. */
export function blacklisted(command: string): string | undefined {
  for (const part of command.split(/\n|;|&&|\|\||\|/)) {
    // Quotes and backslashes do not hide the word from the shell (`'reboot'`, `re\\boot`): nor from this check.
    const first = part.trim().split(/\s+/)[0]?.replace(/['"\\]/g, '').replace(/^.*\//, '') ?? ''
    if (BLACKLIST.includes(first)) return first
  }
  return undefined
}

export interface JobRow {
  id: string; name: string; module: string; args: string; assets: unknown; nodes: unknown; runas: string; runas_policy: string
  timeout: number; chdir: string; org_id: string; creator_id: string; created_by: string; type: string; playbook_id: string | null
}

/** The assets of a job that its creator is granted now (assets + assets under the nodes), and those that are not. */
export async function expandAssets(db: DB, userId: string, orgId: string, assets: string[], nodes: string[]): Promise<{ granted: string[]; excluded: string[] }> {
  await ensureUserGrants(db, userId, orgId)
  const rows = (await sql<{ asset_id: string }>`select g.asset_id from perm_user_assets g where g.user_id = ${userId} and g.org_id = ${orgId}
      and (g.asset_id = any(${assets}::uuid[]) or g.asset_id in (select an.asset_id from asset_nodes an join nodes leaf on leaf.id = an.node_id
        join nodes n on n.id = any(${nodes}::uuid[]) where leaf.key = n.key or leaf.key like n.key || ':%'))`.execute(db)).rows
  const granted = [...new Set(rows.map((r) => r.asset_id))]
  const set = new Set(granted)
  return { granted, excluded: assets.filter((a) => !set.has(a)) }
}

interface Chosen { id: string; username: string }

/** JumpServer's account selection (`JMSInventory.select_account`) among the granted real accounts of an asset. */
export async function chooseAccount(db: DB, userId: string, username: string, orgId: string, assetId: string, runas: string, policy: string): Promise<Chosen | undefined> {
  const grant = await assetGrant(db, { kind: 'user', id: userId }, orgId, assetId, username)
  const ids = (grant?.accounts ?? []).filter((a) => a.id && a.has_secret).map((a) => a.id!)
  if (!ids.length) return undefined
  const rows = await db.selectFrom('accounts').select(['id', 'username', 'privileged']).where('id', 'in', ids).orderBy('username').orderBy('id').execute()
  const privileged = rows.filter((a) => a.privileged)
  const pick = (list: typeof rows) => list.find((a) => a.username === runas)
  let chosen: (typeof rows)[number] | undefined
  if (policy === 'privileged_only' || policy === 'privileged_first') chosen = pick(privileged) ?? privileged[0]
  if (!chosen && policy !== 'privileged_only') chosen = pick(rows)
  return chosen ? { id: chosen.id, username: chosen.username } : undefined
}

export interface HostResult { name: string; status: 'ok' | 'failed' | 'dark' | 'skipped' | 'excluded'; output: string; rc?: number | null }

const asArray = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])

async function runExecution(ctx: TaskContext, executionId = String(ctx.kwargs.execution_id ?? '')): Promise<unknown> {
  const { db } = ctx
  const ex = await db.selectFrom('ops_job_executions').selectAll().where('id', '=', executionId).executeTakeFirst()
  if (!ex) throw new Error(`job execution ${executionId} not found`)
  // "Run again" of the task (Settings → Tasks) would run a finished execution a second time: run the job instead.
  if (ex.task_id !== ctx.id) throw new Error('this job execution belongs to another task: run the job again instead')
  const job = await db.selectFrom('ops_jobs').selectAll().where('id', '=', ex.job_id).executeTakeFirstOrThrow()
  // The run's parameter values (checked when it was asked for; checked again against the job as it is now).
  const define = job.use_parameter_define ? defineOf(job.parameters_define) : {}
  const checked = Object.keys(define).length ? checkParameterValues(define, ex.parameters ?? {}, ctx.lang) : { values: {} as Record<string, string> }
  const values = 'values' in checked ? checked.values : {}
  const command = job.type === 'playbook' ? ex.material : substituteParameters(job.args, values)
  const rawCommand = job.type === 'playbook' ? command : substituteParameters(job.args, values, (v) => v)
  const now = () => ctx.now()
  // A stop that arrived before the run began leaves the row `canceled`: nothing runs.
  const started = await db.updateTable('ops_job_executions').set({ status: 'running', date_start: now() }).where('id', '=', ex.id).where('status', '<>', 'canceled').executeTakeFirst()
  if (Number(started.numUpdatedRows) === 0) {
    await ctx.log(ctx.t('The job was stopped before it started'))
    await db.updateTable('ops_job_executions').set({ date_finished: now(), summary: JSON.stringify({ error: 'stopped' }) }).where('id', '=', ex.id).execute()
    return { status: 'canceled' }
  }

  const results = new Map<string, HostResult>()
  const summary = { ok: [] as string[], failures: {} as Record<string, string>, dark: {} as Record<string, string>, skipped: [] as string[], excludes: {} as Record<string, string>, error: '' }
  const finish = async (status: string, error = '') => {
    if (error) summary.error = error
    const result = { ok: summary.ok.length ? summary.ok : [], failures: summary.failures, dark: summary.dark, skipped: summary.skipped, excludes: summary.excludes }
    await db.updateTable('ops_job_executions').set({
      status, date_finished: now(), result: JSON.stringify(result), summary: JSON.stringify(summary),
      asset_results: JSON.stringify(Object.fromEntries(results)),
    }).where('id', '=', ex.id).execute()
    return { status, summary }
  }

  // Stopping: a NOTIFY from whichever process received the stop request.
  const stop = new AbortController()
  const onParent = () => stop.abort(ctx.signal.reason)
  ctx.signal.addEventListener('abort', onParent, { once: true })
  const unlisten = await ctx.database.listen(JOB_STOP_CHANNEL, (payload) => { if (payload === ex.id) stop.abort(new Error('stopped')) })
  try {
    await ctx.log(job.type === 'playbook'
      ? `>>> Job ${job.name}: playbook "${command}" as ${job.runas} (${job.runas_policy})`
      : `>>> Job ${job.name}: ${job.module} "${command}" as ${job.runas} (${job.runas_policy})`)
    if ('errors' in checked) {
      const text = Array.isArray(checked.errors) ? checked.errors.join(' ') : Object.entries(checked.errors).map(([k, v]) => `${k}: ${v.join(' ')}`).join('; ')
      const msg = ctx.t('The parameter values do not fit the job: {errors}', { errors: text })
      await ctx.log(msg)
      return await finish('failed', msg)
    }
    if (job.type === 'playbook') {
      // JumpServer's dangerous keywords (and our forbidden plugin folders): refused before anything runs.
      const found = job.playbook_id ? dangerousKeywords(playbookDir(job.playbook_id)) : []
      if (!job.playbook_id || !existsSync(join(playbookDir(job.playbook_id), 'main.yml'))) {
        await ctx.log('The playbook has no main.yml')
        return await finish('failed', 'The playbook has no main.yml')
      }
      if (found.length) {
        const text = found.map((f) => `${f.file}${f.line ? `:${f.line}` : ''}: ${f.keyword}`).join('; ')
        await ctx.log(`The playbook uses forbidden keywords: ${text}`)
        return await finish('failed', `Forbidden keywords: ${text}`)
      }
    }
    const word = job.type === 'adhoc' ? blacklisted(command) : undefined
    if (word) {
      await ctx.log(ctx.t('The command "{word}" is not allowed to run in a job', { word }))
      return await finish('failed', ctx.t('The command "{word}" is not allowed', { word }))
    }
    const { granted, excluded } = await expandAssets(db, job.creator_id, job.org_id, asArray(job.assets), asArray(job.nodes))
    for (const id of excluded) {
      summary.excludes[id] = 'not permitted'
      results.set(id, { name: id, status: 'excluded', output: 'not permitted' })
      await ctx.log(`${id} | EXCLUDED | ${ctx.t('the asset is not granted to {user}', { user: job.created_by })}`)
    }
    const assets = await loadAssets(db, granted)
    const user = await db.selectFrom('users').select(['username']).where('id', '=', job.creator_id).executeTakeFirst()
    const username = user?.username ?? ''
    // Accounts and ACLs first: a refused command touches no host.
    const acls = await loadCommandAcls(db, job.org_id)
    const plan: Array<{ asset: (typeof assets)[number]; account: Chosen }> = []
    for (const a of assets) {
      const account = await chooseAccount(db, job.creator_id, username, job.org_id, a.id, job.runas, job.runas_policy)
      if (!account) {
        summary.skipped.push(a.name)
        results.set(a.id, { name: a.name, status: 'skipped', output: `no granted account for runas ${job.runas} (${job.runas_policy})` })
        await ctx.log(`${a.name} | SKIPPED | ${ctx.t('no granted account for runas {runas} ({policy})', { runas: job.runas, policy: job.runas_policy })}`)
        continue
      }
      if (job.type === 'adhoc') {
        // The ACLs read the command as it runs and, with parameters, as if the values were written in it unquoted:
        // a rule on `rm -rf` is not passed by a value `-rf` quoted into `rm '-rf'`. The stricter answer holds.
        const subject = { user: username, asset: a, account: account.username }
        const decisions = [decideCommand(acls, subject, command), ...(rawCommand !== command ? [decideCommand(acls, subject, rawCommand)] : [])]
        const d = decisions.find((x) => x.action === 'reject') ?? decisions.find((x) => x.action === 'review') ?? decisions[0]!
        if (d.action === 'reject' || (d.action === 'review' && !d.acl)) {
          const msg = ctx.t('Command rejected by ACL: {acl} ({action})', { acl: d.acl?.name ?? '', action: d.action })
          await ctx.log(msg)
          return await finish('failed', msg)
        }
        if (d.action === 'review' && d.acl) {
          const answer = await review(ctx, { ...job, creator_id: job.creator_id }, a, account.username, command, d.acl, stop.signal)
          if (answer !== 'approved') {
            const msg = `Command rejected by ACL: ${d.acl.name} (review: ${answer})`
            await ctx.log(msg)
            return await finish(stop.signal.aborted ? 'canceled' : 'failed', msg)
          }
        }
      }
      plan.push({ asset: a, account })
    }
    if (stop.signal.aborted) {
      await ctx.log(ctx.t('The job was stopped'))
      return await finish('canceled', 'stopped')
    }

    const reaches = await reachAll(db, plan.map((p) => p.asset))
    if (job.type === 'playbook') {
      await runPlaybookPlan(ctx, ex.id, job, plan, reaches, stop.signal, results, summary, values)
      for (const p of plan) if (!results.has(p.asset.id)) results.set(p.asset.id, { name: p.asset.name, status: 'skipped', output: 'not run' })
      if (stop.signal.aborted) {
        await ctx.log('The job was stopped')
        return await finish('canceled', 'stopped')
      }
      const bad = Object.keys(summary.failures).length + Object.keys(summary.dark).length
      await ctx.log(`>>> ok: ${summary.ok.length}, failures: ${Object.keys(summary.failures).length}, dark: ${Object.keys(summary.dark).length}, skipped: ${summary.skipped.length}, excludes: ${Object.keys(summary.excludes).length}`)
      return await finish(bad === 0 && summary.ok.length > 0 && !summary.error ? 'success' : 'failed')
    }
    const hostTimeout = job.timeout > 0 ? job.timeout * 1000 : jobSettings.hostTimeoutSeconds * 1000
    const shellCommand = job.chdir ? `cd ${shellQuote(job.chdir)} && ${command}` : command
    const runOne = async ({ asset, account }: (typeof plan)[number]) => {
      const reach = reaches.get(asset.id)!
      const record = async (status: HostResult['status'], full: string, rc?: number | null) => {
        // What is stored and logged per host is bounded (the log keeps 64 KiB a piece anyway).
        const output = full.length > OUTPUT_KEEP ? `${full.slice(0, OUTPUT_KEEP)}\n… (${full.length - OUTPUT_KEEP} more characters left out)\n` : full
        results.set(asset.id, { name: asset.name, status, output, rc })
        if (status === 'ok') summary.ok.push(asset.name)
        else if (status === 'failed') summary.failures[asset.name] = output.slice(0, 1024)
        else if (status === 'dark') summary.dark[asset.name] = output.slice(0, 1024)
        const head = status === 'ok' ? `CHANGED | rc=${rc ?? 0}` : status === 'failed' ? `FAILED | rc=${rc ?? '-'}` : 'UNREACHABLE!'
        await ctx.log(`${asset.name} | ${head} >>\n${output.replace(/\n$/, '')}`)
      }
      if (reach.gatewayError) return record('dark', reach.gatewayError)
      const cred = await accountCredential(db, asset.id, account.id)
      if (!cred) return record('dark', 'the account is no longer active')
      const t = credentialTarget(asset.address, reach.port, cred)
      const known = await knownHostKey(db, asset.id, reach.port)
      if (known) t.hostKeyFingerprint = known
      try {
        const r = await withSsh(t, { timeoutMs: jobSettings.connectTimeoutMs, gateway: reach.gateway, signal: stop.signal }, async (s) => {
          if (!known) await recordHostKey(db, asset.id, reach.port, s.hostKeyFingerprint)
          return s.exec(shellCommand, { timeoutMs: hostTimeout, maxOutputBytes: 256 * 1024 })
        })
        const out = r.stdout + (r.stderr ? (r.stdout && !r.stdout.endsWith('\n') ? '\n' : '') + r.stderr : '')
        await record(r.code === 0 ? 'ok' : 'failed', out, r.code)
      } catch (err) {
        const e = err instanceof SshError ? err : undefined
        if (e?.kind === 'aborted') return record('failed', 'stopped')
        if (e?.kind === 'timeout' && e.message.includes('command')) return record('failed', e.message)
        await record(e && ['unreachable', 'timeout', 'auth', 'host_key', 'key', 'protocol'].includes(e.kind) ? 'dark' : 'failed', e?.message ?? String(err))
      }
    }
    // Bounded parallelism: a fixed pool of workers takes the hosts in order.
    let next = 0
    const worker = async () => {
      while (next < plan.length && !stop.signal.aborted) await runOne(plan[next++]!)
    }
    await Promise.all(Array.from({ length: Math.max(1, Math.min(jobSettings.parallelism, plan.length)) }, worker))
    for (const p of plan.slice(next)) {
      if (!results.has(p.asset.id)) {
        summary.skipped.push(p.asset.name)
        results.set(p.asset.id, { name: p.asset.name, status: 'skipped', output: 'stopped before it ran' })
      }
    }
    if (stop.signal.aborted) {
      await ctx.log(ctx.t('The job was stopped'))
      return await finish('canceled', 'stopped')
    }
    const failed = Object.keys(summary.failures).length + Object.keys(summary.dark).length
    await ctx.log(`>>> ok: ${summary.ok.length}, failures: ${Object.keys(summary.failures).length}, dark: ${Object.keys(summary.dark).length}, skipped: ${summary.skipped.length}, excludes: ${Object.keys(summary.excludes).length}`)
    return await finish(failed === 0 && summary.ok.length > 0 ? 'success' : 'failed')
  } catch (err) {
    await finish('failed', err instanceof Error ? err.message : String(err)).catch(() => undefined)
    throw err
  } finally {
    ctx.signal.removeEventListener('abort', onParent)
    await unlisten()
  }
}


type Summary = { ok: string[]; failures: Record<string, string>; dark: Record<string, string>; skipped: string[]; excludes: Record<string, string>; error: string }

/** Answers of review ACLs already asked in this run (one ticket per rule, whatever the number of assets). */
const reviewAnswers = new WeakMap<TaskContext, Map<string, Promise<string>>>()

/**
 * A `review` command ACL: opens a command-confirm ticket to the rule's reviewers (server/tickets, as the terminal's
 * approval gate) and waits for its decision; stopping the run closes the ticket.
 */
async function review(ctx: TaskContext, job: JobRow, asset: { id: string; name: string; address: string }, account: string, command: string,
  acl: { id: string; name: string; reviewers: Array<{ id: string }> }, signal: AbortSignal): Promise<string> {
  let answers = reviewAnswers.get(ctx)
  if (!answers) reviewAnswers.set(ctx, (answers = new Map()))
  const known = answers.get(acl.id)
  if (known) return known
  const p = (async () => {
    const services = jobSettings.services
    if (!services || !acl.reviewers.length) return 'no reviewer'
    const ticketId = await openSystemTicket(services, {
      type: 'command_confirm', orgId: job.org_id, userId: job.creator_id, reviewerIds: acl.reviewers.map((r) => r.id),
      columns: {
        apply_run_user_id: job.creator_id, apply_run_asset: `${asset.name}(${asset.address})`.slice(0, 128), apply_run_account: account.slice(0, 128),
        apply_run_command: command.slice(0, 4096), apply_from_session_id: null, apply_from_cmd_filter_acl_id: acl.id,
      },
    }, jobSettings.log ?? { warn: () => undefined })
    await ctx.log(`Command review by ACL ${acl.name}: ticket ${ticketId} opened, waiting for its reviewers`)
    await ctx.db.updateTable('ops_job_executions').set({ summary: JSON.stringify({ ticket_id: ticketId }) }).where('task_id', '=', ctx.id).execute()
    try {
      const d = await waitForDecision(services.database, ticketId, { signal, pollMs: 2000 })
      await ctx.log(`Command review by ACL ${acl.name}: ${d}`)
      return d
    } catch {
      await systemClose(services, ticketId, 'System').catch(() => undefined)
      return 'stopped'
    }
  })()
  answers.set(acl.id, p)
  return p
}

/** A playbook job: each host logged in to first (host key, account), then one `ansible-playbook` run. */
async function runPlaybookPlan(ctx: TaskContext, executionId: string, job: JobRow, plan: Array<{ asset: Awaited<ReturnType<typeof loadAssets>>[number]; account: Chosen }>,
  reaches: Awaited<ReturnType<typeof reachAll>>, signal: AbortSignal, results: Map<string, HostResult>, summary: Summary, values: Record<string, string>): Promise<void> {
  const { db } = ctx
  const dark = async (asset: { id: string; name: string }, why: string) => {
    results.set(asset.id, { name: asset.name, status: 'dark', output: why })
    summary.dark[asset.name] = why
    await ctx.log(`${asset.name} | UNREACHABLE! >>\n${why}`)
  }
  const ready: Array<PlaybookHost & { name: string }> = []
  const taken = new Set<string>()
  // Hosts behind a gateway: one loopback forward each through it, closed in every outcome (the `finally` below).
  const tunnels: Tunnel[] = []
  let next = 0
  const worker = async () => {
    while (next < plan.length && !signal.aborted) {
      const { asset, account } = plan[next++]!
      const reach = reaches.get(asset.id)!
      if (reach.gatewayError) { await dark(asset, reach.gatewayError); continue }
      const cred = await accountCredential(db, asset.id, account.id)
      if (!cred) { await dark(asset, 'the account is no longer active'); continue }
      if (cred.secretType === 'ssh_key' && cred.passphrase) { await dark(asset, 'a private key with a passphrase cannot be handed to Ansible'); continue }
      const t = credentialTarget(asset.address, reach.port, cred)
      const known = await knownHostKey(db, asset.id, reach.port)
      if (known) t.hostKeyFingerprint = known
      // The pre-login (through the gateway when there is one) checks the host key and the account before Ansible runs.
      let tunnel: Tunnel | undefined
      let hostKey: string
      try {
        const r = await sshLogin(t, { timeoutMs: jobSettings.connectTimeoutMs, signal, gateway: reach.gateway })
        if (!known) await recordHostKey(db, asset.id, reach.port, r.hostKeyFingerprint)
        hostKey = r.publicKey
        if (reach.gateway) {
          tunnel = await openTunnel(reach.gateway, asset.address, reach.port, { timeoutMs: jobSettings.connectTimeoutMs, signal })
          tunnels.push(tunnel)
        }
      } catch (err) {
        await dark(asset, err instanceof Error ? err.message : String(err))
        continue
      }
      const host: PlaybookHost & { name: string } = { asset, port: reach.port, name: '', hostKey, account: { id: cred.id, username: cred.username, secretType: cred.secretType, secret: cred.secret } }
      if (tunnel) Object.assign(host, { connectHost: '127.0.0.1', connectPort: tunnel.port })
      ready.push(host)
      if (tunnel && reach.gateway) await ctx.log(`${asset.name} | ${ctx.t('through gateway {gateway}', { gateway: reach.gateway.name })} (127.0.0.1:${tunnel.port})`)
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(jobSettings.parallelism, plan.length)) }, worker))
    if (signal.aborted || !ready.length) return
    await runReady(ctx, executionId, job, ready, taken, signal, results, summary, values)
  } finally {
    await Promise.all(tunnels.map((tn) => tn.close()))
  }
}

/** One `ansible-playbook` on the hosts that answered the pre-login; the recap read back into results. */
async function runReady(ctx: TaskContext, executionId: string, job: JobRow, ready: Array<PlaybookHost & { name: string }>, taken: Set<string>, signal: AbortSignal,
  results: Map<string, HostResult>, summary: Summary, values: Record<string, string>): Promise<void> {
  for (const h of ready) h.name = inventoryName(h.asset, taken)
  const entry = existsSync(join(playbookDir(job.playbook_id!), 'main.yml')) ? 'main.yml' : 'main.yaml'
  const timeoutMs = (job.timeout > 0 ? job.timeout : jobSettings.playbookTimeoutSeconds) * 1000
  const out = await runAnsiblePlaybook({ executionId, playbookDir: playbookDir(job.playbook_id!), entry, hosts: ready, timeoutMs, signal, log: (t) => ctx.log(t), extraVars: values })
  if (out.timedOut) summary.error = `The playbook ran longer than ${timeoutMs / 1000} s and was stopped`
  else if (!out.stopped && out.code !== 0 && !out.recap.size) summary.error = `ansible-playbook ended with code ${out.code}`
  for (const h of ready) {
    const r = out.recap.get(h.name)
    const output = (out.lines.get(h.name) ?? []).join('\n')
    if (out.stopped) {
      results.set(h.asset.id, { name: h.asset.name, status: 'failed', output: output || 'stopped' })
    } else if (!r) {
      results.set(h.asset.id, { name: h.asset.name, status: 'failed', output: output || summary.error || 'no result' })
      summary.failures[h.asset.name] = summary.error || 'no result'
    } else if (r.unreachable) {
      results.set(h.asset.id, { name: h.asset.name, status: 'dark', output, rc: out.code })
      summary.dark[h.asset.name] = output.slice(-1024)
    } else if (r.failed) {
      results.set(h.asset.id, { name: h.asset.name, status: 'failed', output, rc: out.code })
      summary.failures[h.asset.name] = output.slice(-1024)
    } else {
      results.set(h.asset.id, { name: h.asset.name, status: 'ok', output, rc: 0 })
      summary.ok.push(h.asset.name)
    }
  }
}

/** JumpServer's zombie-task reason. */
export const STALE_REASON = 'This task has been marked as a zombie task because it has not updated its status for too long'

/**
 * Executions left `pending`/`running` whose task has ended (its process died and the runner failed it after its
 * lease, or it never recorded an end) are marked failed with the task's reason. Returns how many.
 */
export async function failStaleExecutions(db: DB): Promise<number> {
  const rows = (await sql<{ id: string; reason: string; date_finished: Date | null }>`
    update ops_job_executions e set status = 'failed', date_finished = coalesce(t.date_finished, now()),
      summary = e.summary || jsonb_build_object('error', ${STALE_REASON} || coalesce(': ' || nullif(t.reason, ''), ''))
    from task_executions t
    where t.id = e.task_id and e.status in ('pending', 'running') and t.state in ('SUCCESS', 'FAILURE')
    returning e.id, t.reason, t.date_finished`.execute(db)).rows
  return rows.length
}


/** The task's state follows the run's (issue 35): a run that did not succeed fails its task, its result kept. */
async function outcome(ctx: TaskContext, result: Promise<unknown>): Promise<unknown> {
  const r = await result
  const status = r && typeof r === 'object' && 'status' in r ? String(r.status) : 'success'
  if (status !== 'success') throw new TaskFailed(ctx.t(status === 'canceled' ? 'The job was stopped' : 'The job failed'), r)
  return r
}

addMessages({
  'The job was stopped before it started': ['作业在开始前已停止', 'ジョブは開始前に停止されました'],
  'The command "{word}" is not allowed to run in a job': ['命令 "{word}" 不允许在作业中运行', 'コマンド "{word}" はジョブで実行できません'],
  'The command "{word}" is not allowed': ['命令 "{word}" 不被允许', 'コマンド "{word}" は許可されていません'],
  'the asset is not granted to {user}': ['该资产未授权给 {user}', 'この資産は {user} に許可されていません'],
  'no granted account for runas {runas} ({policy})': ['没有可用于运行用户 {runas} 的授权账号（{policy}）', '実行ユーザー {runas} に許可されたアカウントがありません（{policy}）'],
  'Command rejected by ACL: {acl} ({action})': ['命令被 ACL 拒绝：{acl}（{action}）', 'コマンドは ACL により拒否されました: {acl}（{action}）'],
  'The job was stopped': ['作业已停止', 'ジョブは停止されました'],
  'The job failed': ['作业失败', 'ジョブは失敗しました'],
  'through gateway {gateway}': ['经由网关 {gateway}', 'ゲートウェイ {gateway} 経由'],
  'The parameter values do not fit the job: {errors}': ['参数值与作业不符：{errors}', 'パラメーター値がジョブに合いません: {errors}'],
})

defineTask({ name: RUN_JOB_TASK, displayName: 'Run a job', queue: 'ansible', run: (ctx) => outcome(ctx, runExecution(ctx)) })

/** The schedules of saved jobs: one `celery_tasks` row per periodic job, named `ops.tasks.run_ops_job:<job id>`. */
export const SCHEDULED_JOB_TASK = 'ops.tasks.run_ops_job'

defineTask({
  name: SCHEDULED_JOB_TASK, displayName: 'Run a scheduled job', queue: 'ansible', family: true,
  run: async (ctx) => {
    const jobId = ctx.name.slice(SCHEDULED_JOB_TASK.length + 1)
    const job = await ctx.db.selectFrom('ops_jobs').selectAll().where('id', '=', jobId).executeTakeFirst()
    if (!job) throw new Error(`job ${jobId} no longer exists`)
    const id = randomUUID()
    // The creator reads the scheduled run's log as their own (docs/tasks.md: a log is the starter's).
    await ctx.db.updateTable('task_executions').set({ creator_id: job.creator_id, creator: job.created_by }).where('id', '=', ctx.id).execute()
    // The schedule's task execution is the job execution's task: its log is the run's log. A scheduled run takes the
    // parameters' defaults (recorded; a parameter without one fails the run with the reason).
    const define = job.use_parameter_define ? defineOf(job.parameters_define) : {}
    const defaults = checkParameterValues(define, {}, ctx.lang)
    await ctx.db.insertInto('ops_job_executions').values({
      id, job_id: job.id, task_id: ctx.id, job_version: job.version, status: 'pending', parameters: JSON.stringify('values' in defaults ? defaults.values : {}),
      material: await materialOf(ctx.db, job), job_type: job.type, org_id: job.org_id, creator_id: job.creator_id, created_by: job.created_by,
    }).execute()
    return outcome(ctx, runExecution(ctx, id))
  },
})

/** What an execution ran, as Job logs show it: `shell:<command>`, or the playbook's name (its folder's `main.yml`). */
export async function materialOf(db: DB, job: { type: string; module: string; args: string; playbook_id: string | null }): Promise<string> {
  if (job.type === 'adhoc') return `${job.module}:${job.args}`
  const p = job.playbook_id ? await db.selectFrom('ops_playbooks').select('name').where('id', '=', job.playbook_id).executeTakeFirst() : undefined
  return `${p?.name ?? job.playbook_id ?? ''}:main.yml`
}

/** Keeps a saved job's schedule row in step with its periodic settings (none for instant or deleted jobs). */
export async function syncJobSchedule(db: DB, jobId: string, tz: string, now: Date): Promise<void> {
  const job = await db.selectFrom('ops_jobs').select(['is_periodic', 'instant', 'crontab', 'interval']).where('id', '=', jobId).executeTakeFirst()
  const name = `${SCHEDULED_JOB_TASK}:${jobId}`
  if (!job || job.instant || !job.is_periodic) {
    await db.deleteFrom('celery_tasks').where('name', '=', name).execute()
    return
  }
  const s = { crontab: job.crontab, interval: job.crontab ? null : job.interval, enabled: true }
  const next = nextRun(s, now, tz)
  await db.insertInto('celery_tasks').values({ id: randomUUID(), name, crontab: s.crontab, interval: s.interval, enabled: true, next_run_at: next })
    .onConflict((oc) => oc.column('name').doUpdateSet({ crontab: s.crontab, interval: s.interval, enabled: true, next_run_at: next })).execute()
}
