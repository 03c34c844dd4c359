/** Users: declared in the console manifest (contract §4.11, §5.1). */
import { manifestItem } from '../../entries.ts'

export const userResource = manifestItem('users').resource
export const USERS_URL = userResource.url

/** Removing from the current organization is a membership change, allowed with either permission. */
export const REMOVE_USER_PERM = 'users.remove_user|users.change_user'
