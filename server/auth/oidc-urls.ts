/** The web routes of OpenID Connect login (JumpServer's paths). */
export const OIDC_LOGIN_URL = '/core/auth/openid/login/'
export const OIDC_CALLBACK_URL = '/core/auth/openid/callback/'
