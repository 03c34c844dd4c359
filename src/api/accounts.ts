/**
 * Accounts' special calls (contract §5.3, §4.16): readable secrets behind the user confirmation, executing an
 * automation (the answer names the background task whose log the console opens), and verify/push tasks.
 */
import { getJson, sendAction } from './resources.ts'

export type SecretKind = 'account' | 'template'

/** The protected URL of an object's readable secret (the confirm dialog checks it first). */
export function secretUrl(kind: SecretKind, id: string): string {
  const base = kind === 'account' ? '/api/v1/accounts/account-secrets/' : '/api/v1/accounts/account-template-secrets/'
  return `${base}${encodeURIComponent(id)}/`
}

export interface RevealedSecret { secret: string; passphrase: string; secretType: string; username: string }

/** Reads the secret (the server logs every read; answers 400 `{code}` without a fresh confirmation). */
export async function readSecret(kind: SecretKind, id: string): Promise<RevealedSecret> {
  const r = await getJson<Record<string, unknown>>(secretUrl(kind, id))
  const type = r.secret_type as { value?: string } | string | undefined
  return {
    secret: String(r.secret ?? ''),
    passphrase: String(r.passphrase ?? ''),
    secretType: typeof type === 'object' ? String(type?.value ?? '') : String(type ?? ''),
    username: String(r.username ?? ''),
  }
}

/** Starts an execution of an automation: `executionsUrl` is the type's executions list. Answers the task id. */
export async function executeAutomation(executionsUrl: string, automationId: string): Promise<string> {
  const r = (await sendAction('post', executionsUrl, { automation: automationId })) as { task?: unknown }
  return String(r.task ?? '')
}

/** Verifies (logs in with the stored secret) or pushes accounts; answers the task id. */
export async function accountTask(action: 'verify' | 'push', ids: readonly string[]): Promise<string> {
  const r = (await sendAction('post', '/api/v1/accounts/accounts/tasks/', { action, accounts: ids })) as { task?: unknown }
  return String(r.task ?? '')
}
