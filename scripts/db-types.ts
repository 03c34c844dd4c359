/** `npm run db:types`: writes server/db/schema.gen.ts from the migrations (see server/db/types.ts). */
import { writeFileSync } from 'node:fs'
import { generateSchemaTypes, SCHEMA_FILE } from '../server/db/types.ts'

const text = await generateSchemaTypes()
writeFileSync(SCHEMA_FILE, text)
console.log(`wrote ${SCHEMA_FILE} (${text.match(/^export interface /gm)?.length ?? 0} tables)`)
