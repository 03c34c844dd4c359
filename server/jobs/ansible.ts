/**
 * A playbook run with Debian's `ansible-playbook` (docs/jobs.md, docs/decisions/0XX-ansible-secrets.md): an
 * inventory generated per execution from the granted assets and chosen accounts, `main.yml` of the playbook's
 * folder, its output streamed line by line into the task log, the PLAY RECAP read back into per-asset results.
 *
 * Secrets: a password reaches Ansible through the environment of the `ansible-playbook` process (the inventory
 * says `{{ lookup('env', 'JMS_SECRET_n') }}`; Ansible hands it to sshpass through a pipe), never a file; a private
 * key is a 0600 file in the execution's 0700 folder, removed in every outcome (`finally`; folders a killed
 * process left behind are removed at start-up).
 *
 * Host keys: each host is logged in to first by the in-process SSH layer with the resolver's recorded key (trust
 * on first use, a changed key refused → `dark`); Ansible's OpenSSH then accepts that key only (a known_hosts file of
 * the run, one alias per host, `StrictHostKeyChecking=yes`).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import type { DB } from '../db/connection.ts'
import type { AssetRow } from '../ssh/target.ts'
import { unsafeExtraVars } from './parameters.ts'

export const ansibleSettings = { binary: 'ansible-playbook', dataDir: './data' }

export const runsDir = () => join(resolve(ansibleSettings.dataDir), 'ops', 'runs')

export interface PlaybookHost {
  asset: AssetRow
  port: number
  /** Where Ansible connects when it is not the asset's address and port: 127.0.0.1 and its tunnel's port behind a gateway. */
  connectHost?: string
  connectPort?: number
  /**
   * The host key the pre-login checked (`<type> <base64>`): Ansible's OpenSSH is held to it (a known_hosts file of the
   * run, `StrictHostKeyChecking=yes`), so no other key can stand in between the pre-login and Ansible's own logins.
   */
  hostKey: string
  account: { id: string; username: string; secretType: string; secret: string }
}

export interface PlaybookOutcome {
  /** Per inventory host name: the recap's counts. */
  recap: Map<string, { ok: number; changed: number; unreachable: number; failed: number }>
  /** Per inventory host name: the output lines about it. */
  lines: Map<string, string[]>
  code: number | null
  timedOut: boolean
  stopped: boolean
}

/** Inventory host names: the asset's name when Ansible takes it as is, else `asset-<id>`. */
export function inventoryName(a: Pick<AssetRow, 'id' | 'name'>, taken: Set<string>): string {
  let n = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,62}$/.test(a.name) ? a.name : `asset-${a.id}`
  if (taken.has(n)) n = `asset-${a.id}`
  taken.add(n)
  return n
}

/**
 * Runs `main.yml` of `playbookDir` on the hosts. `log` receives the output as it comes (a few lines at a time).
 */
