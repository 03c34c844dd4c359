import type { StartupError } from '../../machines/index.ts'

/** Thrown by a guard: the route exists but this user may not open it (rendered as the 403 page). */
export class ForbiddenError extends Error {
  constructor(readonly reason: 'permission' | 'license') {
    super(`forbidden: ${reason}`)
    this.name = 'ForbiddenError'
  }
}

/** The start-up did not reach `ready` (no organization, server unreachable…): rendered as the start-up error page. */
export class StartupFailedError extends Error {
  constructor(
    readonly failure: StartupError | null,
    readonly state: string,
  ) {
    super(`start-up ${state}: ${failure?.kind ?? 'unknown'}`)
    this.name = 'StartupFailedError'
  }
}
