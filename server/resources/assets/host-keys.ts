/**
 * An asset's recorded SSH host keys (trust on first use, server/ssh/target.ts): read them, and clear them so the
 * next connection records the key the host offers now (an administrator accepts a changed key).
 * `GET /api/v1/assets/assets/<id>/host-keys/` (view), `POST …/<id>/clear-host-keys/` (change) → `{cleared: n}`.
 */
import type { ActionDef } from '../../engine/types.ts'
import { formatDateTime } from '../../http/datetime.ts'
import { clearHostKeys, hostKeysOf } from '../../ssh/target.ts'
import { assets } from './assets.ts'

const hostKeyActions: ActionDef[] = [
  {
    path: 'host-keys', detail: true, method: 'GET', perm: 'assets.view_asset',
    async handler(req, _reply, api, id) {
      const row = await api.getObject(req, id!)
      const keys = await hostKeysOf(req.ctx.db, String(row.id))
      return keys.map((k) => ({ port: k.port, fingerprint: k.fingerprint, date_created: formatDateTime(k.date_created, req.ctx.tz) }))
    },
  },
  {
    path: 'clear-host-keys', detail: true, method: 'POST', perm: 'assets.change_asset',
    async handler(req, reply, api, id) {
      const row = await api.getObject(req, id!)
      const cleared = await clearHostKeys(req.ctx.db, String(row.id))
      if (cleared) await api.audit(req.ctx.db, req, 'update', row, [{ field: 'host_keys', before: `${cleared}`, after: '0' }])
      return reply.status(200).send({ cleared })
    },
  },
]

assets.actions = [...(assets.actions ?? []), ...hostKeyActions]
