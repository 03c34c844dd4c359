/**
 * The root app machine (machines/app/) bound to the console's own data types: registering them here types every
 * snapshot the console reads (`s.context.profile` is the full `Profile` of src/api). The machine stays pure; its
 * side effects are provided in appActor.ts.
 */
import type { LicenseDetail } from '../api/license.ts'
import type { Profile } from '../api/profile.ts'
import type { PublicSettings } from '../api/settings.ts'

declare module '../../machines/app/app.types.ts' {
  interface AppRegister {
    profile: Profile
    settings: PublicSettings
    license: LicenseDetail
  }
}

export { appMachine, TICKETS_REFRESH_MS } from '../../machines/app/app.machine.ts'
export type { AppActorRef, AppContext, AppEvent, AppInput, AppSnapshot } from '../../machines/app/app.machine.ts'
