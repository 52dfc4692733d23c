// Conformance vectors for DSH's Agent Teams tools (tool-agent-team), computed
// by the plugin's own registered definitions: each tool's compiled parameter
// and output schemas, render over sample values, and the registry's
// "invalid arguments: …" text (defineTool's execute validation) for sample
// arguments, or that it accepted them.
//
//   cd TREE && node --import tsx/esm team-vectors.ts --tree TREE --out FILE
import { writeFileSync } from 'node:fs'
import { treeModule } from './host.ts'

function arg(name: string): string {
  const i = process.argv.indexOf(`--${name}`)
  if (i < 0 || i + 1 >= process.argv.length) throw new Error(`missing --${name}`)
  return process.argv[i + 1]!
}
const tree = arg('tree')
const out = arg('out')

// The plugin registers its tools into each Team member's scope: a stand-in
// context with one member collects the definitions.
const definitions = new Map<string, any>()
const agent = {
  id: 'lead-agent',
  ctx: {
    systemPrompt: { section: () => () => {} },
    tools: { register: (def: any) => { definitions.set(def.name, def); return () => {} } },
  },
}
const NOT_REACHED = 'the body ran: the arguments were accepted'
const ctx = {
  agents: { list: () => [agent] },
  agentTeams: new Proxy({}, {
    get: (_t, key) => key === 'tryMembership' || key === 'membership'
      ? () => ({ role: 'lead', name: 'lead', id: 'team-1' })
      : () => { throw new Error(NOT_REACHED) },
  }),
  on: () => () => {},
  effect: () => {},
}
const team = await treeModule(tree, 'packages/experimental/tool-agent-team/src/index.ts')
team.apply(ctx, {})

const member = { id: 'm-1', name: 'reviewer', role: 'teammate', status: 'running', description: 'Reviews — ünïcode ✓', provider: 'spawn', context: 'fresh', model: 'mock', diagnostics: [] }
const lead = { id: 'lead-agent', name: 'lead', role: 'lead', status: 'idle', diagnostics: ['a "quoted" note\nsecond line'] }
const task = { id: 'task-1', revision: 3, subject: 'Fix <tests> & docs', description: 'Details\twith tab', status: 'in_progress', ownerName: 'reviewer', blockedBy: ['task-0'], writeScopes: ['src/'], ready: true, writeScopeWarnings: ['src/ overlaps task-2'] }
const bare = { id: 'task-2', revision: 0, subject: '', description: '', status: 'pending', blockedBy: [], writeScopes: [], ready: false, writeScopeWarnings: [] }

const renders: [string, unknown, unknown][] = [
  ['spawn_teammate', { name: 'reviewer', description: 'd', prompt: 'p' }, { member }],
  ['spawn_teammate', { name: 'forked', description: 'd', prompt: 'p', context: 'fork' }, { member: { ...member, name: 'forked', context: 'fork', status: 'provisioning' } }],
  ['send_message', { target: 'reviewer', message: 'm' }, { messageId: 'msg-1', status: 'queued' }],
  ['followup_task', { target: 'lead', message: 'm' }, { messageId: 'msg-2', status: 'accepted' }],
  ['list_agents', {}, [lead, member]],
  ['list_agents', {}, []],
  ['wait_agent', {}, { timedOut: true }],
  ['wait_agent', { timeout_ms: 10000 }, { timedOut: false, noProgress: { reason: 'no-active-peer', message: 'No other Team member is running or provisioning.' } }],
  ['interrupt_agent', { target: 'reviewer' }, { previousStatus: 'running' }],
  ['team_task_create', { subject: 's', description: 'd', blocked_by: ['task-0'], write_scopes: ['src/'] }, task],
  ['team_task_list', {}, { tasks: [task, bare] }],
  ['team_task_list', { status: 'pending', limit: 1 }, { tasks: [bare], nextCursor: 1 }],
  ['team_task_get', { task_id: 'task-2' }, bare],
  ['team_task_update', { task_id: 'task-1', expected_revision: 2, action: 'claim' }, task],
  ['team_task_update', { task_id: 'task-1', expected_revision: 1e21, action: 'edit', subject: 'x' }, { ...task, revision: 4, subject: 'x' }],
]

// Arguments the registry judges: every tool with {} and with wrong types,
// bad enums, extra keys (the root is open) and non-object arguments.
const judged: [string, unknown][] = []
for (const name of definitions.keys()) judged.push([name, {}], [name, 'not an object'], [name, null], [name, []])
judged.push(
  ['spawn_teammate', { name: 1, description: true, prompt: null, context: 'other' }],
  ['spawn_teammate', { name: 'n', description: 'd', prompt: 'p', extra: 1 }],
  ['send_message', { target: 'lead' }],
  ['send_message', { subagent_id: 's-1', message: 'm' }],
  ['send_message', { target: 'lead', message: 'm' }],
  ['followup_task', { target: ['lead'], message: {} }],
  ['interrupt_agent', { agent_id: 'a-1' }],
  ['interrupt_agent', { target: 'reviewer' }],
  ['list_agents', { scope: 'descendants' }],
  ['wait_agent', { timeout_ms: 1.5 }],
  ['wait_agent', { timeout_ms: '30000' }],
  ['team_task_create', { subject: 's', description: 'd', blocked_by: 'task-0' }],
  ['team_task_create', { subject: 's', description: 'd', write_scopes: ['a', 2, null] }],
  ['team_task_list', { status: 'deleted', owner: 1, ready: 'yes', cursor: -0.5, limit: '10' }],
  ['team_task_get', { task_id: 7 }],
  ['team_task_update', { task_id: 't', expected_revision: '1', action: 'finish' }],
  ['team_task_update', { task_id: 't', expected_revision: 1, action: 'set_dependencies', blocked_by: [1], owner: false }],
  ['team_task_update', { task_id: 't', expected_revision: 1, action: 'complete' }],
)

const rows: string[] = []
const source = 'dsh:packages/experimental/tool-agent-team/src/index.ts (registered definition)'
for (const [name, def] of definitions) {
  rows.push(JSON.stringify({ kind: 'schemas', tool: name, parameters: def.parameters, output: def.output.schema, source }))
}
for (const [name, args, value] of renders) {
  const def = definitions.get(name)
  rows.push(JSON.stringify({ kind: 'render', tool: name, args, value, content: def.output.render(args, value), source }))
}
for (const [name, args] of judged) {
  const def = definitions.get(name)
  let row: Record<string, unknown>
  try {
    await def.execute(args, { agent, signal: new AbortController().signal })
    throw new Error(`${name}: execute returned`)
  } catch (error: any) {
    row = error?.message === NOT_REACHED
      ? { kind: 'args', tool: name, args, accepted: true, source }
      : { kind: 'args', tool: name, args, error: { name: error.name, code: error.code, message: error.message }, source }
  }
  rows.push(JSON.stringify(row))
}
writeFileSync(out, rows.join('\n') + '\n')
console.log(`tool-agent-team: ${definitions.size} tools, ${rows.length} vectors`)
process.exit(0)
