/** Organizations, under settings (contract §5.1): system-scope permissions `orgs.*_organization`. Declared in the console manifest. */
import { manifestItem } from '../../entries.ts'

export const organizationResource = manifestItem('organizations').resource
