import type { MessageDescriptor } from '@lingui/core'
import type { MenuIcon, RouteNode } from '../types.ts'

type Extra = Omit<Partial<RouteNode>, 'kind' | 'path' | 'name' | 'title' | 'children'>

/** A screen. Pages nested in `children` (create/update/detail of a list) share its menu entry. */
export function page(path: string, name: string, title: MessageDescriptor, permissions: readonly string[], extra: Extra & { children?: RouteNode[] } = {}): RouteNode {
  return { kind: 'page', path, name, title, permissions, ...extra }
}

/** A menu group (level 2): its permissions and flags apply to every route below it. */
export function group(path: string, name: string, title: MessageDescriptor, icon: MenuIcon, children: RouteNode[], extra: Extra = {}): RouteNode {
  return { kind: 'group', path, name, title, icon, children, ...extra }
}

/** A view root (level 1) redirecting to its first screen. */
export function view(path: string, name: string, title: MessageDescriptor, redirect: string, children: RouteNode[], extra: Extra = {}): RouteNode {
  return { kind: 'view', path, name, title, redirect, children, ...extra }
}

/** A menu entry to a server page (opened in a new tab). */
export function link(path: string, name: string, title: MessageDescriptor, href: string, permissions: readonly string[], icon: MenuIcon): RouteNode {
  return { kind: 'link', path, name, title, href, permissions, icon }
}

/** The four codenames of a model: `perm('users', 'user').add` → `users.add_user`. */
export function perm(app: string, model: string) {
  return {
    view: `${app}.view_${model}`,
    add: `${app}.add_${model}`,
    change: `${app}.change_${model}`,
    delete: `${app}.delete_${model}`,
  } as const
}
