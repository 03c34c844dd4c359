import type { FastifyInstance } from 'fastify'
import { registerCategories } from './categories.ts'
import { registerCurrentOrg } from './current-org.ts'
import { installStartupHooks } from './hooks.ts'
import { registerLicense } from './license-routes.ts'
import { registerOtpBinding } from './otp.ts'
import { registerPasswordChange } from './password.ts'
import { registerProfile } from './profile.ts'
import { registerPublicSettings } from './public-settings.ts'
import { registerPreferences } from '../profile/preferences.ts'

/** public settings, profile, current org, categories, licence. */
export async function registerStartup(app: FastifyInstance): Promise<void> {
  installStartupHooks(app)
  registerPublicSettings(app)
  registerProfile(app)
  registerPasswordChange(app)
  registerOtpBinding(app)
  registerPreferences(app)
  registerCurrentOrg(app)
  registerCategories(app)
  registerLicense(app)
}
