/** Manifest entries of sessions, commands and file transfers (data only: part of the first chunk; the pages are in pages.ts). */
import { msg } from '@lingui/core/macro'
import { defineEntries } from '../../../router/resources.ts'

export const SESSION_ENTRIES = defineEntries([
  {
    key: 'sessions',
    model: 'terminal.session',
    url: '/api/v1/terminal/sessions/',
    path: '/audit/sessions/sessions',
    routeName: 'Session',
    typeLabel: msg`Session`,
    titles: { list: msg`Session list`, detail: msg`Session details` },
    offers: { create: false, update: false, delete: false, import: false },
    defaultOrder: '-date_start',
    dateRange: true,
  },
  {
    key: 'commands',
    model: 'terminal.command',
    url: '/api/v1/terminal/commands/',
    path: '/audit/sessions/command',
    routeName: 'Command',
    typeLabel: msg`Command`,
    titles: { list: msg`Commands` },
    offers: { create: false, update: false, delete: false, import: false, detail: false },
    defaultOrder: '-timestamp',
    dateRange: true,
  },
  {
    key: 'ftp-logs',
    model: 'audits.ftplog',
    url: '/api/v1/audits/ftp-logs/',
    path: '/audit/sessions/ftp',
    routeName: 'FtpLog',
    listRouteName: 'FtpLog',
    typeLabel: msg`File transfer`,
    titles: { list: msg`File transfers` },
    offers: { create: false, update: false, delete: false, import: false, detail: false },
    defaultOrder: '-date_start',
    dateRange: true,
  },
])
