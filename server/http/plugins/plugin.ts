import type { FastifyPluginAsync } from 'fastify'

/**
 * A plugin whose hooks, handlers and decorations apply to the whole app (Fastify's `skip-override`, what
 * fastify-plugin sets): the app is assembled from these, one concern each (server/app.ts).
 */
export function appWide<O extends Record<string, unknown>>(name: string, fn: FastifyPluginAsync<O>): FastifyPluginAsync<O> {
  return Object.assign(fn, { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: name })
}
