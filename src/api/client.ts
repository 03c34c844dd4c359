import { i18n, type MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import Cookies from 'js-cookie'
import ky, { HTTPError, TimeoutError, type KyInstance, type Options } from 'ky'
import { adoptEarly, dropEarly } from './earlyAnswers.ts'
import { browserTimeZoneSources, createTimeZone } from './timeZone.ts'

/** Organization ids with a fixed meaning (contract §1.6). */
export const ROOT_ORG_ID = '00000000-0000-0000-0000-000000000000'
export const DEFAULT_ORG_ID = '00000000-0000-0000-0000-000000000002'
export const SYSTEM_ORG_ID = '00000000-0000-0000-0000-000000000004'

/** Where the client takes the organization header from; the app shell sets it (current org, XPACK state). */
export interface OrgSource {
  currentOrgId(): string | undefined
  xpackEnabled(): boolean
}
let orgSource: OrgSource = { currentOrgId: () => undefined, xpackEnabled: () => true }
export function setOrgSource(source: OrgSource): void {
  orgSource = source
}

/** CSRF cookie name: `<SESSION_COOKIE_NAME_PREFIX>csrftoken` (contract §1.7). */
export function csrfToken(): string | undefined {
  let prefix = Cookies.get('SESSION_COOKIE_NAME_PREFIX')
  if (!prefix || prefix === '""' || prefix === "''") prefix = 'jms_'
  return Cookies.get(`${prefix.replace(/"/g, '')}csrftoken`)
}

function orgHeader(oidFromUrl: string | null): string | undefined {
  const oid = oidFromUrl ?? orgSource.currentOrgId()
  if (!oid) return undefined
  if (!orgSource.xpackEnabled() && oid !== SYSTEM_ORG_ID) return DEFAULT_ORG_ID
  return oid
}

// ---------------------------------------------------------------------------------------------- errors

export type ApiErrorKind = 'http' | 'network' | 'timeout'

/**
 * A failed call, for every caller: `status` (0 when there was no answer), the parsed body `data`, and
 * `message`, the text to show (the server's own text, else the generic one of spec 000 §8 in the current
 * language).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly data: unknown,
    message: string,
    readonly kind: ApiErrorKind = 'http',
    readonly url = '',
  ) {
    super(message)
    this.name = 'ApiError'
  }

  /** The body's `code` (`object_does_not_exist`, `mfa`, …) when there is one. */
  get code(): string | undefined {
    const c = isObject(this.data) ? this.data.code : undefined
    return typeof c === 'string' ? c : undefined
  }

  /** A 400 with field errors (`{"name": ["…"]}`), the shape forms map onto their fields. */
  get fieldErrors(): Record<string, unknown> | undefined {
    return this.status === 400 && isObject(this.data) ? this.data : undefined
  }
}

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The server's text in a body (spec 000 §8, console-behaviour §2.2): the first of `error`, `msg`, `detail`; else
 * `non_field_errors` joined by a space; arrays recurse and join with "; "; strings pass through (HTML pages
 * and empty values give '').
 */
export function errorText(data: unknown): string {
  if (typeof data === 'string') return data.trim().startsWith('<') ? '' : data.trim()
  if (typeof data === 'number' || typeof data === 'boolean') return String(data)
  if (Array.isArray(data)) return data.map(errorText).filter(Boolean).join('; ')
  if (!isObject(data)) return ''
  for (const key of ['error', 'msg', 'detail']) {
    const text = errorText(data[key])
    if (text) return text
  }
  const nfe = data.non_field_errors
  if (nfe !== undefined) return (Array.isArray(nfe) ? nfe : [nfe]).map(errorText).filter(Boolean).join(' ')
  return ''
}

const GENERIC: Record<number, MessageDescriptor> = {
  400: msg`Request error, please check what you filled in`,
  401: msg`Your session has expired, please log in again`,
  403: msg`Request error, you have no permission for this operation`,
  404: msg`The resource was not found or has been deleted`,
  409: msg`The resource is being updated, please try again later`,
  500: msg`Server error, please try again later`,
}
const NETWORK = msg`Cannot reach the server, please check your network`
const TIMEOUT = msg`The request timed out, please try again`
const OTHER = msg`Request failed`

/** The generic, translated message of a status (spec 000 §8). */
export function genericMessage(status: number, kind: ApiErrorKind = 'http'): string {
  if (kind === 'network') return i18n._(NETWORK)
  if (kind === 'timeout') return i18n._(TIMEOUT)
  return i18n._(GENERIC[status] ?? (status >= 500 ? GENERIC[500]! : OTHER))
}

/** The text to show for a failed answer: the server's (except for 5xx, whose bodies are internals), else generic. */
export function messageFor(status: number, data: unknown): string {
  const text = status >= 500 ? '' : errorText(data)
  return text || genericMessage(status)
}

/** A response body: parsed JSON, else its text, else undefined. */
export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '')
  if (!text) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** Anything a call threw, as an `ApiError` (abort errors are re-thrown: nobody should show them). */
