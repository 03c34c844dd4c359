/**
 * The SFTP subsystem of the SSH gateway (issue 31; docs/terminal.md "Files"): `sftp -P 2222 <user>@bastion`
 * shows the user's tree of files.ts (`/<organization>/<asset>/<account>/<host path>`) and relays each request to the
 * asset's SFTP server. Requests are relayed one for one as they come, without waiting for earlier answers (the
 * client's own pipelining — OpenSSH keeps 64 requests of 32 KiB in flight — is the flow control: nothing is
 * buffered beyond what is in flight, and a WRITE is answered with the host's answer), at most MAX_PENDING requests
 * wait on hosts per session (more are refused with FAILURE: a client that does not wait for answers cannot make the
 * server hold its data) and at most MAX_READ_BYTES of READ answers are fetched at once (more READs wait, holding no
 * buffer). One FTP log per file opened (when it is closed), per mkdir/rmdir/remove/rename.
 */
import type { Attributes, FileEntry, SFTPWrapper } from 'ssh2'
import { call, dirAttrs, FileError, normalize, remoteError, STATUS, type FileSpace, type Transfer } from './files.ts'

/** Requests waiting on a host per SFTP session. */
export const MAX_PENDING = 1024
/** Open files and directories per SFTP session. */
export const MAX_HANDLES = 512
/** Largest READ answered (OpenSSH asks 32 KiB; the protocol lets a client ask more). */
const MAX_READ = 256 * 1024
/** Bytes of READ answers being fetched per SFTP session: more READs wait (holding no buffer) among the MAX_PENDING. */
export const MAX_READ_BYTES = 16 * 1024 * 1024

type Handle =
  | { kind: 'file'; transfer: Transfer }
  | { kind: 'vdir'; names: string[] | null }
  | { kind: 'rdir'; sftp: SFTPWrapper; handle: Buffer }

const pad = (n: number, w: number) => String(n).padStart(w)
function longname(name: string, a: Partial<Attributes> & { mode: number }): string {
  const t = a.mode & 0o170000
  const kind = t === 0o040000 ? 'd' : t === 0o120000 ? 'l' : '-'
  const bits = 'rwxrwxrwx'.split('').map((c, i) => ((a.mode >> (8 - i)) & 1 ? c : '-')).join('')
  const date = new Date((a.mtime ?? 0) * 1000).toISOString().slice(0, 16).replace('T', ' ')
  return `${kind}${bits} 1 ${pad(a.uid ?? 0, 5)} ${pad(a.gid ?? 0, 5)} ${pad(a.size ?? 0, 10)} ${date} ${name}`
}

