/**
 * The SSH layer every automation uses (connectivity tests, account verification, push and change): log in to
 * a host with a password or a private key, optionally through a gateway (an SSH jump host), run commands with
 * bounded output and time, and tell the caller in one word why it failed. Built on ssh2; see docs/automation.md.
 */
import { createHash } from 'node:crypto'
import { connect as netConnect, createServer, Socket } from 'node:net'
import { Client, type ClientChannel, type ConnectConfig, type SFTPWrapper } from 'ssh2'

/** Where and as whom to log in. */
export interface SshTarget {
  host: string
  port: number
  username: string
  password?: string
  /** PEM or OpenSSH private key text. */
  privateKey?: string
  passphrase?: string
  /**
   * The expected host key fingerprint, `SHA256:<base64>` as `ssh-keygen -l` prints it. When set, another key
   * fails with `host_key`; when absent any key is accepted (JumpServer's behaviour) and reported back.
   */
  hostKeyFingerprint?: string
}

export interface SshConnectOptions {
  /** TCP connect + handshake + authentication, per hop (default 10 s). */
  timeoutMs?: number
  /** Log in to the target through this host (a JumpServer gateway). */
  gateway?: SshTarget
  /** Aborting closes every connection; the pending call fails with `aborted`. */
  signal?: AbortSignal
}

export interface ExecOptions {
  /** Default 30 s; on expiry the channel is closed and the call fails with `timeout`. */
  timeoutMs?: number
  /** Per stream (stdout, stderr); the rest is read and dropped, `truncated` says so (default 1 MiB). */
  maxOutputBytes?: number
  /** Written to the command's standard input, which is then closed. */
  stdin?: string
}

export interface ExecResult {
  /** The exit status; null when the command was ended by a signal (see `signal`). */
  code: number | null
  signal: string | null
  stdout: string
  stderr: string
  truncated: boolean
}

export type SshErrorKind =
  | 'auth' // the server refused every offered credential
  | 'unreachable' // DNS, refused, no route, or a gateway that cannot open the forward
  | 'timeout' // connect/handshake/login or a command took too long
  | 'host_key' // the host key does not match the expected fingerprint
  | 'key' // the private key (or its passphrase) cannot be read
  | 'protocol' // anything else the SSH connection reported
  | 'aborted' // the caller's signal

export class SshError extends Error {
  readonly kind: SshErrorKind
  /** Which hop failed: the gateway or the target. */
  readonly hop: 'gateway' | 'target'
  /** Set when the handshake got as far as the server's host key (e.g. a refused login). */
  hostKeyFingerprint?: string
  serverVersion?: string
  constructor(kind: SshErrorKind, hop: 'gateway' | 'target', message: string) {
    super(message)
    this.name = 'SshError'
    this.kind = kind
    this.hop = hop
  }
}

export interface SshSession {
  /** The server's identification (e.g. `SSH-2.0-OpenSSH_9.2p1 Debian-2`). */
  readonly serverVersion: string
  /** The target's host key fingerprint, `SHA256:<base64>`. */
  readonly hostKeyFingerprint: string
  /** The target's host key as `<type> <base64>` (what a known_hosts line holds), the one the fingerprint is of. */
  readonly publicKey: string
  exec(command: string, options?: ExecOptions): Promise<ExecResult>
}

const DEFAULT_TIMEOUT = 10_000
const DEFAULT_EXEC_TIMEOUT = 30_000
const DEFAULT_MAX_OUTPUT = 1 << 20

