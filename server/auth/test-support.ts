/**
 * Helpers for the auth/ and startup/ server tests (not used by the server itself): a test server with a
 * SECRET_KEY long enough for the at-rest sealer, the login page round-trip, and hybrid encryption with the
 * console's own code, exactly as the browser does it.
 */
import { sql } from 'kysely'
import { encryptSecret } from '../../src/api/crypto.ts'
import type { ServerConfig } from '../config.ts'
import { createTestServer, type TestClient, type TestServer } from '../testing.ts'
import { sealOtpSecret } from './otp-store.ts'
import { generateSecret } from './totp.ts'

export const TEST_SECRET_KEY = 'auth-and-startup-tests-secret-key'

export function authTestServer(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  return createTestServer({ secretKey: TEST_SECRET_KEY, ...overrides })
}

/** A client speaking English (the server default language is zh). */
export function englishClient(server: TestServer): TestClient {
  const c = server.client()
  c.headers['accept-language'] = 'en'
  return c
}

export async function asEnglish(server: TestServer, username: string): Promise<TestClient> {
  const c = await server.as(username)
  c.headers['accept-language'] = 'en'
  return c
}

/** GET the login page: session with an RSA key pair, jms_public_key and jms_csrftoken cookies. */
export async function openLoginPage(c: TestClient): Promise<void> {
  await c.get('/core/auth/login/')
  if (!c.jar.get('jms_public_key')) throw new Error('the login page did not publish jms_public_key')
}

export function encryptFor(c: TestClient, plain: string): string {
  return encryptSecret(plain, c.jar.get('jms_public_key'))
}

export async function webLogin(c: TestClient, username: string, password: string, extra: Record<string, unknown> = {}) {
  await openLoginPage(c)
  return c.post('/api/v1/authentication/login/', { username, password: encryptFor(c, password), ...extra })
}

/** Binds a fresh OTP seed to the user (sealed as the server does) and returns the plain seed. */
export async function bindOtp(server: TestServer, userId: string): Promise<string> {
  const secret = generateSecret()
  await sql`update users set otp_secret = ${sealOtpSecret(server.config, userId, secret)}, mfa_level = 1 where id = ${userId}`.execute(server.database.db)
  return secret
}

export async function sessionData(server: TestServer, c: TestClient): Promise<Record<string, any> | undefined> {
  const sid = c.jar.get(`${server.config.sessionCookiePrefix}sessionid`)
  const r = await sql<{ data: Record<string, any> }>`select data from sessions where id = ${sid ?? ''}`.execute(server.database.db)
  return r.rows[0]?.data
}

export async function patchSession(server: TestServer, c: TestClient, patch: (data: Record<string, any>) => void): Promise<void> {
  const sid = c.jar.get(`${server.config.sessionCookiePrefix}sessionid`)!
  const data = (await sessionData(server, c))!
  patch(data)
  await sql`update sessions set data = ${JSON.stringify(data)}::jsonb where id = ${sid}`.execute(server.database.db)
}

export async function loginLogs(server: TestServer, username: string) {
  return (await sql<{ username: string; type: string; status: boolean; reason: string; mfa: number; backend: string; user_agent: string; ip: string }>`
    select username, type, status, reason, mfa, backend, user_agent, ip from login_logs where username = ${username} order by datetime`.execute(server.database.db)).rows
}
