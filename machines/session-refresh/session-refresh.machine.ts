/**
 * sessionRefresh — "one profile read 30 s after the last successful non-profile response" (spec §4.1,
 * contract §2.2, jumpserver#5466): slides the server session age while the user is active.
 *
 * The HTTP layer sends `RESPONSE_OK { url }` for every successful response. A profile URL (containing
 * `/users/profile/`) changes nothing — the refresh itself reads the profile, so the loop ends there. Any other
 * URL (re-)arms a single 30 s timer; when it fires, `refreshProfile` runs once and the machine goes idle.
 * A response arriving during the refresh re-arms the timer (the running refresh is dropped: that response has
 * already slid the session).
 */
import { assertEvent, fromPromise, setup } from 'xstate'
import { notProvided } from '../shared/errors.ts'

export const SESSION_REFRESH_DELAY_MS = 30_000
export const PROFILE_URL_PART = '/users/profile/'

export type SessionRefreshEvent = { type: 'RESPONSE_OK'; url: string }

export function isProfileUrl(url: string): boolean {
  return url.includes(PROFILE_URL_PART)
}

export const sessionRefreshMachine = setup({
  types: {
    events: {} as SessionRefreshEvent,
  },
  actors: {
    /** `GET /api/v1/users/profile/`; the result is not used. Default: rejects (must be provided). */
    refreshProfile: fromPromise<unknown, void>(async () => notProvided('sessionRefresh', 'refreshProfile')),
  },
  guards: {
    isActivity: ({ event }) => {
      assertEvent(event, 'RESPONSE_OK')
      return !isProfileUrl(event.url)
    },
  },
  delays: {
    refreshDelay: SESSION_REFRESH_DELAY_MS,
  },
}).createMachine({
  id: 'sessionRefresh',
  description: 'Reads the profile once, 30 s after the last successful non-profile response. ' +
    'Profile responses do not re-arm it, so the refresh never loops.',
  initial: 'idle',
  on: {
    RESPONSE_OK: { guard: 'isActivity', target: '.armed' },
  },
  states: {
    idle: {},
    armed: {
      after: { refreshDelay: 'refreshing' },
    },
    refreshing: {
      invoke: { id: 'refreshProfile', src: 'refreshProfile', onDone: 'idle', onError: 'idle' },
    },
  },
})
