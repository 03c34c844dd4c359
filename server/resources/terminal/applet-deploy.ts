/**
 * Deploying an applet host and publishing applets to it, as background tasks with live logs (docs/tasks.md).
 * JumpServer 3.2 runs an Ansible playbook (terminal/automations/deploy_applet_host) on a Windows Server host: it
 * installs the RDS role and licensing, Python, Tinker (its RemoteApp agent) and the browsers/clients the applets
 * need, then registers the host with Core. Here the work is done over SSH with the host's privileged account
 * (server/automation/ssh.ts), step by step, each step logged as `TASK [...]` with ok / failed / skipped:
 *
 * 1. connect (log in as the privileged account, through the domain's gateway when there is one);
 * 2. gather facts (uname, os-release);
 * 3. write the host's configuration (`~/.jumpserver/applet-host/config.yml`: Core address, host id and name,
 *    the deploy options) and read it back;
 * 4. check that the host reaches Core (`curl`, when the host has it; informational);
 * 5. the Windows-only steps (RDS role and licence server, Python, Tinker, Chrome, registration): done only on a
 *    Windows host — on any other system they are logged as skipped, with the reason (docs/terminal.md);
 * 6. with `install_applets`, publish every active applet (below).
 *
 * Publishing an applet copies its manifest and icon to `~/.jumpserver/applets/<name>/` and reads the manifest's
 * version back: the publication becomes success, or failed with the reason. A step that fails ends the
 * deployment as failed (the task fails too, so the log says FAILURE).
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { stringify as toYaml } from 'yaml'
import { credentialsFor } from '../../automation/credentials.ts'
import { describe } from '../../automation/connectivity.ts'
import { loadAssets, reachAll, sshPort, target, type AssetRow } from '../../ssh/target.ts'
import { withSsh, type SshSession } from '../../automation/ssh.ts'
import type { DB, RowOf } from '../../db/connection.ts'
import { jsonObject, type Values } from '../../http/body.ts'
import { addMessages } from '../../i18n.ts'
import { getSetting } from '../../settings/store.ts'
import { defineTask, type TaskContext } from '../../tasks/kinds.ts'

addMessages({
  'Deploy applet host': ['部署发布机', 'ホスティングをデプロイ'],
  'Install applets on applet hosts': ['在发布机上安装应用', 'ホスティングにアプリをインストール'],
})

const HOST_DIR = '.jumpserver/applet-host'
const APPLETS_DIR = '.jumpserver/applets'
/** The steps JumpServer's playbook runs only on Windows Server (what a Windows host needs in addition). */
export const WINDOWS_ONLY_STEPS = [
  'Install the Remote Desktop Session Host role (RDS) and restart',
  'Configure RDS licensing (RDS_Licensing, RDS_LicenseServer, RDS_LicensingMode)',
  'Apply the RDS session policies (RDS_fSingleSessionPerUser, RDS_MaxDisconnectionTime, RDS_RemoteAppLogoffTimeLimit)',
  'Install Python and the applets\' Python dependencies',
  'Install Tinker (the RemoteApp agent) and register it with Core as a terminal',
  'Install Chrome and the database clients the built-in applets start',
]

/** A shell word: single-quoted. */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

class StepFailed extends Error {}

interface Step { log: (line: string) => Promise<void> }

async function step<T>(s: Step, name: string, work: () => Promise<T>, show?: (r: T) => string): Promise<T> {
  await s.log(`TASK [${name}]`)
  try {
    const r = await work()
    await s.log(`ok${show ? `: ${show(r)}` : ''}`)
    return r
  } catch (e) {
    await s.log(`failed: ${e instanceof StepFailed ? e.message : describe(e)}`)
    throw new StepFailed(`${name}: ${e instanceof Error ? e.message : String(e)}`)
  }
}

async function run(session: SshSession, command: string, stdin?: string): Promise<string> {
  const r = await session.exec(command, { timeoutMs: 30_000, maxOutputBytes: 64 * 1024, stdin })
  if (r.code !== 0) throw new StepFailed(`exit ${String(r.code ?? r.signal)}: ${(r.stderr || r.stdout).trim().slice(0, 500)}`)
  return r.stdout.trim()
}

/** Logs in to the host as its privileged account and hands the session over (closed afterwards). */
async function onHost<T>(ctx: TaskContext, host: AssetRow, work: (s: SshSession) => Promise<T>): Promise<T> {
  const reach = (await reachAll(ctx.db, [host])).get(host.id)!
  const cred = (await credentialsFor(ctx.db, [host.id])).get(host.id)
  if (!cred) throw new StepFailed(`no active privileged account with a secret on ${host.name}: add one to the host`)
  if (reach.gatewayError) throw new StepFailed(reach.gatewayError)
  return withSsh(target(host.address, reach.port, cred), { timeoutMs: 15_000, gateway: reach.gateway, signal: ctx.signal }, work)
}

