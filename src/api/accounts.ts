/**
 * Accounts' special calls (contract §5.3, §4.16): readable secrets behind the user confirmation, executing an
 * automation (the answer names the background task whose log the console opens), and verify/push tasks.
 */
import { getJson, sendAction } from './resources.ts'
import { downloadFile, type DownloadedFile } from './transfer.ts'

export type SecretKind = 'account' | 'template'
/** What a secret can be read of; `pending`: the new secret a change-secret record keeps because the host may have it unverified. */
export type ReadableKind = SecretKind | 'pending'

const SECRET_BASES: Record<ReadableKind, string> = {
  account: '/api/v1/accounts/account-secrets/',
  template: '/api/v1/accounts/account-template-secrets/',
  pending: '/api/v1/accounts/change-secret-records/',
}

/** The protected URL of an object's readable secret (the confirm dialog checks it first). */
export function secretUrl(kind: ReadableKind, id: string): string {
  return `${SECRET_BASES[kind]}${encodeURIComponent(id)}/${kind === 'pending' ? 'secret/' : ''}`
}

export interface RevealedSecret { secret: string; passphrase: string; secretType: string; username: string }

/** Reads the secret (the server logs every read; answers 400 `{code}` without a fresh confirmation). */
export async function readSecret(kind: ReadableKind, id: string): Promise<RevealedSecret> {
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

export interface SecretVersion { id: string; version: number; secretType: string; secret: string; createdBy: string; dateCreated: string }

/** The history URL of an account's secret (protected like the secret itself). */
export function secretHistoryUrl(id: string): string {
  return `${secretUrl('account', id)}histories/`
}

/** Every stored version of an account's secret, newest first (after the confirmation; the server logs the read). */
export async function readSecretHistory(id: string): Promise<SecretVersion[]> {
  const rows = await getJson<Array<Record<string, unknown>>>(secretHistoryUrl(id))
  return rows.map((r) => {
    const type = r.secret_type as { value?: string } | string | undefined
    return {
      id: String(r.id ?? ''), version: Number(r.version ?? 0), secret: String(r.secret ?? ''), createdBy: String(r.created_by ?? ''),
      dateCreated: String(r.date_created ?? ''), secretType: typeof type === 'object' ? String(type?.value ?? '') : String(type ?? ''),
    }
  })
}

/** Adds gathered accounts as managed accounts of their assets (source "collected"). */
export async function syncGatheredAccounts(ids: readonly string[]): Promise<void> {
  await sendAction('post', '/api/v1/accounts/gathered-accounts/sync-accounts/', { gathered_account_ids: ids })
}

/** The encrypted archive of a backup execution, as a file to save. */
export function downloadBackup(executionId: string): Promise<DownloadedFile> {
  return downloadFile(`/api/v1/accounts/account-backup-plan-executions/${encodeURIComponent(executionId)}/download/`, 'zip')
}
