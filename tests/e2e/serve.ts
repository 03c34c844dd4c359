/**
 * The server Playwright starts: the real server on a fresh embedded database in a temporary folder,
 * serving the built console from dist/ (`npm test` builds it first).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

process.env.DATA_DIR = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'bastion-e2e-'))
process.env.PORT = process.env.E2E_PORT ?? '18080'
// The SSH gateway 50 ports above the HTTP port (in the run's port range; 2222 would be shared by parallel runs).
process.env.SSH_PORT ??= String(Number(process.env.PORT) + 50)
process.env.ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'Admin-Passw0rd!'
process.env.SECRET_KEY = 'e2e-secret-key-0123456789abcdef'
process.env.BOOTSTRAP_TOKEN ??= 'e2e-bootstrap-token'
await import('../../server/main.ts')
