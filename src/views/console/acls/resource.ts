/** What the ACL pages share: the kind, its resource and the matcher columns. */
import type { ResourceDef } from '../../../ui/common/resource.ts'
import { manifestItem } from '../../entries.ts'

export type Kind = 'command' | 'asset'
export const resourceOf = (kind: Kind): ResourceDef => manifestItem(kind === 'command' ? 'command-acls' : 'asset-acls').resource

export const MATCHER_COLUMNS = ['users_username_group', 'assets_name_group', 'assets_address_group', 'accounts_username_group']
