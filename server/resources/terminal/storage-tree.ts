/**
 * `GET /api/v1/terminal/command-storages/tree/` — lina's commands page starts from this tree (a root and one node per
 * command storage, `?real=1&date_from=…&date_to=…`) and lists `commands/?command_storage_id=<node>`. As JumpServer
 * 3.2: the `null` storage is left out; each usable storage's name carries its number of commands matching the
 * request's command filters (dates, user, asset, search… of the current organization); one it cannot read is shown
 * "*Invalid". Commands are kept in the database here, so the `server` storages are the usable ones; an
 * Elasticsearch storage is listed as invalid (this server writes no commands there).
 */
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { resourceApi } from '../../engine/index.ts'
import type { ActionDef, ResourceDef } from '../../engine/types.ts'
import { addMessages, tr } from '../../i18n.ts'

addMessages({
  'Command storages': ['命令存储', 'コマンドストレージ'],
  'Invalid': ['无效', '無効'],
})

interface TreeNode { id: string; name: string; title: string; pId: string; isParent: boolean; open: boolean; valid?: boolean }

export function storageTreeAction(commands: ResourceDef): ActionDef {
  return {
    path: 'tree', detail: false, method: 'GET', perm: 'terminal.view_commandstorage|terminal.view_command',
    handler: async (req: FastifyRequest) => {
      const lang = req.ctx.lang
      const storages = (await sql<{ id: string; name: string; type: string }>`select id, name, type from command_storages
        where name <> 'null' order by is_default desc, name`.execute(req.ctx.db)).rows
      let count: number | undefined
      const counted = async () => {
        if (count !== undefined) return count
        // the commands list's own filters and organization scope, one row asked: its exact count
        const q: Record<string, unknown> = { ...(req.query as Record<string, unknown>), limit: '1', offset: '0' }
        delete q.real
        const answer = await resourceApi(commands).listResponse(Object.assign(Object.create(req) as FastifyRequest, { query: q })) as { count: number }
        return (count = answer.count)
      }
      const nodes: TreeNode[] = []
      for (const s of storages) {
        const label = `${s.name}(${s.type})`
        if (s.type === 'server') nodes.push({ id: s.id, name: `${label} (${await counted()})`, title: label, pId: 'root', isParent: false, open: false, valid: true })
        else nodes.push({ id: s.id, name: `${label} *${tr(lang, 'Invalid')}`, title: label, pId: 'root', isParent: false, open: false, valid: false })
      }
      const root = tr(lang, 'Command storages')
      nodes.push({ id: 'root', name: root, title: root, pId: '', isParent: true, open: true })
      return nodes
    },
  }
}
