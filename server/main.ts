import { performance } from 'node:perf_hooks'
import { buildApp } from './app.ts'
import { loadConfig } from './config.ts'
import { openDatabase } from './db/connection.ts'
import { migrate } from './db/migrate.ts'
import { adminLoginHint, seed } from './db/seed.ts'
import { startGateway } from './terminal/index.ts'

/** `npm start`: the console and its server on the embedded database (or DATABASE_URL, or in front of JUMPSERVER_URL). */
async function main() {
  const t0 = performance.now()
  const config = loadConfig()
  const database = await openDatabase(config.jumpserverUrl ? { memory: true } : { databaseUrl: config.databaseUrl, dataDir: config.dataDir + '/pg' })
  const applied = await migrate(database.db)
  const seeded = await seed(database.db, { adminPassword: config.adminPassword })
  const app = await buildApp({ config, database, logger: process.env.LOG_REQUESTS === '1' })
  await app.listen({ port: config.port, host: config.host })
  const sshPort = await startGateway(app)
  const ms = Math.round(performance.now() - t0)
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}/ui/`
  const where = config.jumpserverUrl ? `proxy to ${config.jumpserverUrl}` : config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDir}`
  const lines = [
    '',
    `  Console ready in ${ms} ms — ${where}${applied.length ? ` (applied ${applied.length} migrations)` : ''}`,
    `  Open:     ${url}`,
  ]
  if (!config.jumpserverUrl) lines.push(sshPort ? `  SSH:      ssh <username>@${config.sshHost === '0.0.0.0' ? '127.0.0.1' : config.sshHost} -p ${sshPort}   (SSH_PORT; 0 turns it off)` : '  SSH:      gateway off (SSH_PORT=0)')
  if (!config.jumpserverUrl) {
    lines.push(`  Log in:   ${await adminLoginHint(database.db, seeded, { adminPasswordSet: !!config.adminPassword })}`)
  }
  console.log(lines.join('\n') + '\n')
  const stop = async () => {
    await app.close()
    await database.close()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