export async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof ApiError) return error
  if (error instanceof HTTPError) {
    const data = await readBody(error.response.clone())
    return new ApiError(error.response.status, data, messageFor(error.response.status, data), 'http', error.request.url)
  }
  if (error instanceof TimeoutError) return new ApiError(0, undefined, genericMessage(0, 'timeout'), 'timeout', error.request.url)
  if (error instanceof DOMException && error.name === 'AbortError') throw error
  return new ApiError(0, undefined, genericMessage(0, 'network'), 'network')
}

// ---------------------------------------------------------------------------------------------- app hooks

/** Who shows an error toast (the shell's feedback layer). Called unless the call passes `context.silent`. */
type ErrorNotifier = (error: ApiError) => void
/** What happens on a 401 (the shell: a re-login dialog, or straight to the login page for the profile). */
type UnauthorizedHandler = (error: ApiError, url: string) => void
let notifyError: ErrorNotifier = () => {}
let onUnauthorized: UnauthorizedHandler = () => {}
const activityListeners = new Set<(url: string) => void>()
const writeListeners = new Set<(url: string) => void>()

export function setErrorNotifier(fn: ErrorNotifier): void {
  notifyError = fn
}
export function setUnauthorizedHandler(fn: UnauthorizedHandler): void {
  onUnauthorized = fn
}
/** Successful answers other than the profile (spec 000 §4.1: they re-arm the 30 s session refresh). */
export function onApiActivity(listener: (url: string) => void): () => void {
  activityListeners.add(listener)
  return () => activityListeners.delete(listener)
}

/** Successful writes (any method but GET, HEAD, OPTIONS): cached answers may be out of date now. */
export function onApiWrite(listener: (url: string) => void): () => void {
  writeListeners.add(listener)
  return () => writeListeners.delete(listener)
}

export const PROFILE_URL = '/api/v1/users/profile/'
export const isProfileUrl = (url: string): boolean => url.includes('/users/profile/')

/** Per-call option: `http.get(url, { context: { silent: true } })` keeps failures out of the global toast. */
export interface CallContext {
  silent?: boolean
}
export const silent = (options: Options = {}): Options => ({ ...options, context: { ...options.context, silent: true } })

const timeZone = createTimeZone(browserTimeZoneSources)

/** After the preferred time zone changed (Preferences): the next requests send the new one. */
export function timeZoneChanged(): void {
  timeZone.refresh()
}
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * The only HTTP client of the console: CSRF, X-JMS-ORG (route query `oid` or the current org), X-TZ,
 * 60 s timeout, no retries (spec 000 §7). Failed answers go to the error toast (unless `context.silent`) and
 * 401s to the re-login handler; successful non-profile answers are reported as activity.
 */
export const http: KyInstance = ky.create({
  timeout: 60_000,
  retry: 0,
  credentials: 'same-origin',
  hooks: {
    beforeRequest: [
      (request) => {
        // Only a change needs the token (Django checks no other method): reading cookies is a call into the browser
        // that a first screen's dozen reads need not make.
        if (!SAFE_METHODS.has(request.method)) {
          const token = csrfToken()
          if (token) request.headers.set('X-CSRFToken', token)
        }
        const pageOid = typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('oid')
        const org = orgHeader(pageOid)
        if (org && !request.headers.has('X-JMS-ORG')) request.headers.set('X-JMS-ORG', org)
        request.headers.set('X-TZ', timeZone.current())
        // The same request asked early, before the code arrived (early.ts): its success is the answer.
        return adoptEarly(request)
      },
    ],
    afterResponse: [
      async (request, options, response) => {
        if (response.ok) {
          if (!isProfileUrl(request.url)) activityListeners.forEach((listener) => listener(request.url))
          if (!['GET', 'HEAD', 'OPTIONS'].includes(request.method)) {
            dropEarly() // answers asked before a change are not answers after it
            writeListeners.forEach((listener) => listener(request.url))
          }
          return
        }
        const data = await readBody(response.clone())
        const error = new ApiError(response.status, data, messageFor(response.status, data), 'http', request.url)
        if (response.status === 401) onUnauthorized(error, request.url)
        else if (!(options.context as CallContext | undefined)?.silent) notifyError(error)
      },
    ],
  },
})

export type RequestOptions = Options

/**
 * `http` plus error conversion: JSON in, JSON out (undefined for empty answers), every failure an `ApiError`.
 * Network failures and time-outs are toasted here (ky's hooks only see answers).
 */
export async function request<T>(method: 'get' | 'post' | 'put' | 'patch' | 'delete', url: string, options: Options = {}): Promise<T> {
  try {
    const response = await http(url, { ...options, method })
    const text = await response.text()
    return (text ? JSON.parse(text) : undefined) as T
  } catch (e) {
    const error = await toApiError(e)
    if (error.kind !== 'http' && !(options.context as CallContext | undefined)?.silent) notifyError(error)
    throw error
  }
}
