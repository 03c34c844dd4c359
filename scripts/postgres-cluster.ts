/**
 * A throw-away PostgreSQL cluster on loopback (initdb in a temporary folder, fsync off), for `npm test`'s PostgreSQL
 * pass (scripts/test-all.ts) and the benchmarks' `BENCH_POSTGRES=1` (scripts/bench-support.ts). Needs the server
 * binaries (`apt-get install postgresql`); as root, the cluster runs as the `postgres` user.
 */
import { spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export async function startPostgres(opts: { port?: number } = {}): Promise<{ url: string; stop: () => void } | { reason: string }> {
  const base = '/usr/lib/postgresql'
  const version = existsSync(base) ? readdirSync(base).sort().pop() : undefined
  const bin = version ? join(base, version, 'bin') : undefined
  if (!bin || !existsSync(join(bin, 'initdb'))) return { reason: 'PostgreSQL server binaries not installed (apt-get install postgresql)' }
  const dir = mkdtempSync(join(tmpdir(), 'bastion-pg-'))
  const asRoot = process.getuid?.() === 0
  const wrap = (c: string) => (asRoot ? ['su', ['postgres', '-c', c]] as const : ['sh', ['-c', c]] as const)
  if (asRoot) chownSync(dir, Number(spawnSync('id', ['-u', 'postgres']).stdout.toString().trim()), Number(spawnSync('id', ['-g', 'postgres']).stdout.toString().trim()))
  const port = opts.port ?? 55000 + Math.floor(Math.random() * 400)
  const [c1, a1] = wrap(`${bin}/initdb -D ${dir}/data -U postgres --auth=trust >/dev/null`)
  if (spawnSync(c1, a1, { stdio: 'inherit' }).status !== 0) return { reason: 'initdb failed' }
  const [c2, a2] = wrap(`${bin}/pg_ctl -D ${dir}/data -o "-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=400" -l ${dir}/log -w start >/dev/null`)
  if (spawnSync(c2, a2, { stdio: 'inherit' }).status !== 0) return { reason: `pg_ctl start failed (port ${port} taken?)` }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      const [c3, a3] = wrap(`${bin}/pg_ctl -D ${dir}/data -m fast -w stop >/dev/null`)
      spawnSync(c3, a3, { stdio: 'inherit' })
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
