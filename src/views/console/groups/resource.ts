/** User groups (contract §5.1): members are the `users` m2m, changed by PATCH. Declared in the console manifest. */
import { manifestItem } from '../../entries.ts'

export const userGroupResource = manifestItem('user-groups').resource
