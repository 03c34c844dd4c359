import type { FastifyInstance } from 'fastify'

/** site messages and their websocket. */
export async function registerRealtime(_app: FastifyInstance): Promise<void> {}
