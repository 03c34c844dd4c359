import type { FastifyInstance } from 'fastify'

/** login, logout, tokens, MFA, confirm. */
export async function registerAuth(_app: FastifyInstance): Promise<void> {}
