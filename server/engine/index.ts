/** The resource engine: declare a resource once (types.ts), register it (routes.ts). See docs/engine.md. */
export type * from './types.ts'
export { registerResource, resourceApi } from './routes.ts'
export { defineResource, resourceByName } from './registry.ts'
export { registerSpmRoute, createSpm, spmIds } from './spm.ts'
export { recordOperate, userDisplay } from './audit.ts'
export { withTx } from './write.ts'
export { col, and, searchExpression } from './query.ts'
