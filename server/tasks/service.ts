/** The task runner of an app (one per server process). */
import type { FastifyInstance } from 'fastify'
import type { TaskRunner } from './runner.ts'

const runners = new WeakMap<FastifyInstance, TaskRunner>()

export function setTaskRunner(app: FastifyInstance, runner: TaskRunner): void {
  runners.set(app, runner)
}

/** The app's runner: modules queue their background work with `taskRunner(app).enqueue(name, …)`. */
export function taskRunner(app: FastifyInstance): TaskRunner | undefined {
  return runners.get(app)
}
