/**
 * A real OpenID Connect provider for tests (`oidc-provider`, the certified Node.js implementation) on a loopback
 * port, with throw-away keys: one confidential client, its development login page (any login, any password;
 * the login becomes the subject) and consent granted automatically. Accounts carry `preferred_username`, `name`
 * and `email` claims derived from the login (`alice` → "Alice Example", alice@idp.test).
 */
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

export interface TestProvider {
  issuer: string
  clientId: string
  clientSecret: string
  close(): Promise<void>
}

export async function startOidcProvider(opts: { redirectUris: string[]; clientId?: string; clientSecret?: string; port?: number }): Promise<TestProvider> {
  const clientId = opts.clientId ?? 'bastion-test'
  const clientSecret = opts.clientSecret ?? 'bastion-test-secret-0123456789abcdef'
  // the port is known only after listening: listen first, then mount the provider on that server
  const mounted: { handler?: RequestListener } = {}
  const http = createServer((req, res) => (mounted.handler ? mounted.handler(req, res) : res.writeHead(503).end()))
  await new Promise<void>((resolve) => http.listen(opts.port ?? 0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  const provider = new Provider(issuer, {
    clients: [{
      client_id: clientId, client_secret: clientSecret, redirect_uris: opts.redirectUris,
      grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic',
    }],
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email', 'email_verified'] },
    async findAccount(_ctx, sub) {
      const first = sub.charAt(0).toUpperCase() + sub.slice(1)
      return { accountId: sub, claims: async () => ({ sub, preferred_username: sub, name: `${first} Example`, email: `${sub}@idp.test`, email_verified: true }) }
    },
    async loadExistingGrant(ctx) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! })
      grant.addOIDCScope('openid profile email')
      await grant.save()
      return grant
    },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => false },
    cookies: { keys: ['oidc-test-cookie-key'] },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  })
  // quiet: the development interactions warn on every start
  provider.on('server_error', (_ctx, err) => console.error('oidc-provider', err))
  mounted.handler = provider.callback()
  return {
    issuer, clientId, clientSecret,
    close: () => new Promise<void>((resolve) => { http.closeAllConnections(); http.close(() => resolve()) }),
  }
}