async function setDeployment(db: DB, id: string, values: { status: string; comment?: string; start?: Date; finish?: Date }): Promise<void> {
  await sql`update applet_host_deployments set status = ${values.status}, date_updated = now(),
    comment = coalesce(${values.comment ?? null}, comment),
    date_start = coalesce(${values.start ?? null}, date_start), date_finished = coalesce(${values.finish ?? null}, date_finished)
    where id = ${id}`.execute(db)
}

async function setPublication(db: DB, appletId: string, hostId: string, status: string, comment: string): Promise<void> {
  await sql`insert into applet_publications (id, applet_id, host_id, status, comment) values (${randomUUID()}, ${appletId}, ${hostId}, ${status}, ${comment})
    on conflict (applet_id, host_id) do update set status = excluded.status, comment = excluded.comment, date_updated = now()`.execute(db)
}

/** Copies applets to the host and reads their versions back; records each publication. Returns the failures. */
type AppletToPublish = Pick<RowOf<'applets'>, 'id' | 'name' | 'version' | 'manifest' | 'icon'>

async function publish(ctx: TaskContext, s: SshSession, host: AssetRow, applets: AppletToPublish[]): Promise<number> {
  let failed = 0
  for (const a of applets) {
    const name = String(a.name)
    const dir = `$HOME/${APPLETS_DIR}/${name}`
    const manifest = jsonObject(a.manifest) ?? {}
    try {
      await step(ctx, `Publish applet ${name} ${String(a.version)}`, async () => {
        if (!/^[-a-zA-Z0-9_]{1,128}$/.test(name)) throw new StepFailed('the applet name is not a safe directory name')
        await run(s, `umask 022 && mkdir -p "${dir}" && cat > "${dir}/manifest.yml"`, toYaml(manifest))
        if (a.icon) await run(s, `base64 -d > "${dir}/icon.png"`, Buffer.from(a.icon).toString('base64'))
        const back = await run(s, `sed -n 's/^version: *//p' "${dir}/manifest.yml"`)
        const version = back.replace(/^["']|["']$/g, '')
        if (version !== String(a.version)) throw new StepFailed(`the host reports version "${version}", expected "${String(a.version)}"`)
        return dir
      }, (d) => `copied to ${d.replace('$HOME', '~')}`)
      await setPublication(ctx.db, a.id, host.id, 'success', '')
    } catch (e) {
      failed++
      await setPublication(ctx.db, a.id, host.id, 'failed', (e as Error).message.slice(0, 1000))
    }
  }
  return failed
}

async function appletsToPublish(db: DB, appletId: string | null | undefined): Promise<AppletToPublish[]> {
  return (await sql<AppletToPublish>`select id, name, version, manifest, icon from applets
    where ${appletId ? sql`id = ${appletId}` : sql`is_active`} order by name`.execute(db)).rows
}

async function hostOf(db: DB, deploymentId: string): Promise<{ host?: AssetRow; options: Values; deployment?: RowOf<'applet_host_deployments'> }> {
  const deployment = (await sql<RowOf<'applet_host_deployments'>>`select * from applet_host_deployments where id = ${deploymentId}`.execute(db)).rows[0]
  if (!deployment) return { options: {} }
  const [host] = await loadAssets(db, [deployment.host_id])
  const options = jsonObject((await sql<Pick<RowOf<'applet_hosts'>, 'deploy_options'>>`select deploy_options from applet_hosts where asset_id = ${deployment.host_id}`.execute(db)).rows[0]?.deploy_options) ?? {}
  return { host, options, deployment }
}

async function deployOne(ctx: TaskContext, deploymentId: string, install: boolean): Promise<boolean> {
  const { host, options } = await hostOf(ctx.db, deploymentId)
  if (!host) {
    await ctx.log(`deployment ${deploymentId}: the host no longer exists`)
    return false
  }
  await setDeployment(ctx.db, deploymentId, { status: 'running', start: ctx.now() })
  await ctx.log(`>>> Deploying applet host ${host.name} (${host.address}:${sshPort(host)})`)
  try {
    const skipped = await onHost(ctx, host, async (s) => {
      await ctx.log(`TASK [Connect]\nok: logged in (${s.serverVersion}, ${s.hostKeyFingerprint})`)
      const facts = await step(ctx, 'Gather facts', () => run(s, `uname -s; uname -r; uname -m; (. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME") || true`),
        (out) => out.split('\n').filter(Boolean).join(', '))
      const windows = /windows|mingw|msys|cygwin/i.test(facts)
      const siteUrl = String((await getSetting<string>(ctx.db, 'SITE_URL')) || 'http://localhost:8080')
      const core = String(options.CORE_HOST || siteUrl).replace(/\/+$/, '')
      const config = { ...options, CORE_HOST: core, HOST_ID: host.id, HOST_NAME: host.name }
      await step(ctx, 'Write the host configuration', async () => {
        await run(s, `umask 077 && mkdir -p "$HOME/${HOST_DIR}" && cat > "$HOME/${HOST_DIR}/config.yml"`, toYaml(config))
        const back = await run(s, `sed -n 's/^HOST_ID: *//p' "$HOME/${HOST_DIR}/config.yml"`)
        if (back.replace(/^["']|["']$/g, '') !== host.id) throw new StepFailed('the configuration read back differs')
        return `~/${HOST_DIR}/config.yml`
      }, (p) => p)
      await step(ctx, 'Check that the host reaches Core', async () => {
        const out = await run(s, `if command -v curl >/dev/null 2>&1; then curl -sk -o /dev/null -w '%{http_code}' --max-time 5 ${q(`${core}/api/health/`)} || echo unreachable; else echo 'no curl on the host'; fi`)
        return out
      }, (out) => `${core}: ${/^\d{3}$/.test(out) ? `HTTP ${out}` : out}`)
      const notWindows = windows ? [] : WINDOWS_ONLY_STEPS
      for (const name of notWindows) await ctx.log(`TASK [${name}]\nskipped: Windows Server only (this host runs ${facts.split('\n')[0] || 'another system'})`)
      if (windows) {
        for (const name of WINDOWS_ONLY_STEPS) await ctx.log(`TASK [${name}]\nskipped: not implemented by this server (JumpServer runs an Ansible playbook for it)`)
      }
      let failed = 0
      if (install) failed = await publish(ctx, s, host, await appletsToPublish(ctx.db, undefined))
      if (failed) throw new StepFailed(`${failed} applet(s) could not be published`)
      return WINDOWS_ONLY_STEPS.length
    })
    await sql`update applet_hosts set inited = true, date_inited = ${ctx.now()} where asset_id = ${host.id}`.execute(ctx.db)
    await setDeployment(ctx.db, deploymentId, { status: 'success', finish: ctx.now(), comment: `${skipped} Windows-only step(s) skipped` })
    await ctx.log(`>>> ${host.name}: deployed (${skipped} Windows-only step(s) skipped)`)
    return true
  } catch (e) {
    const reason = e instanceof StepFailed ? e.message : describe(e)
    if (!(e instanceof StepFailed)) await ctx.log(`TASK [Connect]\nfailed: ${reason}`)
    await setDeployment(ctx.db, deploymentId, { status: 'failed', finish: ctx.now(), comment: reason.slice(0, 1000) })
    await ctx.log(`>>> ${host.name}: deployment failed (${reason})`)
    return false
  }
}

async function installOne(ctx: TaskContext, deploymentId: string, appletId: string | null): Promise<boolean> {
  const { host } = await hostOf(ctx.db, deploymentId)
  if (!host) return false
  await setDeployment(ctx.db, deploymentId, { status: 'running', start: ctx.now() })
  await ctx.log(`>>> Publishing to ${host.name} (${host.address}:${sshPort(host)})`)
  const applets = await appletsToPublish(ctx.db, appletId)
  try {
    const failed = await onHost(ctx, host, async (s) => {
      await ctx.log(`TASK [Connect]\nok: logged in (${s.serverVersion})`)
      return publish(ctx, s, host, applets)
    })
    const ok = failed === 0
    await setDeployment(ctx.db, deploymentId, { status: ok ? 'success' : 'failed', finish: ctx.now(), comment: ok ? '' : `${failed} applet(s) failed` })
    return ok
  } catch (e) {
    const reason = e instanceof StepFailed ? e.message : describe(e)
    await ctx.log(`TASK [Connect]\nfailed: ${reason}`)
    for (const a of applets) await setPublication(ctx.db, String(a.id), host.id, 'failed', reason.slice(0, 1000))
    await setDeployment(ctx.db, deploymentId, { status: 'failed', finish: ctx.now(), comment: reason.slice(0, 1000) })
    return false
  }
}

const ids = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])

export const deployAppletHost = defineTask({
  name: 'terminal.tasks.run_applet_host_deployment',
  displayName: 'Deploy applet host',
  async run(ctx) {
    const list = ids(ctx.kwargs.deployment_ids)
    let ok = 0
    for (const id of list) if (await deployOne(ctx, id, ctx.kwargs.install_applets !== false)) ok++
    if (ok < list.length) throw new Error(`${list.length - ok} of ${list.length} deployment(s) failed`)
    return { ok }
  },
})

export const installApplets = defineTask({
  name: 'terminal.tasks.run_applet_host_deployment_install_applet',
  displayName: 'Install applets on applet hosts',
  async run(ctx) {
    const list = ids(ctx.kwargs.deployment_ids)
    const appletId = typeof ctx.kwargs.applet_id === 'string' ? ctx.kwargs.applet_id : null
    let ok = 0
    for (const id of list) if (await installOne(ctx, id, appletId)) ok++
    if (ok < list.length) throw new Error(`${list.length - ok} of ${list.length} host(s) failed`)
    return { ok }
  },
})
