// Projector vectors for the tools whose definitions differ between DSH and
// LasmeX, computed by each host's own tool definitions (the registered
// ToolDefinition's output.render / presentationMeta and its presenters).
//
//   cd TREE && node --import tsx/esm vectors.ts --host dsh --tree TREE --out FILE
import { writeFileSync } from 'node:fs'
import { load, treeModule, type HostName } from './host.ts'

function arg(name: string): string {
  const i = process.argv.indexOf(`--${name}`)
  if (i < 0 || i + 1 >= process.argv.length) throw new Error(`missing --${name}`)
  return process.argv[i + 1]!
}
const host = arg('host') as HostName
const tree = arg('tree')
const out = arg('out')
const plugin = (mod: any): any => typeof mod.apply === 'function' ? mod : mod.default

interface Case { tool: string; args: unknown; value: unknown; isError?: boolean }

const sources = [
  { url: 'https://example.com/a', title: 'A — ünïcode', snippet: 'First.\nSecond line.', publishedAt: '2025-06-01' },
  { url: 'https://example.com/b' },
  { url: 'https://example.org/c?q=1', title: '', snippet: '' },
]
const webCases = (shape: (qs: string[]) => unknown): Case[] => [
  { tool: 'web_search', args: shape(['go generics']), value: { sources, truncated: false } },
  { tool: 'web_search', args: shape(['a', 'b, c']), value: { content: 'Summary text.', sources: sources.slice(0, 1), truncated: true } },
  { tool: 'web_search', args: shape(['nothing']), value: { sources: [], truncated: false } },
]
const image = { attachmentId: 'att-1', mediaType: 'image/png', bytes: 900, width: 1000, height: 750 }
const imageCases: Case[] = [
  { tool: 'read_image', args: { file_path: 'a.png' }, value: { path: '/w/a.png', image } },
  { tool: 'read_image', args: { file_path: 'b.jpg' }, value: { path: '/w/b.jpg', image: { ...image, mediaType: 'image/jpeg', name: 'b.jpg' } } },
  ...(host === 'dsh' ? [
    { tool: 'read_image', args: { file_path: 'c.png' }, value: { path: '/w/c.png', image: { ...image, originalDimensions: { width: 4000, height: 3000 } } } },
    { tool: 'read_image', args: { file_path: 'd.png' }, value: { path: '/w/d.png', image: { ...image, width: 333, height: 250, originalDimensions: { width: 1000, height: 751 } } } },
  ] : []),
]
const subagentCases: Case[] = [
  { tool: 'subagent', args: { description: 'd', prompt: 'p', run_in_background: true }, value: { kind: 'background', jobId: 'subagent-1' } },
  { tool: 'subagent', args: { description: 'd', prompt: 'p' }, value: { kind: 'continuable', subagentId: 's-1' } },
]

async function context(): Promise<any> {
  const { Context } = await load(host, 'cordis')
  const ctx = new Context()
  await ctx.plugin(plugin(await load(host, 'system-prompt')))
  await ctx.plugin(plugin(await load(host, 'tools')))
  return ctx
}

async function main(): Promise<void> {
  const rows: string[] = []
  const run = async (ctx: any, cases: Case[]): Promise<void> => {
    for (const c of cases) {
      const def = ctx.tools.get(c.tool)
      if (def === undefined) throw new Error(`${host}: ${c.tool} is not registered`)
      const row: Record<string, unknown> = { host, tool: c.tool, args: c.args, value: c.value }
      const content = def.output.render(c.args, c.value)
      row.content = content
      if (def.output.presentationMeta !== undefined) row.meta = def.output.presentationMeta(c.args, c.value)
      if (def.presentCall !== undefined) row.callView = def.presentCall(c.args) ?? null
      if (def.presentResult !== undefined) {
        row.resultView = def.presentResult(c.args, { content, isError: false, ...row.meta === undefined ? {} : { meta: row.meta } }) ?? null
      }
      rows.push(JSON.stringify(row))
    }
  }
  {
    const ctx = await context()
    await ctx.plugin(plugin(await load(host, 'web')))
    await ctx.plugin(plugin(await load(host, 'tool-web')), { fetch: false })
    await run(ctx, webCases(host === 'dsh' ? (queries) => ({ queries }) : (qs) => ({ query: qs.join(' ') })))
  }
  {
    const ctx = await context()
    await ctx.plugin(plugin(await load(host, 'fs-local')), { cwd: '/w' })
    await ctx.plugin(plugin(await load(host, 'subprocess-local')))
    await ctx.plugin(plugin(await load(host, 'attachment-local')), { dshHome: '/nonexistent-home' })
    await ctx.plugin(plugin(await load(host, 'tool-fs')), {})
    await run(ctx, imageCases)
  }
  {
    const ctx = await context()
    await ctx.plugin(plugin(await load(host, 'subagent')))
    const scripted = await treeModule(tree, 'packages/subagent/tool-subagent/tests/scripted-provider.ts')
    await scripted.mountScriptedProvider(ctx, { name: 'mock' })
    await ctx.plugin(plugin(await load(host, 'tool-subagent')), { provider: 'mock' })
    await run(ctx, subagentCases)
  }
  writeFileSync(out, rows.join('\n') + '\n')
  console.log(`${host}: ${rows.length} vectors`)
  process.exit(0)
}
await main()
