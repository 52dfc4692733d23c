// Records scripted sessions on a prepared DSH or LasmeX tree, with the
// recorder plugin loaded, into <out>/<host>/<scenario>/: the log under the
// name the host gave it (session.jsonl, or session.vN.jsonl from format 1
// on) and its values sidecar named after it (session.vN.values.jsonl).
//
//   cd TREE && node --import tsx/esm record.ts --host dsh --tree TREE --out DIR [--only NAME]
import { reset } from './pin.ts'
import { chmodSync, cpSync, mkdirSync, utimesSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs'
import { basename, join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire, register } from 'node:module'
import { load, treeModule, type HostName } from './host.ts'
import { scenarios, type Scenario, type Env, type Step } from './scenarios.ts'
import { startServer } from './server.ts'
import * as Recorder from '../src/index.ts'

const here = dirname(fileURLToPath(import.meta.url))

function arg(name: string, def?: string): string {
  const i = process.argv.indexOf(`--${name}`)
  if (i >= 0 && i + 1 < process.argv.length) return process.argv[i + 1]!
  if (def === undefined) throw new Error(`missing --${name}`)
  return def
}

const host = arg('host') as HostName
const tree = arg('tree')
const out = arg('out')
const only = arg('only', '')
// Values and content carry absolute paths: every scenario runs in the same place.
const base = arg('base', '/tmp/dsh-replay-record')

function plugin(mod: any): any {
  return typeof mod.apply === 'function' ? mod : mod.default
}

// Upstream's generation names: session.jsonl (format 0), session.vN.jsonl.
const GENERATION = /^session(?:\.v([1-9][0-9]*))?\.jsonl(?:\.zstd)?$/

/** The logs of each directory less the older generations beside a newer one. */
function newestGeneration(logs: string[]): string[] {
  const newest = new Map<string, { path: string, gen: number }>()
  const others: string[] = []
  for (const p of logs) {
    const m = GENERATION.exec(basename(p))
    if (m === null) { others.push(p); continue }
    const gen = m[1] === undefined ? 0 : Number(m[1])
    const cur = newest.get(dirname(p))
    if (cur === undefined || gen > cur.gen) newest.set(dirname(p), { path: p, gen })
  }
  return [...others, ...[...newest.values()].map((e) => e.path)].sort()
}

function findLogs(dir: string): string[] {
  const found: string[] = []
  const walk = (d: string): void => {
    for (const e of readdirSync(d)) {
      const p = join(d, e)
      if (statSync(p).isDirectory()) walk(p)
      else if (p.endsWith('.jsonl') && !p.endsWith('.values.jsonl')) found.push(p)
    }
  }
  if (existsSync(dir)) walk(dir)
  return found.sort()
}

async function run(s: Scenario): Promise<void> {
  const root = join(base, host, s.name)
  rmSync(root, { recursive: true, force: true })
  reset()
  const ws = join(root, 'ws')
  const sessions = join(root, 'sessions')
  mkdirSync(ws, { recursive: true })
  // glob lists by modification time: give every file its own fixed one.
  let mtime = Date.UTC(2025, 0, 1) / 1000
  for (const [rel, content] of Object.entries(s.files ?? {})) {
    mkdirSync(dirname(join(ws, rel)), { recursive: true })
    writeFileSync(join(ws, rel), content)
    utimesSync(join(ws, rel), mtime, mtime)
    mtime += 60
  }
  const { Context } = await load(host, 'cordis')
  const { createUserMessage } = await load(host, 'llm')
  const { SessionId } = await load(host, 'session')
  const { mountAgentLoopTestDependencies } = await load(host, 'agent-loop-testkit')
  const mock = await treeModule(tree, 'packages/core/agent-loop/tests/mock-adapter.ts')
  const ctx = new Context()
  await mountAgentLoopTestDependencies(ctx, s.tools === undefined ? {} : { tools: s.tools })
  await ctx.plugin(plugin(await load(host, 'session-persistence-jsonl')), { root: sessions, compression: 'none' })
  await ctx.plugin(plugin(await load(host, 'agent-loop')), { agents: [] })
  process.chdir(ws)
  const used = new Set<string>()
  const env: Env = {
    host, tree, ws, root, mock, web: WEB,
    use: async (name: string, config: unknown = {}) => {
      if (used.has(name)) return
      used.add(name)
      await ctx.plugin(plugin(await load(host, name)), config)
    },
    ctx,
  }
  await s.setup(env)
  await ctx.plugin(bench ? timedRecorder : Recorder, {})
  const started = performance.now()
  const entries = script(mock, s.steps(env), s)
  const expected = entries.length
  const adapter = new mock.MockAdapter(entries)
  if (s.images) {
    const resolve = adapter.resolveModel.bind(adapter)
    adapter.resolveModel = async (provider: string, model: string) => ({ ...await resolve(provider, model), inputModalities: ['text', 'image'] })
  }
  ctx.llm.registerAdapter(['mock'], adapter)
  const agent = ctx.agentLoop.create(SessionId(`${host}-${s.name}`), { provider: 'mock', model: 'mock' })
  await s.start?.(env, agent)
  for (const text of s.prompts ?? ['go']) {
    const idle = new Promise<void>((resolve) => {
      const dispose = ctx.on('agent/status', ({ agent: subject, status }: any) => {
        if (subject === agent && status === 'idle') { dispose(); resolve() }
      })
    })
    agent.followup(createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }))
    await idle
  }
  if (failures.length > 0) throw new Error(`${host}/${s.name}: ${failures.join('; ')}`)
  if (adapter.requests.length !== expected) {
    throw new Error(`${host}/${s.name}: the model was asked ${adapter.requests.length} times for a script of ${expected}`)
  }
  await ctx.sessions.flush(agent.session)
  await ctx.stop?.()
  const logs = findLogs(sessions)
  // Subagents write logs of their own; the scenarios give them no tools, so
  // only the agent's is kept: the newest generation the host wrote
  // (session.jsonl up to format 0, session.vN.jsonl after), under its own
  // name, with the sidecar named after it.
  const main = newestGeneration(logs.filter((l) => l.includes(`${host}-${s.name}`)))
  if (main.length !== 1) throw new Error(`${s.name}: expected one session log of the agent, found ${main.length} among ${logs.length}`)
  const dest = join(out, host, s.name)
  rmSync(dest, { recursive: true, force: true })
  mkdirSync(dest, { recursive: true })
  cpSync(main[0]!, join(dest, basename(main[0]!)))
  const side = Recorder.sidecarPath(main[0]!)
  if (existsSync(side)) cpSync(side, join(dest, basename(side)))
  if (bench) {
    const wall = performance.now() - started
    console.log(`${host}/${s.name}: ${timing.calls} calls, recorder ${(timing.ms * 1000 / timing.calls).toFixed(1)} µs/call, session ${(wall / timing.calls).toFixed(2)} ms/call`)
    timing.total.calls += timing.calls; timing.total.ms += timing.ms; timing.total.wall += wall
    timing.calls = 0; timing.ms = 0
    return
  }
  console.log(`${host}/${s.name}: ${adapter.requests.length} model turns`)
}

