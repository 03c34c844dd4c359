import type { FastifyInstance } from 'fastify'

/** public settings, profile, current org, categories, licence. */
export async function registerStartup(_app: FastifyInstance): Promise<void> {}
