import { ApiError, request, silent } from './client.ts'

export const TICKETS_URL = '/api/v1/tickets/tickets/'

/**
 * Open tickets waiting for this user (contract §4.15), for the header badge. Quiet: a server without the tickets
 * endpoint (404) or a user who may not list them (403) simply has no badge.
 */
export async function fetchAssignedOpenCount(userId: string, signal?: AbortSignal): Promise<number> {
  try {
    const page = await request<{ count?: unknown }>('get', TICKETS_URL, silent({
      signal,
      searchParams: { assignees__id: userId, status: 'open', offset: 0, limit: 15, display: 1, draw: 1 },
    }))
    return typeof page?.count === 'number' ? page.count : 0
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 403)) return 0
    throw e
  }
}
