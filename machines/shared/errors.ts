/**
 * Helpers shared by the machines. Actors reject with whatever the API layer throws; the machines never know
 * the HTTP client, so they only duck-type the two facts they need: an HTTP status and a list of messages.
 */

/** HTTP status of a rejection: `error.status`, else `error.response.status` (ky's HTTPError), else undefined. */
export function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const direct = (error as { status?: unknown }).status
  if (typeof direct === 'number') return direct
  const response = (error as { response?: unknown }).response
  if (typeof response === 'object' && response !== null) {
    const nested = (response as { status?: unknown }).status
    if (typeof nested === 'number') return nested
  }
  return undefined
}

/** True for 401 and 403: the session is gone or not allowed, so the user must log in again. */
export function isAuthFailure(error: unknown): boolean {
  const status = httpStatusOf(error)
  return status === 401 || status === 403
}

/**
 * Default implementation of an action or actor the caller must provide. Throwing makes a forgotten
 * `machine.provide(...)` fail loudly (the actor errors, or the promise actor rejects into the error branch).
 */
export function notProvided(machine: string, name: string): never {
  throw new Error(`${machine}: "${name}" must be provided with machine.provide()`)
}