export async function runAnsiblePlaybook(opts: {
  executionId: string
  playbookDir: string
  entry: string
  hosts: Array<PlaybookHost & { name: string }>
  timeoutMs: number
  signal: AbortSignal
  log: (text: string) => Promise<void>
  /** Extra variables (the job's parameter values): never templated by Ansible (`!unsafe`). */
  extraVars?: Record<string, string>
}): Promise<PlaybookOutcome> {
  const dir = join(runsDir(), opts.executionId)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: dir,
    ANSIBLE_CONFIG: join(dir, 'ansible.cfg'), ANSIBLE_HOST_KEY_CHECKING: 'True', ANSIBLE_RETRY_FILES_ENABLED: 'False', ANSIBLE_NOCOLOR: '1',
    ANSIBLE_FORCE_COLOR: '0', ANSIBLE_LOCAL_TEMP: join(dir, 'tmp'), ANSIBLE_HOME: join(dir, 'home'), ANSIBLE_TIMEOUT: '10', ANSIBLE_PIPELINING: 'True',
    ANSIBLE_GATHERING: 'explicit', ANSIBLE_STDOUT_CALLBACK: 'default', ANSIBLE_LOAD_CALLBACK_PLUGINS: 'False', ANSIBLE_DEPRECATION_WARNINGS: 'False',
    ANSIBLE_SSH_ARGS: `-o ControlMaster=no -o StrictHostKeyChecking=yes -o UserKnownHostsFile=${join(dir, 'known_hosts')} -o GlobalKnownHostsFile=/dev/null -o LogLevel=ERROR`,
    PYTHONUNBUFFERED: '1',
  }
  try {
    // Our own configuration: nothing from the playbook's folder or the server's home is read.
    writeFileSync(env.ANSIBLE_CONFIG!, '[defaults]\nforks = 10\n', { mode: 0o600 })
    const hosts: Record<string, Record<string, unknown>> = {}
    // Each host's key under an alias of its own (the same address and port may be several assets, or a tunnel's).
    writeFileSync(join(dir, 'known_hosts'), opts.hosts.map((h, i) => (h.hostKey ? `jms-host-${i} ${h.hostKey}\n` : '')).join(''), { mode: 0o600 })
    opts.hosts.forEach((h, i) => {
      const v: Record<string, unknown> = {
        ansible_ssh_extra_args: `-o HostKeyAlias=jms-host-${i}`,
        ansible_host: h.connectHost ?? h.asset.address, ansible_port: h.connectPort ?? h.port, ansible_user: h.account.username, ansible_connection: 'ssh',
        ansible_python_interpreter: 'auto_silent',
        jms_asset: { id: h.asset.id, name: h.asset.name, address: h.asset.address, port: h.port, org_id: h.asset.org_id },
        jms_account: { id: h.account.id, username: h.account.username, secret_type: h.account.secretType },
      }
      if (h.account.secretType === 'ssh_key') {
        const key = join(dir, `key-${i}`)
        writeFileSync(key, h.account.secret.endsWith('\n') ? h.account.secret : `${h.account.secret}\n`, { mode: 0o600 })
        v.ansible_ssh_private_key_file = key
      } else {
        env[`JMS_SECRET_${i}`] = h.account.secret
        v.ansible_password = `{{ lookup('env', 'JMS_SECRET_${i}') }}`
      }
      hosts[h.name] = v
    })
    const inventory = join(dir, 'inventory.json')
    writeFileSync(inventory, JSON.stringify({ all: { hosts } }), { mode: 0o600 })

    const extraVars = join(dir, 'extra-vars.yml')
    writeFileSync(extraVars, unsafeExtraVars(opts.extraVars ?? {}), { mode: 0o600 })

    const child = spawn(ansibleSettings.binary, ['-i', inventory, '-e', `@${extraVars}`, join(opts.playbookDir, opts.entry)], { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let timedOut = false
    let stopped = false
    const kill = () => {
      try { process.kill(-child.pid!, 'SIGTERM') } catch { /* gone */ }
      setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL') } catch { /* gone */ } }, 3000).unref()
    }
    const timer = setTimeout(() => { timedOut = true; kill() }, opts.timeoutMs)
    const onAbort = () => { stopped = true; kill() }
    opts.signal.addEventListener('abort', onAbort, { once: true })
    if (opts.signal.aborted) onAbort()

    const names = opts.hosts.map((h) => h.name)
    const lines = new Map<string, string[]>(names.map((n) => [n, []]))
    const recap = new Map<string, { ok: number; changed: number; unreachable: number; failed: number }>()
    // Lines are logged in small batches (a flush at most every 100 ms), in order.
    let pending: string[] = []
    let flushing = Promise.resolve()
    let flushTimer: NodeJS.Timeout | undefined
    const flush = () => {
      flushTimer = undefined
      if (!pending.length) return
      const text = pending.join('\n')
      pending = []
      flushing = flushing.then(() => opts.log(text)).catch(() => undefined)
    }
    let task = ''
    const onLine = (line: string) => {
      pending.push(line)
      if (!flushTimer) flushTimer = setTimeout(flush, 100)
      if (/^(TASK|PLAY|RUNNING HANDLER) \[/.test(line)) task = line
      const r = /^(\S+)\s+:\s+ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)/.exec(line)
      if (r && lines.has(r[1]!)) recap.set(r[1]!, { ok: +r[2]!, changed: +r[3]!, unreachable: +r[4]!, failed: +r[5]! })
      for (const n of names) {
        if (line.includes(`[${n}]`)) {
          const l = lines.get(n)!
          if (l.length < 2000) {
            if (task && l.at(-2) !== task) l.push(task)
            l.push(line)
          }
        }
      }
    }
    const out = createInterface({ input: child.stdout! })
    const err = createInterface({ input: child.stderr! })
    out.on('line', onLine)
    err.on('line', onLine)
    const code = await new Promise<number | null>((res) => {
      child.on('error', (e) => { onLine(`ansible-playbook could not start: ${e.message}`); res(null) })
      child.on('close', (c) => res(c))
    })
    clearTimeout(timer)
    opts.signal.removeEventListener('abort', onAbort)
    if (flushTimer) clearTimeout(flushTimer)
    flush()
    await flushing
    return { recap, lines, code, timedOut, stopped }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** How old a run folder unknown to this database must be before start-up removes it. */
export const ORPHAN_RUN_AGE_MS = 24 * 3600 * 1000

/**
 * Folders of runs a killed process left behind (a private key may be in one): those whose execution has ended, and
 * those this database does not know once they are a day old. A folder of an execution this database does not know
 * may be another server's run in progress over the same data folder (several test servers share one): it is left
 * alone until then. Removing it made that run's `ansible-playbook` fail at start (`os.getcwd()`: no such file).
 */
export async function removeEndedRuns(db: DB, now = Date.now()): Promise<number> {
  if (!existsSync(runsDir())) return 0
  const ids = readdirSync(runsDir()).filter((n) => /^[0-9a-f-]{36}$/.test(n))
  if (!ids.length) return 0
  const rows = await db.selectFrom('ops_job_executions').select(['id', 'status']).where('id', 'in', ids).execute()
  const known = new Map(rows.map((r) => [r.id, r.status]))
  const old = (id: string) => {
    try {
      return now - statSync(join(runsDir(), id)).mtimeMs > ORPHAN_RUN_AGE_MS
    } catch {
      return false
    }
  }
  const gone = ids.filter((id) => {
    const status = known.get(id)
    return status === undefined ? old(id) : status !== 'pending' && status !== 'running'
  })
  for (const id of gone) rmSync(join(runsDir(), id), { recursive: true, force: true })
  return gone.length
}
