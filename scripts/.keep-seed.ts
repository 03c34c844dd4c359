// scratch (not committed): seed a PostgreSQL database with a bench's data and leave it for psql
import { createTestServer } from '../server/testing.ts'
const which = process.argv[2]!
const mod = await import(`./bench-${which}.ts`)
const t = await createTestServer()
await mod.seed(t)
console.log('URL', t.databaseUrl)
process.exit(0)
