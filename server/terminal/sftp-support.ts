/** OpenSSH's `sftp` for the SFTP tests: kept open, its commands sent when the test says (sshpass for the password). */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'

/** OpenSSH's `sftp` kept open, reading its commands from stdin (`-b -`): each command is sent when the test says. */
export class OpenSftp {
  readonly child: ChildProcessWithoutNullStreams
  out = ''
  exit: number | null = null
  private waiters: Array<() => void> = []

  constructor(port: number, login: string, password: string, cwd: string) {
    this.child = spawn('sshpass', ['-p', password, 'sftp', '-o', 'BatchMode=no', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null',
      '-o', 'LogLevel=ERROR', '-o', 'NumberOfPasswordPrompts=1', '-P', String(port), '-b', '-', `${login}@127.0.0.1`], { cwd })
    const take = (d: Buffer) => {
      this.out += d.toString('utf8')
      this.wake()
    }
    this.child.stdout.on('data', take)
    this.child.stderr.on('data', take)
    this.child.on('exit', (code) => {
      this.exit = code ?? -1
      this.wake()
    })
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w()
  }

  /** Resolves when `predicate` holds (a generous safety deadline only turns a hang into a failure). */
  async until(predicate: () => boolean, what: string, ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms
    while (!predicate()) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`waiting for ${what}: ${this.out.slice(-500)}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  /** Runs commands, then waits until they are done (the `pwd` after them has answered). */
  async run(...commands: string[]): Promise<void> {
    const marks = this.out.split('Remote working directory').length
    this.child.stdin.write(`${[...commands, 'pwd'].join('\n')}\n`)
    await this.until(() => this.out.split('Remote working directory').length > marks || this.exit !== null, `${commands.join('; ')}`)
  }
}

