import type { ResourceDef } from './types.ts'

/** Every declared resource by name, so relations can find their targets. */
const resources = new Map<string, ResourceDef>()

export function defineResource<T extends ResourceDef>(def: T): T {
  const prev = resources.get(def.name)
  if (prev && prev !== def) throw new Error(`resource ${def.name} declared twice`)
  resources.set(def.name, def)
  return def
}

export function resourceByName(name: string): ResourceDef {
  const def = resources.get(name)
  if (!def) throw new Error(`unknown resource ${name}`)
  return def
}

export function allResources(): ResourceDef[] {
  return [...resources.values()]
}

export function findResource(name: string): ResourceDef | undefined {
  return resources.get(name)
}

/** Drops a resource declared by a test (test files may share one registry: the server project runs unisolated). */
export function forgetResource(name: string): void {
  resources.delete(name)
}