export function fingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`
}

/** Sort an ssh2 / socket error into a kind; the message keeps the original text. */
export function classify(err: unknown, hop: 'gateway' | 'target'): SshError {
  if (err instanceof SshError) return err
  const e = err as { message?: string; level?: string; code?: string | number; reason?: number }
  const message = String(e?.message ?? err)
  const where = hop === 'gateway' ? 'gateway: ' : ''
  if (e?.level === 'client-authentication') return new SshError('auth', hop, `${where}authentication failed (${message})`)
  if (e?.level === 'client-timeout') return new SshError('timeout', hop, `${where}timed out waiting for the SSH handshake`)
  if (/Host denied/i.test(message)) return new SshError('host_key', hop, `${where}the host key does not match`)
  if (/privateKey|passphrase|Encrypted private key|Unsupported key format/i.test(message))
    return new SshError('key', hop, `${where}cannot read the private key (${message})`)
  if (
    e?.level === 'client-dns' ||
    ['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'EADDRNOTAVAIL'].includes(
      String(e?.code),
    )
  )
    return new SshError('unreachable', hop, `${where}cannot connect (${e?.code ?? message})`)
  if (e?.code === 'ETIMEDOUT') return new SshError('timeout', hop, `${where}timed out connecting`)
  if (/Channel open failure/i.test(message))
    return new SshError('unreachable', 'target', `the gateway cannot reach the target (${message.replace(/^\(SSH\) /, '')})`)
  return new SshError('protocol', hop, `${where}${message}`)
}

/** A host key as an OpenSSH `known_hosts` line's key part: `<type> <base64>` (from the key's wire form). */
export function publicKeyLine(key: Buffer): string {
  const n = key.length >= 4 ? key.readUInt32BE(0) : 0
  const type = n > 0 && n < 64 && key.length >= 4 + n ? key.subarray(4, 4 + n).toString('latin1') : ''
  return /^[a-z0-9@.-]+$/i.test(type) ? `${type} ${key.toString('base64')}` : ''
}

function connectConfig(t: SshTarget, timeoutMs: number, onHostKey: (fp: string, key: Buffer) => boolean): ConnectConfig {
  return {
    host: t.host,
    port: t.port,
    username: t.username,
    password: t.password || undefined,
    privateKey: t.privateKey || undefined,
    passphrase: t.passphrase || undefined,
    readyTimeout: timeoutMs,
    // password first when both are given; keyboard-interactive answers the password prompt some servers use
    tryKeyboard: !!t.password,
    hostVerifier: (key: Buffer) => onHostKey(fingerprint(key), key),
    keepaliveInterval: 15_000,
  }
}

interface Hop {
  client: Client
  fingerprint: string
  /** The host key as `<type> <base64>` (a known_hosts line's key). */
  publicKey: string
  serverVersion: string
}

/**
 * Tunes the TCP socket under an ssh2 connection (client or server side) for bulk transfer without costing latency:
 * - no Nagle (TCP_NODELAY, as OpenSSH sets for its sessions): ssh2 writes each SSH packet in pieces (AES-GCM: length,
 *   body, tag) and an SFTP message of 32 KiB is a full packet and a small one; with Nagle the small tail waited for
 *   the peer's delayed ACK (40 ms), which capped a relayed transfer at ~2 MiB (the client's pipeline) per 40 ms;
 * - the writes of one tick go out together (cork, uncork on the next tick: one writev system call instead of one per
 *   piece; nothing waits longer than the current tick).
 * Anything but a net.Socket (a channel forwarded through a gateway) is left as it is.
 */
export function tuneSocket(sock: unknown): void {
  if (!(sock instanceof Socket) || (sock as { __tuned?: boolean }).__tuned) return
  ;(sock as { __tuned?: boolean }).__tuned = true
  sock.setNoDelay(true)
  const write = sock.write.bind(sock) as (...a: unknown[]) => boolean
  let corked = false
  const uncork = () => {
    corked = false
    sock.uncork()
  }
  sock.write = ((...a: unknown[]) => {
    if (!corked) {
      corked = true
      sock.cork()
      process.nextTick(uncork)
    }
    return write(...a)
  }) as typeof sock.write
}

/** Open one hop; `sock` is a forwarded stream when it goes through a gateway. */
function openHop(
  t: SshTarget,
  hop: 'gateway' | 'target',
  timeoutMs: number,
  sock: ConnectConfig['sock'] | undefined,
  onClient: (c: Client) => void,
): Promise<Hop> {
  return new Promise((resolve, reject) => {
    const client = new Client()
    onClient(client)
    let seen = ''
    let seenKey = ''
    let settled = false
    const done = (err?: unknown) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (err) {
        client.end()
        const e = classify(err, hop)
        if (seen) {
          e.hostKeyFingerprint = seen
          e.serverVersion = (client as unknown as { _remoteVer?: string })._remoteVer ?? ''
        }
        reject(e)
      } else resolve({ client, fingerprint: seen, publicKey: seenKey, serverVersion: (client as unknown as { _remoteVer?: string })._remoteVer ?? '' })
    }
    // readyTimeout does not cover a TCP connect that hangs on some systems: one timer over the whole hop
    const timer = setTimeout(() => done(new SshError('timeout', hop, `${hop === 'gateway' ? 'gateway: ' : ''}timed out after ${timeoutMs} ms`)), timeoutMs + 1000)
    client.on('ready', () => done())
    client.on('error', (err) => done(err))
    client.on('close', () => done(new SshError('unreachable', hop, `${hop === 'gateway' ? 'gateway: ' : ''}the connection closed before login`)))
    client.on('handshake', () => undefined)
    const config = connectConfig(t, timeoutMs, (fp, key) => {
      seen = fp
      seenKey = publicKeyLine(key)
      return !t.hostKeyFingerprint || t.hostKeyFingerprint === fp
    })
    if (sock) config.sock = sock
    try {
      client.connect(config)
      tuneSocket((client as unknown as { _sock?: unknown })._sock)
    } catch (err) {
      done(err)
    }
  })
}

function forward(gateway: Client, host: string, port: number): Promise<ClientChannel> {
  return new Promise((resolve, reject) => {
    gateway.forwardOut('127.0.0.1', 0, host, port, (err, stream) => (err ? reject(classify(err, 'target')) : resolve(stream)))
  })
}

function runExec(client: Client, command: string, options: ExecOptions = {}): Promise<ExecResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT
  const max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT
  return new Promise((resolve, reject) => {
    client.exec(command, (err, stream) => {
      if (err) return reject(classify(err, 'target'))
      const out: Buffer[] = []
      const errs: Buffer[] = []
      let outLen = 0
      let errLen = 0
      let truncated = false
      let code: number | null = null
      let signal: string | null = null
      const take = (chunks: Buffer[], len: number, data: Buffer): number => {
        const room = max - len
        if (room <= 0) {
          truncated = true
          return len
        }
        if (data.length > room) truncated = true
        const piece = data.length > room ? data.subarray(0, room) : data
        chunks.push(piece)
        return len + piece.length
      }
      const timer = setTimeout(() => {
        stream.close()
        reject(new SshError('timeout', 'target', `the command did not finish within ${timeoutMs} ms`))
      }, timeoutMs)
      stream.on('data', (d: Buffer) => (outLen = take(out, outLen, d)))
      stream.stderr.on('data', (d: Buffer) => (errLen = take(errs, errLen, d)))
      stream.on('exit', (c: number | null, s?: string) => {
        code = typeof c === 'number' ? c : null
        signal = s ?? null
      })
      stream.on('close', () => {
        clearTimeout(timer)
        resolve({
          code,
          signal,
          stdout: Buffer.concat(out).toString('utf8'),
          stderr: Buffer.concat(errs).toString('utf8'),
          truncated,
        })
      })
      if (options.stdin !== undefined) stream.end(options.stdin)
      else stream.end()
    })
  })
}

/**
 * Log in (through the gateway when given), hand the session to `use`, and close every connection afterwards,
 * whatever happens. Failures are `SshError`s.
 */
export async function withSsh<T>(
  target: SshTarget,
  options: SshConnectOptions,
  use: (session: SshSession) => Promise<T>,
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT
  const clients: Client[] = []
  const closeAll = () => {
    for (const c of clients.reverse()) c.end()
  }
  const signal = options.signal
  if (signal?.aborted) throw new SshError('aborted', 'target', 'aborted')
  let abortReject: ((e: SshError) => void) | undefined
  const aborted = new Promise<never>((_, reject) => (abortReject = reject))
  aborted.catch(() => undefined)
  const onAbort = () => {
    closeAll()
    abortReject?.(new SshError('aborted', 'target', 'aborted'))
  }
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const work = (async () => {
      let sock: ConnectConfig['sock'] | undefined
      if (options.gateway) {
        const gw = await openHop(options.gateway, 'gateway', timeoutMs, undefined, (c) => clients.push(c))
        sock = await forward(gw.client, target.host, target.port)
      }
      const hop = await openHop(target, 'target', timeoutMs, sock, (c) => clients.push(c))
      const session: SshSession = {
        serverVersion: hop.serverVersion,
        hostKeyFingerprint: hop.fingerprint,
        publicKey: hop.publicKey,
        exec: (command, execOptions) => runExec(hop.client, command, execOptions),
      }
      return use(session)
    })()
    return await Promise.race([work, aborted])
  } finally {
    signal?.removeEventListener('abort', onAbort)
    closeAll()
  }
}

/** Log in and log out: what a connectivity test needs. */
export async function sshLogin(
  target: SshTarget,
  options: SshConnectOptions = {},
): Promise<{ serverVersion: string; hostKeyFingerprint: string; publicKey: string }> {
  return withSsh(target, options, async (s) => ({ serverVersion: s.serverVersion, hostKeyFingerprint: s.hostKeyFingerprint, publicKey: s.publicKey }))
}

/**
 * The SSH handshake without logging in (no credentials at hand): the server's version and host key. The
 * refused "none" login that ends it counts as success; every other failure is thrown.
 */
export async function sshHandshake(
  target: Pick<SshTarget, 'host' | 'port'> & { username?: string },
  options: SshConnectOptions = {},
): Promise<{ serverVersion: string; hostKeyFingerprint: string }> {
  try {
    return await sshLogin({ host: target.host, port: target.port, username: target.username || 'jumpserver-probe' }, options)
  } catch (err) {
    if (err instanceof SshError && err.kind === 'auth' && err.hop === 'target' && err.hostKeyFingerprint)
      return { serverVersion: err.serverVersion ?? '', hostKeyFingerprint: err.hostKeyFingerprint }
    throw err
  }
}

/**
 * Can a TCP connection be opened to host:port — from here, or from the gateway when one is given (the gateway
 * opens it: a `direct-tcpip` channel)? Failures are `SshError`s (`unreachable`, `timeout`, or the gateway's).
 */
export async function tcpProbe(host: string, port: number, options: SshConnectOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT
  if (options.gateway) {
    // log in to the gateway and open the forward: its success is the TCP connect from the gateway
    const gatewayOnly = options.gateway
    await new Promise<void>((resolve, reject) => {
      const client = new Client()
      const timer = setTimeout(() => {
        client.end()
        reject(new SshError('timeout', 'target', `timed out after ${timeoutMs} ms`))
      }, timeoutMs + 1000)
      let done = false
      const finish = (err?: SshError) => {
        if (done) return
        done = true
        clearTimeout(timer)
        client.end()
        if (err) reject(err)
        else resolve()
      }
      client.on('ready', () => {
        client.forwardOut('127.0.0.1', 0, host, port, (err, stream) => {
          if (err) return finish(classify(err, 'target'))
          stream.close()
          finish()
        })
      })
      client.on('error', (err) => finish(classify(err, 'gateway')))
      client.on('close', () => finish(new SshError('unreachable', 'gateway', 'gateway: the connection closed before login')))
      options.signal?.addEventListener('abort', () => finish(new SshError('aborted', 'target', 'aborted')), { once: true })
      client.connect(connectConfig(gatewayOnly, timeoutMs, () => true))
    })
    return
  }
  await new Promise<void>((resolve, reject) => {
    const socket = netConnect({ host, port })
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new SshError('timeout', 'target', `timed out connecting after ${timeoutMs} ms`))
    }, timeoutMs)
    const onAbort = () => {
      clearTimeout(timer)
      socket.destroy()
      reject(new SshError('aborted', 'target', 'aborted'))
    }
    options.signal?.addEventListener('abort', onAbort, { once: true })
    socket.once('connect', () => {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      socket.destroy()
      resolve()
    })
    socket.once('error', (err) => {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      reject(classify(err, 'target'))
    })
  })
}

/** An interactive shell with a PTY (the built-in terminal): the channel and how to end every hop. */
export interface ShellSession {
  readonly serverVersion: string
  readonly hostKeyFingerprint: string
  readonly stream: ClientChannel
  close(): void
}

/**
 * Log in (through the gateway when given) and open a shell on a PTY of `cols`×`rows`. The caller owns the
 * session: `close()` ends the channel and every connection. Failures are `SshError`s (the host key check is the
 * target's `hostKeyFingerprint`, as for every login).
 */
export async function openShell(target: SshTarget, options: SshConnectOptions & { cols: number; rows: number; term?: string }): Promise<ShellSession> {
  return withHops(target, options, async (hop, closeAll) => {
    const stream = await new Promise<ClientChannel>((resolve, reject) => {
      hop.client.shell({ term: options.term ?? 'xterm-256color', cols: options.cols, rows: options.rows }, (err, s) => (err ? reject(classify(err, 'target')) : resolve(s)))
    })
    return { serverVersion: hop.serverVersion, hostKeyFingerprint: hop.fingerprint, stream, close: closeAll }
  })
}

/**
 * Logs in to `target` (through the gateway when given) and hands the target's hop to `open`, with the function that
 * ends every hop's connection: the caller's session owns them from then on; on any failure they are all ended.
 */
async function withHops<T>(target: SshTarget, options: SshConnectOptions,
  open: (hop: Awaited<ReturnType<typeof openHop>>, closeAll: () => void, clients: readonly Client[]) => Promise<T>): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT
  const clients: Client[] = []
  const closeAll = () => {
    for (const c of [...clients].reverse()) c.end()
  }
  try {
    let sock: ConnectConfig['sock'] | undefined
    if (options.gateway) {
      const gw = await openHop(options.gateway, 'gateway', timeoutMs, undefined, (c) => clients.push(c))
      sock = await forward(gw.client, target.host, target.port)
    }
    const hop = await openHop(target, 'target', timeoutMs, sock, (c) => clients.push(c))
    return await open(hop, closeAll, clients)
  } catch (err) {
    closeAll()
    throw err
  }
}

/** An SFTP client on a host (the built-in terminal's file transfer): the channel and how to end every hop. */
export interface SftpSession {
  readonly hostKeyFingerprint: string
  readonly sftp: SFTPWrapper
  /** Called once when any hop's connection ends (the host closed it, the network failed). */
  onClose(listener: () => void): void
  close(): void
}

/**
 * Log in (through the gateway when given) and open the SFTP subsystem. The caller owns the session. Failures are
 * `SshError`s (the host key check is the target's `hostKeyFingerprint`, as for every login).
 */
export async function openSftp(target: SshTarget, options: SshConnectOptions = {}): Promise<SftpSession> {
  return withHops(target, options, async (hop, closeAll, clients) => {
    const sftp = await new Promise<SFTPWrapper>((resolve, reject) => {
      hop.client.sftp((err, s) => (err ? reject(classify(err, 'target')) : resolve(s)))
    })
    const listeners: Array<() => void> = []
    let closed = false
    const fire = () => {
      if (closed) return
      closed = true
      listeners.splice(0).forEach((l) => l())
    }
    for (const c of clients) c.on('close', fire)
    sftp.on('close', fire)
    return {
      hostKeyFingerprint: hop.fingerprint, sftp,
      onClose: (l) => (closed ? l() : listeners.push(l)),
      close: () => {
        fire()
        closeAll()
      },
    }
  })
}

/** A loopback TCP forward through a gateway (`openTunnel`). */
export interface Tunnel {
  /** The port on 127.0.0.1 whose connections reach the target through the gateway. */
  readonly port: number
  /** Stops listening, ends every forwarded connection and the gateway's; resolves once the gateway's is closed. */
  close(): Promise<void>
}

/**
 * Logs in to `gateway` and listens on 127.0.0.1 (a free port): each connection accepted there is forwarded to
 * `host:port` as the gateway sees it (a `direct-tcpip` channel), for a program that speaks SSH itself (Ansible) to
 * reach a host behind a gateway. The gateway connection ending closes the tunnel; so do `close()` and the signal.
 * Failures to log in to the gateway are `SshError`s.
 */
export async function openTunnel(gateway: SshTarget, host: string, port: number, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<Tunnel> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT
  if (options.signal?.aborted) throw new SshError('aborted', 'gateway', 'aborted')
  let client: Client | undefined
  const gw = await openHop(gateway, 'gateway', timeoutMs, undefined, (c) => (client = c)).catch((err: unknown) => {
    client?.end()
    throw err
  })
  const sockets = new Set<Socket>()
  const server = createServer((sock) => {
    sockets.add(sock)
    sock.on('close', () => sockets.delete(sock))
    sock.on('error', () => sock.destroy())
    gw.client.forwardOut(sock.remoteAddress ?? '127.0.0.1', sock.remotePort ?? 0, host, port, (err, stream) => {
      if (err || sock.destroyed) {
        stream?.close()
        sock.destroy()
        return
      }
      stream.on('error', () => sock.destroy())
      stream.on('close', () => sock.destroy())
      sock.on('close', () => stream.close())
      sock.pipe(stream).pipe(sock)
    })
  })
  const gatewayClosed = new Promise<void>((resolve) => gw.client.once('close', () => resolve()))
  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= (async () => {
      options.signal?.removeEventListener('abort', onAbort)
      server.close()
      for (const s of sockets) s.destroy()
      gw.client.end()
      await gatewayClosed
    })()
    return closing
  }
  const onAbort = () => void close()
  options.signal?.addEventListener('abort', onAbort, { once: true })
  gw.client.on('error', () => void close())
  void gatewayClosed.then(() => close())
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => resolve())
    })
  } catch (err) {
    await close()
    throw new SshError('protocol', 'gateway', `cannot listen on loopback for the forward (${err instanceof Error ? err.message : String(err)})`)
  }
  const address = server.address()
  return { port: typeof address === 'object' && address ? address.port : 0, close }
}
