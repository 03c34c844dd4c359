/**
 * The settings' tools (contract §4.17): the test mail, the LDAP configuration and login testers, the directory's
 * users and their import. Each answers the server's text; a failure is an ApiError whose message is the server's.
 */
import { request, silent } from './client.ts'

export const MAIL_TESTING_URL = '/api/v1/settings/mail/testing/'
export const LDAP_URL = '/api/v1/settings/ldap/'

export interface LdapUser {
  id: string
  username: string
  name: string
  email: string
  groups: string[]
  existing: boolean
}

const text = (v: unknown): string => (typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as { msg?: unknown }).msg === 'string' ? (v as { msg: string }).msg : '')

/** Sends a test mail through the saved mail server; answers the server's confirmation. */
export async function sendTestMail(values: { EMAIL_FROM?: string; EMAIL_RECIPIENT?: string }): Promise<string> {
  return text(await request('post', MAIL_TESTING_URL, silent({ json: values })))
}

/** Tests an LDAP configuration (the form's values; an empty bind password uses the saved one). */
export async function testLdapConfig(values: Record<string, unknown>): Promise<string> {
  return text(await request('post', `${LDAP_URL}testing/config/`, silent({ json: values })))
}

/** Tests a login against the saved LDAP configuration (the password encrypted by the caller). */
export async function testLdapLogin(username: string, password: string): Promise<string> {
  return text(await request('post', `${LDAP_URL}testing/login/`, silent({ json: { username, password } })))
}

export async function fetchLdapUsers(signal?: AbortSignal): Promise<LdapUser[]> {
  const rows = await request<unknown>('get', `${LDAP_URL}users/`, silent({ signal }))
  return Array.isArray(rows) ? (rows as LdapUser[]) : []
}

/** Imports users (`["*"]`: every one) into an organization; answers the server's summary. */
export async function importLdapUsers(usernames: string[], orgId: string): Promise<string> {
  return text(await request('post', `${LDAP_URL}users/import/`, silent({ json: { username_list: usernames, org_id: orgId } })))
}

export const TOOLS_URL = '/api/v1/settings/tools/'
export type NetTool = 'ping' | 'telnet' | 'nmap'
export interface ToolResult { ok: boolean; lines: string[] }

/** Runs a network check from the server (Settings → Tools); a 400 carries field errors. */
export async function runNetTool(tool: NetTool, values: Record<string, unknown>): Promise<ToolResult> {
  const r = await request<ToolResult>('post', `${TOOLS_URL}${tool}/`, silent({ json: values }))
  return { ok: r?.ok === true, lines: Array.isArray(r?.lines) ? r.lines.map(String) : [] }
}

/** Sends a test SMS through a provider with the tab's values (an empty secret: the saved one). */
export async function sendTestSms(backend: string, values: Record<string, unknown>): Promise<string> {
  return text(await request('post', `/api/v1/settings/sms/${encodeURIComponent(backend)}/testing/`, silent({ json: values })))
}
