/**
 * A real OpenStack Swift for tests, from Debian's packages (swift-proxy, swift-object, swift-container,
 * swift-account; tempauth keeps its tokens in memcached, so memcached too): one replica of each ring on loopback
 * ports, the devices in a temp folder (`mount_check = false`; Swift keeps object metadata in xattrs, which ext4
 * and tmpfs ≥ Linux 6.6 have), `swift_dir` pointing at that folder (nothing under /etc/swift is read or written).
 * The proxy's pipeline has `s3api` and `tempauth`: the S3 API JumpServer's swift replay storage speaks, with the
 * tempauth user `test:tester` / `testing` as access key and secret. One container (an S3 bucket) is created.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface TestSwift {
  /** The proxy: S3 API at the root, Swift's own at /auth/v1.0 and /v1. */
  endpoint: string
  bucket: string
  accessKey: string
  secretKey: string
  region: string
  /** How long building the rings and starting the servers took (ms; docs/decisions figures). */
  timings: { rings: number; servers: number }
  dispose(): Promise<void>
}

const freePort = () => new Promise<number>((resolve, reject) => {
  const s = createServer()
  s.once('error', reject)
  s.listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number }
    s.close(() => resolve(port))
  })
})

export async function startSwift(bucket = 'replays', region = 'RegionOne'): Promise<TestSwift> {
  const t0 = performance.now()
  const dir = mkdtempSync(join(tmpdir(), 'swift-'))
  mkdirSync(join(dir, 'srv', 'd1'), { recursive: true })
  const [proxy, object, container, account, cache] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()] as [number, number, number, number, number]
  writeFileSync(join(dir, 'swift.conf'), '[swift-hash]\nswift_hash_path_suffix = test\nswift_hash_path_prefix = test\n[storage-policy:0]\nname = Policy-0\ndefault = yes\n')
  const rings = { object, container, account }
  // the three rings, one device each, built in one python (swift-ring-builder would start python nine times)
  const built = spawnSync('/usr/bin/python3', ['-c', [
    'import sys', 'from swift.common.ring import RingBuilder',
    'for name, port in zip(("object", "container", "account"), map(int, sys.argv[2:])):',
    '    b = RingBuilder(4, 1, 1)',
    '    b.add_dev({"id": 0, "region": 1, "zone": 1, "ip": "127.0.0.1", "port": port, "device": "d1", "weight": 1})',
    '    b.rebalance()',
    '    b.get_ring().save("%s/%s.ring.gz" % (sys.argv[1], name))',
  ].join('\n'), dir, String(object), String(container), String(account)], { encoding: 'utf8' })
  if (built.status !== 0) throw new Error(`swift: the rings were not built: ${built.stderr}`)
  const t1 = performance.now()
  for (const [name, port] of Object.entries(rings)) {
    writeFileSync(join(dir, `${name}.conf`), `[DEFAULT]\nbind_ip = 127.0.0.1\nbind_port = ${port}\ndevices = ${join(dir, 'srv')}\nmount_check = false\nswift_dir = ${dir}\nworkers = 0\n`
      + `[pipeline:main]\npipeline = ${name}-server\n[app:${name}-server]\nuse = egg:swift#${name}\n`)
  }
  writeFileSync(join(dir, 'proxy.conf'), `[DEFAULT]\nbind_ip = 127.0.0.1\nbind_port = ${proxy}\nswift_dir = ${dir}\nworkers = 0\n`
    + '[pipeline:main]\npipeline = catch_errors gatekeeper proxy-logging cache s3api tempauth proxy-logging proxy-server\n'
    + '[app:proxy-server]\nuse = egg:swift#proxy\naccount_autocreate = true\n'
    + `[filter:s3api]\nuse = egg:swift#s3api\nlocation = ${region}\n`
    + '[filter:tempauth]\nuse = egg:swift#tempauth\nuser_test_tester = testing .admin\n'
    + `[filter:cache]\nuse = egg:swift#memcache\nmemcache_servers = 127.0.0.1:${cache}\n`
    + '[filter:catch_errors]\nuse = egg:swift#catch_errors\n[filter:gatekeeper]\nuse = egg:swift#gatekeeper\n[filter:proxy-logging]\nuse = egg:swift#proxy_logging\n')
  const children: ChildProcess[] = []
  const run = (cmd: string, args: string[]) => {
    const c = spawn(cmd, args, { stdio: 'ignore' })
    children.push(c)
  }
  const dispose = async () => {
    await Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode !== null ? undefined : new Promise<void>((resolve) => {
      c.once('exit', () => resolve())
      c.kill('SIGTERM')
    }))))
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    run('memcached', ['-l', '127.0.0.1', '-p', String(cache), '-U', '0', '-m', '16', ...(process.getuid?.() === 0 ? ['-u', 'root'] : [])])
    for (const name of Object.keys(rings)) run(`swift-${name}-server`, [join(dir, `${name}.conf`)])
    run('swift-proxy-server', [join(dir, 'proxy.conf')])
    const endpoint = `http://127.0.0.1:${proxy}`
    // ready: tempauth hands out a token (the proxy, memcached and the account server answer)
    let auth: Response | undefined
    for (let i = 0; i < 600; i++) {
      auth = await fetch(`${endpoint}/auth/v1.0`, { headers: { 'x-auth-user': 'test:tester', 'x-auth-key': 'testing' } }).catch(() => undefined)
      if (auth?.status === 200) break
      await new Promise((r) => setTimeout(r, 100))
    }
    if (auth?.status !== 200) throw new Error(`swift did not start (auth: ${auth?.status ?? 'no answer'})`)
    const token = auth.headers.get('x-auth-token')!
    const storage = auth.headers.get('x-storage-url')!
    // the container and object servers may start later than the account server: a probe object goes through
    const until = async (what: string, call: () => Promise<Response>) => {
      let status = 0
      for (let i = 0; i < 600; i++) {
        status = (await call().catch(() => undefined))?.status ?? 0
        if (status >= 200 && status < 300) return
        await new Promise((r) => setTimeout(r, 100))
      }
      throw new Error(`swift: ${what} failed (${status})`)
    }
    const headers = { 'x-auth-token': token }
    await until('creating the container', () => fetch(`${storage}/${bucket}`, { method: 'PUT', headers }))
    await until('writing a probe object', () => fetch(`${storage}/${bucket}/.probe`, { method: 'PUT', headers, body: 'probe' }))
    await until('removing the probe object', () => fetch(`${storage}/${bucket}/.probe`, { method: 'DELETE', headers }))
    return { endpoint, bucket, accessKey: 'test:tester', secretKey: 'testing', region, timings: { rings: t1 - t0, servers: performance.now() - t1 }, dispose }
  } catch (e) {
    await dispose()
    throw e
  }
}
