/**
 * Asset permissions, what users and groups are granted, connection tokens (issue 11; docs/perms.md). The
 * resources are registered with every other one (RESOURCES); registerPerms adds the grant routes.
 */
import type { FastifyInstance } from 'fastify'
import { assetPermissions, PERMISSION_RELATIONS } from './permissions.ts'
import { registerGrantRoutes } from './routes.ts'
import { applyTemplateAccounts } from './template-accounts.ts'
import { connectionTokens } from './tokens.ts'

// `%<template id>` accounts are created and pushed once the permission is saved (outside its transaction).
assetPermissions.hooks!.afterCommit = async (id, _values, _ctx, info) => {
  if (!info.req) return
  await applyTemplateAccounts(info.req, String(id)).catch((e: unknown) => info.req!.log.warn({ err: e }, 'template accounts of a permission'))
}

export const PERMS_RESOURCES = [assetPermissions, ...PERMISSION_RELATIONS, connectionTokens]

export function registerPerms(app: FastifyInstance): void {
  registerGrantRoutes(app)
}