/** The model: one response per step (several tool calls for a parallel step), then a closing text. */
const failures: string[] = []

// --bench: the recorder's own time per call, measured around its listener,
// beside the session's wall time per call (tools, loop and model included).
const bench = process.argv.includes('--bench')
const timing = { calls: 0, ms: 0, total: { calls: 0, ms: 0, wall: 0 } }
const timedRecorder = {
  name: Recorder.name,
  inject: Recorder.inject,
  apply(ctx: any, config: Recorder.Config) {
    const on = ctx.on.bind(ctx)
    const timed = new Proxy(ctx, {
      get(target, key) {
        if (key !== 'on') return Reflect.get(target, key)
        return (event: string, listener: (...a: any[]) => unknown) => on(event, (...a: any[]) => {
          const t0 = performance.now()
          try { return listener(...a) } finally { timing.ms += performance.now() - t0; timing.calls++ }
        })
      },
    })
    Recorder.apply(timed, config)
  },
}

function script(mock: any, steps: Step[], s?: Scenario): unknown[] {
  const resolve = (a: any, req: any): object => typeof a === 'function' ? a(req) : a
  if (s?.childReplies !== undefined) {
    // Parent and children take turns in an order the scheduler decides, so
    // every entry looks at the request to see whose it is.
    const queue: (Step | 'done')[] = [...steps, 'done']
    // A child's prompt reaches it as a user message (LasmeX puts a runtime
    // context message before it); the parent only has it in tool arguments.
    const child = (req: any): string | undefined => {
      const text = (req.messages ?? []).filter((m: any) => m.role === 'user')
        .flatMap((m: any) => Array.isArray(m.content) ? m.content : [])
        .filter((b: any) => b.type === 'text').map((b: any) => b.text).join('\n')
      for (const [prompt, reply] of Object.entries(s.childReplies!)) if (text.includes(prompt)) return reply
      return undefined
    }
    return Array.from({ length: steps.length + 1 + (s.children ?? 0) }, () => (req: any) => {
      try {
        const reply = child(req)
        if (reply !== undefined) return mock.textResponse(reply)
        const next = queue.shift()
        if (next === undefined || next === 'done') return mock.textResponse('done')
        return step(next, req)
      } catch (error) {
        failures.push(String(error))
        throw error
      }
    })
  }
  const entries: unknown[] = steps.map((st) => (req: any) => {
    try {
      return step(st, req)
    } catch (error) {
      failures.push(String(error))
      throw error
    }
  })
  function step(st: Step, req: any): unknown {
    if (Array.isArray(st)) return mock.toolCallResponse(st[0], st[1], resolve(st[2], req))
    return parallel(mock, st.parallel.map(([id, name, a]) => [id, name, resolve(a, req)]))
  }
  entries.push(mock.textResponse('done'))
  return entries
}

