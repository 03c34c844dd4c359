/**
 * The authentication, SMS and interface categories (declarations-auth.ts, declarations-interface.ts) and image
 * settings (images.ts): keys and permissions, sealed secrets, JSON maps, the CMPP v2.0 rule, image uploads
 * validated by content, bounded, stored with the setting, served publicly, kept and restored.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asEnglish, authTestServer } from '../auth/test-support.ts'
import { dbKind, type TestClient, type TestServer } from '../testing.ts'
import { CATEGORIES } from './declarations.ts'
import { MAX_IMAGE_BYTES } from './images.ts'
import { invalidateSettingsCache } from './store.ts'

const url = (category: string) => `/api/v1/settings/setting/?category=${category}`
// a 1×1 PNG
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC', 'base64')
const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`

describe(`settings: authentication, SMS, interface (${dbKind()})`, () => {
  let server: TestServer
  let admin: TestClient

  beforeAll(async () => {
    invalidateSettingsCache()
    server = await authTestServer()
    admin = await asEnglish(server, 'admin')
  })
  afterAll(async () => {
    await server?.close()
  })

  it('declares every key of contract §5.12 for the new categories', () => {
    const keys = (c: string) => CATEGORIES.get(c)!.fields.map((f) => f.name)
    expect(keys('auth')).toEqual(['AUTH_CAS', 'AUTH_OPENID', 'AUTH_RADIUS', 'AUTH_DINGTALK', 'AUTH_FEISHU', 'AUTH_WECOM', 'AUTH_SSO', 'AUTH_SAML2', 'FORGOT_PASSWORD_URL', 'LOGIN_REDIRECT_MSG_ENABLED',
      // ours (issue 34): JumpServer reads it from its config file
      'AUTH_TEMP_TOKEN'])
    expect(keys('oidc')).toEqual(expect.arrayContaining(['BASE_SITE_URL', 'AUTH_OPENID_CLIENT_SECRET', 'AUTH_OPENID_USER_ATTR_MAP', 'AUTH_OPENID_PKCE',
      'AUTH_OPENID_PROVIDER_JWKS_ENDPOINT', 'AUTH_OPENID_SCOPES', 'AUTH_OPENID_USE_NONCE', 'AUTH_OPENID_KEYCLOAK', 'AUTH_OPENID_REALM_NAME']))
    expect(keys('oidc')).toHaveLength(27)
    expect(keys('radius')).toEqual(['AUTH_RADIUS', 'RADIUS_SERVER', 'RADIUS_PORT', 'RADIUS_SECRET', 'OTP_IN_RADIUS'])
    expect(keys('sso')).toEqual(['AUTH_SSO', 'AUTH_SSO_AUTHKEY_TTL'])
    expect(keys('cmpp2')).toHaveLength(9)
    expect(keys('interface')).toEqual(['INTERFACE_LOGIN_TITLE', 'INTERFACE_THEME', 'INTERFACE_LOGO_LOGOUT', 'INTERFACE_LOGO_INDEX', 'INTERFACE_LOGIN_IMAGE', 'INTERFACE_FAVICON'])
    for (const c of ['cas', 'keycloak', 'oauth2', 'saml2', 'sms', 'alibaba', 'tencent', 'huawei']) expect(CATEGORIES.has(c)).toBe(true)
  })

  it('checks change_auth, change_sms and change_interface; OPTIONS names image fields "image upload"', async () => {
    await server.createUser({ username: 'viewer-rest', systemRoles: ['00000000-0000-0000-0000-000000000002'] })
    const auditor = await asEnglish(server, 'viewer-rest')
    for (const c of ['auth', 'oidc', 'sms', 'cmpp2', 'interface']) {
      expect((await auditor.get(url(c))).statusCode).toBe(403)
      expect((await auditor.patch(url(c), {})).statusCode).toBe(403)
    }
    const meta = (await admin.options(url('interface'))).json()
    expect(meta.actions.PUT.INTERFACE_LOGO_LOGOUT).toMatchObject({ type: 'image upload', label: 'Login page logo' })
    expect(meta.actions.PUT.INTERFACE_THEME.choices.map((c: { value: string }) => c.value)).toEqual(['classic_green', 'classic_blue', 'dark_purple'])
  })

  it('seals every secret of every new category and never returns it', async () => {
    const secrets: Record<string, string[]> = {
      oidc: ['AUTH_OPENID_CLIENT_SECRET'], oauth2: ['AUTH_OAUTH2_CLIENT_SECRET'], radius: ['RADIUS_SECRET'],
      saml2: ['SAML2_SP_KEY_CONTENT', 'SAML2_SP_CERT_CONTENT'], alibaba: ['ALIBABA_ACCESS_KEY_SECRET'], tencent: ['TENCENT_SECRET_KEY'],
      huawei: ['HUAWEI_APP_SECRET'], cmpp2: ['CMPP2_SP_SECRET'],
    }
    for (const [c, names] of Object.entries(secrets)) {
      const body = Object.fromEntries(names.map((n) => [n, `plain-${n}-value`]))
      const res = await admin.patch(url(c), body)
      expect(res.statusCode, `${c}: ${res.body}`).toBe(200)
      for (const n of names) {
        expect(res.body).not.toContain(`plain-${n}-value`)
        expect(res.json().SECRETS_SET[n]).toBe(true)
        const row = (await sql<{ value: unknown; encrypted: boolean }>`select value, encrypted from settings where name = ${n}`.execute(server.database.db)).rows[0]!
        expect(row.encrypted).toBe(true)
        expect(JSON.stringify(row.value)).not.toContain('plain-')
      }
      // an empty value keeps the secret
      const again = await admin.patch(url(c), Object.fromEntries(names.map((n) => [n, ''])))
      for (const n of names) expect(again.json().SECRETS_SET[n]).toBe(true)
    }
  })

  it('validates attribute maps, ranges and the CMPP v2.0 template without saving anything', async () => {
    const bad = await admin.patch(url('oidc'), { AUTH_OPENID_USER_ATTR_MAP: ['username'], AUTH_OPENID_ID_TOKEN_MAX_AGE: 0, AUTH_OPENID_SCOPES: 'openid' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({ AUTH_OPENID_USER_ATTR_MAP: ['Must be a JSON object.'], AUTH_OPENID_ID_TOKEN_MAX_AGE: ['Ensure this value is greater than or equal to 1.'] })
    expect((await admin.get(url('oidc'))).json().AUTH_OPENID_SCOPES).toBe('openid profile email')
    const nested = await admin.patch(url('cas'), { CAS_RENAME_ATTRIBUTES: { uid: { deep: 1 } } })
    expect(nested.json()).toEqual({ CAS_RENAME_ATTRIBUTES: ['Each value must be text of at most 256 characters.'] })
    expect((await admin.patch(url('sso'), { AUTH_SSO_AUTHKEY_TTL: 30 })).statusCode).toBe(400)

    const noCode = await admin.patch(url('cmpp2'), { CMPP2_VERIFY_TEMPLATE_CODE: 'Your code' })
    expect(noCode.statusCode).toBe(400)
    expect(noCode.json()).toEqual({ CMPP2_VERIFY_TEMPLATE_CODE: ['The template needs to contain {code}'] })
    const zh = await server.as('admin')
    zh.headers['accept-language'] = 'zh-CN'
    expect((await zh.patch(url('cmpp2'), { CMPP2_VERIFY_TEMPLATE_CODE: 'Your code' })).json()).toEqual({ CMPP2_VERIFY_TEMPLATE_CODE: ['模板需要包含 {code}'] })
    const ok = await admin.patch(url('cmpp2'), { CMPP2_VERIFY_SIGN_NAME: 'Acme', CMPP2_VERIFY_TEMPLATE_CODE: 'Code {code}', CMPP2_PORT: 7891 })
    expect(ok.statusCode).toBe(200)
    expect(ok.json()).toMatchObject({ CMPP2_VERIFY_TEMPLATE_CODE: 'Code {code}', CMPP2_PORT: 7891 })
  })

  it('saves the CAS, OAuth2, SAML2 and RADIUS forms and refuses bad input with field errors, saving nothing', async () => {
    const META = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.com/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`
    const good: Record<string, Record<string, unknown>> = {
      cas: { AUTH_CAS: true, CAS_SERVER_URL: 'https://cas.example.com/cas/', CAS_VERSION: 3 },
      oauth2: { AUTH_OAUTH2: true, AUTH_OAUTH2_CLIENT_ID: 'console', AUTH_OAUTH2_PROVIDER_AUTHORIZATION_ENDPOINT: 'https://oauth.example.com/authorize' },
      saml2: { AUTH_SAML2: true, SAML2_IDP_METADATA_XML: META },
      radius: { AUTH_RADIUS: true, RADIUS_SERVER: '10.0.0.5', RADIUS_PORT: 1812 },
    }
    for (const [c, body] of Object.entries(good)) {
      const res = await admin.patch(url(c), body)
      expect(res.statusCode, `${c}: ${res.body}`).toBe(200)
      expect(res.json()).toMatchObject(body)
    }
    const bad: Record<string, [Record<string, unknown>, string[]]> = {
      cas: [{ CAS_SERVER_URL: 'not a url', CAS_VERSION: 9 }, ['CAS_SERVER_URL', 'CAS_VERSION']],
      oauth2: [{ AUTH_OAUTH2_PROVIDER_AUTHORIZATION_ENDPOINT: 'ftp//x', AUTH_OAUTH2_USER_ATTR_MAP: 'x' }, ['AUTH_OAUTH2_PROVIDER_AUTHORIZATION_ENDPOINT', 'AUTH_OAUTH2_USER_ATTR_MAP']],
      saml2: [{ SAML2_IDP_METADATA_XML: '<html></html>' }, ['SAML2_IDP_METADATA_XML']],
      radius: [{ RADIUS_SERVER: 'bad host!', RADIUS_PORT: 70000 }, ['RADIUS_PORT', 'RADIUS_SERVER']],
    }
    for (const [c, [body, fields]] of Object.entries(bad)) {
      const res = await admin.patch(url(c), body)
      expect(res.statusCode, c).toBe(400)
      expect(Object.keys(res.json()).sort(), c).toEqual(fields)
      expect((await admin.get(url(c))).json(), c).toMatchObject(good[c]!)
    }
    const saml = async (xml: string) => (await admin.patch(url('saml2'), { SAML2_IDP_METADATA_XML: xml })).json().SAML2_IDP_METADATA_XML
    expect(await saml('<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><EntityDescriptor>&e;</EntityDescriptor>')).toEqual(['The IdP metadata must not declare a DOCTYPE or entities.'])
    expect(await saml('<EntityDescriptor><SPSSODescriptor/></EntityDescriptor>')).toEqual(['The IdP metadata has no IDPSSODescriptor.'])
    expect(await saml('<EntityDescriptor><IDPSSODescriptor></IDPSSODescriptor></EntityDescriptor>')).toEqual(['The IdP metadata has no SingleSignOnService location.'])
  })

  it('stores an uploaded image, serves it publicly, keeps it when sent back and restores the default on null', async () => {
    const res = await admin.patch(url('interface'), { INTERFACE_LOGO_LOGOUT: dataUrl(PNG), INTERFACE_LOGIN_TITLE: 'Acme' })
    expect(res.statusCode, res.body).toBe(200)
    const logo = res.json().INTERFACE_LOGO_LOGOUT as string
    expect(logo).toMatch(/^\/media\/settings\/INTERFACE_LOGO_LOGOUT\/[0-9a-f]{16}\.png$/)
    const open = (await server.client().get('/api/v1/settings/public/open/')).json()
    expect(open.INTERFACE).toMatchObject({ login_title: 'Acme', logo_logout: logo })
    const served = await server.client().get(logo)
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/png')
    expect(served.headers['x-content-type-options']).toBe('nosniff')
    expect(served.rawPayload.equals(PNG)).toBe(true)
    expect((await server.client().get('/media/settings/INTERFACE_LOGO_LOGOUT/0000000000000000.png')).statusCode).toBe(404)

    // the form sends the stored URL back with other changes: the image stays
    expect((await admin.patch(url('interface'), { INTERFACE_LOGO_LOGOUT: logo, INTERFACE_THEME: 'classic_blue' })).json().INTERFACE_LOGO_LOGOUT).toBe(logo)
    expect((await server.client().get('/api/v1/settings/public/open/')).json().INTERFACE.theme).toBe('classic_blue')
    const restored = await admin.patch(url('interface'), { INTERFACE_LOGO_LOGOUT: null, INTERFACE_THEME: 'classic_green', INTERFACE_LOGIN_TITLE: 'JumpServer Open Source Bastion Host' })
    expect(restored.json().INTERFACE_LOGO_LOGOUT).toBe('/static/img/logo.png')
  })

  it('refuses what is not an image (by its bytes, SVG included), what is too large, and foreign URLs, saving nothing', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_IMAGE_BYTES)])
    const cases: unknown[] = [
      dataUrl(Buffer.from('just some text, not a picture')), dataUrl(svg, 'image/svg+xml'), dataUrl(big),
      'https://evil.example/logo.png', '/static/img/../../etc/passwd', 42, { url: '/x' },
    ]
    for (const value of cases) {
      const res = await admin.patch(url('interface'), { INTERFACE_FAVICON: value, INTERFACE_LOGIN_TITLE: 'Should not be saved' })
      expect(res.statusCode, String(value).slice(0, 40)).toBe(400)
      expect(Object.keys(res.json())).toEqual(['INTERFACE_FAVICON'])
      expect(res.json().INTERFACE_FAVICON[0]).toMatch(value === cases[2] ? /too large: at most 512 KB/ : /Upload a valid image/)
    }
    const now = (await admin.get(url('interface'))).json()
    expect(now).toMatchObject({ INTERFACE_FAVICON: '/static/img/facio.ico', INTERFACE_LOGIN_TITLE: 'JumpServer Open Source Bastion Host' })
    expect((await sql`select name from setting_images where name = 'INTERFACE_FAVICON'`.execute(server.database.db)).rows).toHaveLength(0)
    // an ICO is accepted
    const ico = Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0, 0, 0, 0])
    const ok = await admin.patch(url('interface'), { INTERFACE_FAVICON: dataUrl(ico, 'image/x-icon') })
    expect(ok.json().INTERFACE_FAVICON).toMatch(/\.ico$/)
    await admin.patch(url('interface'), { INTERFACE_FAVICON: null })
  })
})
