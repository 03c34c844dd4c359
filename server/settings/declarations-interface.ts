/**
 * Settings → Interface (`?category=interface`, permission settings.change_interface): the login page's title,
 * the logos, the login image and the favicon (image settings, server/settings/images.ts) and the theme. Public
 * settings (`INTERFACE`, contract §4.1) serve them to the login page and the console. JumpServer keeps these in
 * its xpack (`/api/v1/xpack/interface/setting/`, lowercase keys); here they are one more settings category.
 */
import type { SettingsCategory } from './declarations.ts'
import { imageField } from './images.ts'

/** Themes and their colours (key names of the reference console's theme). */
export const THEMES: Record<string, { label: string; colors: Record<string, string> }> = {
  classic_green: {
    label: 'Classic green',
    colors: {
      '--color-primary': '#1ab394', '--color-success': '#2793d7', '--color-info': '#1c84c6', '--color-warning': '#f8ac59',
      '--color-danger': '#ed5565', '--banner-bg': '#148f76', '--submenu-bg': '#ffffff', '--menu-bg': '#ffffff',
      '--menu-text': '#646A73', '--menu-text-active': '#1ab394', '--menu-hover': '#ffffff',
    },
  },
  classic_blue: {
    label: 'Classic blue',
    colors: {
      '--color-primary': '#1c84c6', '--color-success': '#1ab394', '--color-info': '#23c6c8', '--color-warning': '#f8ac59',
      '--color-danger': '#ed5565', '--banner-bg': '#1a6fa8', '--submenu-bg': '#ffffff', '--menu-bg': '#ffffff',
      '--menu-text': '#646A73', '--menu-text-active': '#1c84c6', '--menu-hover': '#ffffff',
    },
  },
  dark_purple: {
    label: 'Dark purple',
    colors: {
      '--color-primary': '#7b4fc9', '--color-success': '#1ab394', '--color-info': '#1c84c6', '--color-warning': '#f8ac59',
      '--color-danger': '#ed5565', '--banner-bg': '#3d2a63', '--submenu-bg': '#2b2140', '--menu-bg': '#2b2140',
      '--menu-text': '#d6cfe6', '--menu-text-active': '#ffffff', '--menu-hover': '#3d2a63',
    },
  },
}

export const INTERFACE: SettingsCategory = {
  name: 'interface',
  title: 'Interface',
  perms: { view: 'settings.change_interface', change: 'settings.change_interface' },
  fields: [
    { name: 'INTERFACE_LOGIN_TITLE', type: 'string', label: 'Login title', max_length: 1024, required: false, allow_blank: true, default: 'JumpServer Open Source Bastion Host',
      help_text: 'The title of the login page and of the browser tab' },
    {
      name: 'INTERFACE_THEME', type: 'choice', label: 'Theme', required: false, default: 'classic_green',
      choices: Object.entries(THEMES).map(([value, t]) => ({ value, label: t.label })),
    },
    imageField('INTERFACE_LOGO_LOGOUT', 'Login page logo', '/static/img/logo.png'),
    imageField('INTERFACE_LOGO_INDEX', 'Console logo', '/static/img/logo.png'),
    imageField('INTERFACE_LOGIN_IMAGE', 'Login image', '/static/img/login_image.png'),
    imageField('INTERFACE_FAVICON', 'Website icon', '/static/img/facio.ico'),
  ],
}
