/**
 * Settings → Basic, Security and Clean: each category rendered from its OPTIONS by the generic object form
 * (src/ui/form/ObjectFormPage.tsx), grouped as the reference console groups them, saved with PATCH.
 * The other settings routes are still placeholders.
 */
import { msg } from '@lingui/core/macro'
import { settingsCategoryUrl } from '../../api/settings.ts'
import { ObjectFormPage, type ObjectFormPageConfig } from '../../ui/form/ObjectFormPage.tsx'

export const basicSettingsConfig: ObjectFormPageConfig = {
  url: settingsCategoryUrl('basic'),
  title: msg`Basic settings`,
  changePerm: 'settings.change_setting',
  layout: [
    [msg`Basic information`, ['SITE_URL', 'USER_GUIDE_URL', 'FORGOT_PASSWORD_URL', 'GLOBAL_ORG_DISPLAY_NAME']],
    [msg`Features`, ['TICKETS_ENABLED']],
    [msg`Announcement`, ['ANNOUNCEMENT_ENABLED', 'ANNOUNCEMENT']],
  ],
  overrides: {
    ANNOUNCEMENT: { hidden: (values) => values.ANNOUNCEMENT_ENABLED !== true },
  },
}

export const securitySettingsConfig: ObjectFormPageConfig = {
  url: settingsCategoryUrl('security'),
  title: msg`Security`,
  changePerm: 'settings.change_security',
  layout: [
    [msg`Password rules`, [
      'SECURITY_PASSWORD_MIN_LENGTH', 'SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH', 'SECURITY_PASSWORD_UPPER_CASE', 'SECURITY_PASSWORD_LOWER_CASE',
      'SECURITY_PASSWORD_NUMBER', 'SECURITY_PASSWORD_SPECIAL_CHAR', 'OLD_PASSWORD_HISTORY_LIMIT_COUNT', 'SECURITY_PASSWORD_EXPIRATION_TIME',
    ]],
    [msg`Login limits`, [
      'SECURITY_LOGIN_LIMIT_COUNT', 'SECURITY_LOGIN_LIMIT_TIME', 'SECURITY_LOGIN_IP_LIMIT_COUNT', 'SECURITY_LOGIN_IP_LIMIT_TIME',
      'SECURITY_LOGIN_IP_WHITE_LIST', 'SECURITY_LOGIN_IP_BLACK_LIST', 'USER_LOGIN_SINGLE_MACHINE_ENABLED', 'ONLY_ALLOW_EXIST_USER_AUTH',
      'ONLY_ALLOW_AUTH_FROM_SOURCE',
    ]],
    [msg`MFA and login`, [
      'SECURITY_MFA_AUTH', 'SECURITY_MFA_IN_LOGIN_PAGE', 'SECURITY_MFA_AUTH_ENABLED_FOR_THIRD_PARTY', 'SECURITY_MFA_VERIFY_TTL', 'VERIFY_CODE_TTL',
      'SECURITY_LOGIN_CHALLENGE_ENABLED', 'SECURITY_LOGIN_CAPTCHA_ENABLED', 'SECURITY_CHECK_DIFFERENT_CITY_LOGIN',
    ]],
    [msg`Sessions`, [
      'SECURITY_MAX_IDLE_TIME', 'SECURITY_SESSION_SHARE', 'SECURITY_WATERMARK_ENABLED', 'SECURITY_LUNA_REMEMBER_AUTH', 'SECURITY_COMMAND_EXECUTION',
      'SECURITY_SERVICE_ACCOUNT_REGISTRATION', 'SECURITY_INSECURE_COMMAND', 'SECURITY_INSECURE_COMMAND_EMAIL_RECEIVER',
    ]],
  ],
  overrides: {
    // the server keeps MFA on the login page only with MFA for all users
    SECURITY_MFA_IN_LOGIN_PAGE: { hidden: (values) => values.SECURITY_MFA_AUTH !== 1 },
    SECURITY_INSECURE_COMMAND_EMAIL_RECEIVER: { hidden: (values) => values.SECURITY_INSECURE_COMMAND !== true },
  },
}

export const cleanSettingsConfig: ObjectFormPageConfig = {
  url: settingsCategoryUrl('clean'),
  title: msg`Periodic clean-up`,
  help: msg`A daily task deletes the records older than these numbers of days.`,
  changePerm: 'settings.change_clean',
  layout: [
    [msg`Logs`, ['LOGIN_LOG_KEEP_DAYS', 'TASK_LOG_KEEP_DAYS', 'OPERATE_LOG_KEEP_DAYS', 'FTP_LOG_KEEP_DAYS', 'TERMINAL_SESSION_KEEP_DURATION', 'ACTIVITY_LOG_KEEP_DAYS']],
    [msg`Database`, ['CLOUD_SYNC_TASK_EXECUTION_KEEP_DAYS']],
  ],
}

export const BasicSettingsPage = () => <ObjectFormPage config={basicSettingsConfig} />
export const SecuritySettingsPage = () => <ObjectFormPage config={securitySettingsConfig} />
export const CleanSettingsPage = () => <ObjectFormPage config={cleanSettingsConfig} />
