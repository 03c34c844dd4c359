import type { FastifyInstance } from 'fastify'

/** resources declared through the engine. */
export async function registerResources(_app: FastifyInstance): Promise<void> {}
