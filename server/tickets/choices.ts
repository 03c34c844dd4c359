/** Choices of tickets and flows (JumpServer 3.2 tickets/const.py). */
export const TYPE_CHOICES = [
  { value: 'apply_asset', label: 'Apply for asset' },
  { value: 'login_confirm', label: 'Login confirm' },
  { value: 'command_confirm', label: 'Command confirm' },
  { value: 'login_asset_confirm', label: 'Login asset confirm' },
]
export const STATE_CHOICES = [
  { value: 'pending', label: 'Open' },
  { value: 'closed', label: 'Cancel' },
  { value: 'reopen', label: 'Reopen' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
]
export const STATUS_CHOICES = [{ value: 'open', label: 'Open' }, { value: 'closed', label: 'Finished' }]
export const STRATEGY_CHOICES = [
  { value: 'super_admin', label: 'Super admin' },
  { value: 'org_admin', label: 'Org admin' },
  { value: 'super_org_admin', label: 'Super admin and org admin' },
  { value: 'custom_user', label: 'Custom user' },
]