/** Serves one SFTP channel for `space` (closed with the channel). */
export function serveSftp(sftp: SFTPWrapper, space: FileSpace, onError: (err: unknown) => void): void {
  const handles = new Map<string, Handle>()
  let next = 1
  let pending = 0
  let ended = false

  const newHandle = (h: Handle): Buffer | undefined => {
    if (handles.size >= MAX_HANDLES) return undefined
    const b = Buffer.alloc(4)
    b.writeUInt32BE(next++ >>> 0)
    handles.set(b.toString('hex'), h)
    return b
  }

  const fail = (id: number, e: unknown) => {
    if (ended) return
    const err = e instanceof FileError ? e : remoteError(e)
    if (!(e instanceof FileError) && !(typeof (e as { code?: unknown })?.code === 'number')) onError(e)
    sftp.status(id, err.status, err.message)
  }

  /** Runs one request: bounded in number, its failure answered with its status. */
  const run = (id: number, work: () => Promise<void>) => {
    if (pending >= MAX_PENDING) return sftp.status(id, STATUS.FAILURE, 'too many requests in flight')
    pending++
    work().catch((e) => fail(id, e)).finally(() => pending--)
  }

  const ok = (id: number) => !ended && sftp.status(id, STATUS.OK)

  let readBytes = 0
  const readWaiters: Array<{ size: number; go: () => void }> = []
  /** Waits until `size` more bytes of READ answers fit in MAX_READ_BYTES (in the order asked). */
  const reserve = (size: number): Promise<void> | undefined => {
    if (!readWaiters.length && readBytes + size <= MAX_READ_BYTES) {
      readBytes += size
      return undefined
    }
    return new Promise((go) => readWaiters.push({ size, go }))
  }
  const release = (size: number) => {
    readBytes -= size
    while (readWaiters.length && (ended || readBytes + readWaiters[0]!.size <= MAX_READ_BYTES)) {
      const w = readWaiters.shift()!
      readBytes += w.size
      w.go()
    }
  }

  sftp.on('REALPATH', (id, path) => run(id, async () => {
    const p = normalize(path)
    if (!p) throw new FileError(STATUS.NO_SUCH_FILE, 'invalid path')
    if (!ended) sftp.name(id, [{ filename: p, longname: p, attrs: {} as Attributes }])
  }))

  for (const ev of ['STAT', 'LSTAT'] as const) {
    sftp.on(ev, (id: number, path: string) => run(id, async () => {
      const a = await space.stat(path, ev === 'STAT')
      if (!ended) sftp.attrs(id, a as Attributes)
    }))
  }

  sftp.on('OPENDIR', (id, path) => run(id, async () => {
    const place = await space.resolve(path)
    let h: Handle
    if (place.level === 'remote') {
      const remote = await space.sftp(place)
      h = { kind: 'rdir', sftp: remote, handle: await call<Buffer>((cb) => remote.opendir(place.remote, cb)) }
    } else h = { kind: 'vdir', names: await space.virtualEntries(place) }
    const b = newHandle(h)
    if (!b) {
      if (h.kind === 'rdir') h.sftp.close(h.handle, () => undefined)
      throw new FileError(STATUS.FAILURE, 'too many open files')
    }
    if (!ended) sftp.handle(id, b)
  }))

  sftp.on('READDIR', (id, hb) => run(id, async () => {
    const h = handles.get(hb.toString('hex'))
    if (!h || h.kind === 'file') throw new FileError(STATUS.FAILURE, 'invalid handle')
    if (h.kind === 'vdir') {
      if (!h.names) return void (!ended && sftp.status(id, STATUS.EOF))
      const names = h.names
      h.names = null
      const attrs = dirAttrs()
      const list: FileEntry[] = ['.', '..', ...names].map((n) => ({ filename: n, longname: longname(n, attrs), attrs: attrs as Attributes }))
      if (!ended) sftp.name(id, list)
      return
    }
    const list = await new Promise<FileEntry[] | false>((resolve, reject) => h.sftp.readdir(h.handle, (err, l) => {
      if (err && (err as { code?: number }).code === STATUS.EOF) return resolve(false)
      if (err) return reject(remoteError(err))
      resolve(l as FileEntry[] | false)
    }))
    if (ended) return
    if (!list || !list.length) sftp.status(id, STATUS.EOF)
    else sftp.name(id, list)
  }))

  sftp.on('OPEN', (id, path, flags, attrs) => run(id, async () => {
    const transfer = await space.open(path, flags, attrs as unknown as Record<string, unknown>)
    const b = newHandle({ kind: 'file', transfer })
    if (!b) {
      await transfer.close(false)
      throw new FileError(STATUS.FAILURE, 'too many open files')
    }
    if (!ended) sftp.handle(id, b)
  }))

  const file = (hb: Buffer): Transfer => {
    const h = handles.get(hb.toString('hex'))
    if (!h || h.kind !== 'file') throw new FileError(STATUS.FAILURE, 'invalid handle')
    return h.transfer
  }

  sftp.on('READ', (id, hb, offset, len) => run(id, async () => {
    const t = file(hb)
    const size = Math.min(len, MAX_READ)
    await reserve(size)
    try {
      if (ended) return
      const buf = Buffer.allocUnsafe(size)
      const n = await t.read(buf, offset)
      if (ended) return
      if (n === 0) sftp.status(id, STATUS.EOF)
      else sftp.data(id, n === buf.length ? buf : buf.subarray(0, n))
    } finally {
      release(size)
    }
  }))

  sftp.on('WRITE', (id, hb, offset, data) => run(id, async () => {
    await file(hb).write(data, offset)
    ok(id)
  }))

  sftp.on('FSTAT', (id, hb) => run(id, async () => {
    const t = file(hb)
    const a = await call<Attributes>((cb) => t.sftp.fstat(t.handle, cb))
    if (!ended) sftp.attrs(id, a)
  }))

  sftp.on('FSETSTAT', (id, hb, attrs) => run(id, async () => {
    const t = file(hb)
    if (t.operate !== 'upload') throw new FileError(STATUS.PERMISSION_DENIED, 'read-only file')
    await call<void>((cb) => t.sftp.fsetstat(t.handle, attrs, cb))
    ok(id)
  }))

  sftp.on('SETSTAT', (id, path, attrs) => run(id, async () => {
    const place = await space.remote(path)
    await space.require(place, 'upload', 'upload')
    const remote = await space.sftp(place)
    await call<void>((cb) => remote.setstat(place.remote, attrs, cb))
    ok(id)
  }))

  sftp.on('CLOSE', (id, hb) => run(id, async () => {
    const key = hb.toString('hex')
    const h = handles.get(key)
    if (!h) throw new FileError(STATUS.FAILURE, 'invalid handle')
    handles.delete(key)
    if (h.kind === 'file') await h.transfer.close()
    else if (h.kind === 'rdir') await call<void>((cb) => h.sftp.close(h.handle, cb))
    ok(id)
  }))

  sftp.on('MKDIR', (id, path, attrs) => run(id, async () => {
    await space.mkdir(path, attrs as unknown as Record<string, unknown>)
    ok(id)
  }))
  sftp.on('RMDIR', (id, path) => run(id, async () => {
    await space.rmdir(path)
    ok(id)
  }))
  sftp.on('REMOVE', (id, path) => run(id, async () => {
    await space.remove(path)
    ok(id)
  }))
  sftp.on('RENAME', (id, from, to) => run(id, async () => {
    await space.rename(from, to)
    ok(id)
  }))
  sftp.on('READLINK', (id, path) => run(id, async () => {
    const place = await space.remote(path)
    const remote = await space.sftp(place)
    const target = await call<string>((cb) => remote.readlink(place.remote, cb))
    if (!ended) sftp.name(id, [{ filename: target, longname: target, attrs: {} as Attributes }])
  }))
  sftp.on('SYMLINK', (id, _target, link) => run(id, async () => {
    const place = await space.remote(link)
    await space.log(place, 'symlink', place.remote, false)
    throw new FileError(STATUS.PERMISSION_DENIED, 'symbolic links cannot be created through the bastion')
  }))
  sftp.on('EXTENDED', (id) => sftp.status(id, STATUS.OP_UNSUPPORTED))

  // the client's end of the channel ends ours (OpenSSH waits for the channel to close before it exits)
  sftp.on('end', () => sftp.end())
  sftp.on('close', () => {
    ended = true
    release(0)
    const open = [...handles.values()]
    handles.clear()
    void Promise.all(open.map((h) => (h.kind === 'file' ? h.transfer.close(false).catch(() => undefined) : undefined)))
      .finally(() => space.close())
  })
}