function parallel(mock: any, list: [string, string, object][]): unknown[] {
  const chunks: any[] = []
  list.forEach(([id, name, args], index) => {
    const one = mock.toolCallResponse(id, name, args).filter((c: any) => c.type !== 'usage' && c.type !== 'finish')
    for (const c of one) chunks.push({ ...c, index })
  })
  chunks.push({ type: 'usage', usage: { inputTokens: 10, outputTokens: 5 } }, { type: 'finish', reason: { kind: 'tool-calls' } })
  return chunks
}

// ripgrep searches files in parallel and prints them as they finish; a
// wrapper that adds --sort=path makes grep's order the same on every run.
// tool-fs-search takes rg's path from @vscode/ripgrep, which a module hook
// answers with the wrapper's.
{
  const { rgPath } = await import(createRequire(join(tree, 'packages/fs/tool-fs-search/package.json')).resolve('@vscode/ripgrep'))
  const wrapper = join(base, 'rg-sorted')
  mkdirSync(base, { recursive: true })
  writeFileSync(wrapper, `#!/bin/sh\nexec '${rgPath}' --sort=path "$@"\n`)
  chmodSync(wrapper, 0o755)
  process.env.DSH_REPLAY_RG_WRAPPER = wrapper
  register('./rg-hook.mjs', import.meta.url)
}

// Fetched URLs are in the values: the recordings use one fixed port
// (--port 0 takes any free one, for runs that are only verified).
const server = await startServer(Number(arg('port', '47613')))
const WEB = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`

for (const s of scenarios) {
  if (only !== '' && s.name !== only) continue
  if (s.hosts !== undefined && !s.hosts.includes(host)) continue
  await run(s)
}
server.close()
if (bench && timing.total.calls > 0) {
  const t = timing.total
  console.log(`${host}: ${t.calls} calls, recorder ${(t.ms * 1000 / t.calls).toFixed(1)} µs/call, session ${(t.wall / t.calls).toFixed(2)} ms/call (${(100 * t.ms / t.wall).toFixed(2)}%)`)
}
process.exit(0)
