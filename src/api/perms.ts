/**
 * What the signed-in user is granted (JumpServer's perms/users/self/… calls of the workbench), favourites and
 * connection tokens (contract §5.4, §5.9).
 */
import { ApiError } from './client.ts'
import { actionUrl, createResource, deleteResource, getJson, listResources, sendAction, withQuery, type Row } from './resources.ts'

export const MY_ASSETS_URL = '/api/v1/perms/users/self/assets/'
export const MY_NODE_TREE_URL = '/api/v1/perms/users/self/nodes/children/tree/'
export const CONNECTION_TOKENS_URL = '/api/v1/authentication/connection-token/'
export const FAVORITES_URL = '/api/v1/assets/favorite-assets/'
export const MY_LOGIN_LOGS_URL = '/api/v1/audits/my-login-logs/'
export const MY_SESSIONS_URL = '/api/v1/terminal/my-sessions/'

/** Granted assets under a node (`favorite`: the favourites), the list's URL. */
export const myNodeAssetsUrl = (nodeId: string) => `/api/v1/perms/users/self/nodes/${encodeURIComponent(nodeId)}/assets/`

export interface Choice { value: string; label: string }

export interface PermedAccount {
  alias: string
  name: string
  username: string
  id: string | null
  has_secret: boolean
  actions: Choice[]
}

export interface GrantedAsset {
  id: string
  name: string
  address: string
  actions: Choice[]
  permed_accounts: PermedAccount[]
  permed_protocols: { name: string; port: number }[]
}

export async function grantedAsset(id: string): Promise<GrantedAsset> {
  const raw = await getJson<Row>(`${MY_ASSETS_URL}${encodeURIComponent(id)}/`)
  return {
    id: String(raw.id),
    name: String(raw.name ?? ''),
    address: String(raw.address ?? ''),
    actions: Array.isArray(raw.actions) ? (raw.actions as Choice[]) : [],
    permed_accounts: Array.isArray(raw.permed_accounts) ? (raw.permed_accounts as PermedAccount[]) : [],
    permed_protocols: Array.isArray(raw.permed_protocols) ? (raw.permed_protocols as { name: string; port: number }[]) : [],
  }
}

export async function setFavorite(assetId: string, on: boolean): Promise<void> {
  if (on) await createResource(FAVORITES_URL, { asset: assetId })
  else await sendAction('delete', withQuery(FAVORITES_URL, { asset: assetId }))
}

export interface NewToken {
  asset: string
  account: string
  protocol: string
  input_username?: string
  is_reusable: boolean
  date_expired: string
}

/** How an `ssh` client reaches the built-in SSH gateway with a token (null: the gateway is off). */
export interface TokenSsh { host: string; port: number; username: string; command: string }

/** Creates a connection token; the answer is the only time its value is seen. */
export async function createConnectionToken(body: NewToken): Promise<Row & { value: string; ssh: TokenSsh | null }> {
  const row = (await createResource(CONNECTION_TOKENS_URL, body)) as Row & { value: string; ssh?: unknown }
  const ssh = row.ssh as Partial<TokenSsh> | null | undefined
  return { ...row, ssh: ssh && typeof ssh.command === 'string' ? ssh as TokenSsh : null }
}

/**
 * Creates a connection token as lina and luna do under a login review: the first answer `acl_review` asks again
 * with `?create_ticket=1`, which opens a login-asset-confirm ticket for the rule's reviewers and makes the token
 * inactive until the ticket is approved (`review: true`; the web terminal's connection then waits on it).
 */
export async function createConnectionTokenReviewed(body: NewToken): Promise<Row & { value: string; ssh: TokenSsh | null; review: boolean }> {
  try {
    return { ...(await createConnectionToken(body)), review: false }
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== 'acl_review') throw e
  }
  const row = (await createResource(withQuery(CONNECTION_TOKENS_URL, { create_ticket: 1 }), body)) as Row & { value: string; ssh?: unknown }
  const ssh = row.ssh as Partial<TokenSsh> | null | undefined
  return { ...row, ssh: ssh && typeof ssh.command === 'string' ? ssh as TokenSsh : null, review: true }
}

export function expireConnectionToken(id: string): Promise<unknown> {
  return sendAction('patch', actionUrl(CONNECTION_TOKENS_URL, id, 'expire'), {})
}

export function deleteConnectionToken(id: string): Promise<void> {
  return deleteResource(CONNECTION_TOKENS_URL, id)
}

/** The workbench home's counters and recent logins. */
export async function myOverview(): Promise<{ assets: number; tokens: number; sessions: number; logins: Row[] }> {
  const count = (url: string) => listResources(url, { limit: 1 }).then((p) => p.count, () => 0)
  const [assets, tokens, sessions, logins] = await Promise.all([
    count(MY_ASSETS_URL),
    count(CONNECTION_TOKENS_URL),
    count(MY_SESSIONS_URL),
    listResources(MY_LOGIN_LOGS_URL, { limit: 5 }).then((p) => p.results, () => [] as Row[]),
  ])
  return { assets, tokens, sessions, logins }
}

export interface MyAssetItem {
  id: string
  name: string
  address: string
  platform: string
}

/** Granted assets (under a node, or all), searched by name or address: the web terminal's asset list. */
export async function myAssets(nodeId: string | undefined, search: string, limit = 100): Promise<{ items: MyAssetItem[]; count: number }> {
  const page = await listResources(nodeId ? myNodeAssetsUrl(nodeId) : MY_ASSETS_URL, { limit, offset: 0, order: 'name', ...(search ? { search } : {}) })
  return {
    count: page.count,
    items: page.results.map((row) => {
      const platform = row.platform as { name?: unknown } | string | undefined
      return {
        id: String(row.id),
        name: String(row.name ?? ''),
        address: String(row.address ?? ''),
        platform: typeof platform === 'object' && platform ? String(platform.name ?? '') : String(platform ?? ''),
      }
    }),
  }
}
