// Host package names: LasmeX is DSH's fork with its packages renamed
// (`lasmex-<name>` where DSH has `@deepseek-ai/dsh-<name>`).
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'

export type HostName = 'dsh' | 'lasmex'

export function pkg(host: HostName, name: string): string {
  if (name === 'cordis') return '@deepseek-ai/cordis'
  return host === 'dsh' ? `@deepseek-ai/dsh-${name}` : `lasmex-${name}`
}

/** Import a host package by its short name (`tool-fs`). */
export async function load(host: HostName, name: string): Promise<any> {
  return import(pkg(host, name))
}

/** Import a module of the tree by its path (test helpers that are not packages). */
export async function treeModule(tree: string, rel: string): Promise<any> {
  return import(pathToFileURL(join(tree, rel)).href)
}
