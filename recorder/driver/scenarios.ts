// The scripted sessions. Each runs in a fresh workspace at a fixed path, with
// the files it names, and a model that answers with the scripted tool calls.
import { deflateSync } from 'node:zlib'
import { pkg, type HostName } from './host.ts'

export interface Env {
  host: HostName
  tree: string
  ws: string
  root: string
  mock: any
  ctx: any
  /** Base URL of the driver's local HTTP server (web tools). */
  web: string
  use(name: string, config?: unknown): Promise<void>
}

/** A step: a tool call [id, name, args], where args may depend on the request so far. */
type Args = object | ((req: any) => object)
export type Step = [string, string, Args] | { parallel: [string, string, Args][] }

export interface Scenario {
  name: string
  hosts?: HostName[]
  files?: Record<string, string | Buffer>
  /** Tool registry config (`mode: 'both'` for run_code). */
  tools?: object
  /** The scripted model declares image input (read_image). */
  images?: boolean
  /**
   * Subagents share the scripted model: a request whose first user message
   * is a key here is a child's, answered with that text; the number of such
   * requests is children.
   */
  childReplies?: Record<string, string>
  children?: number
  prompts?: string[]
  setup(env: Env): Promise<void>
  /** Runs once the agent exists, before the first prompt. */
  start?(env: Env, agent: any): Promise<void>
  steps: (env: Env) => Step[]
}

function pkgName(env: Env, name: string): string { return pkg(env.host, name) }

/** The text of the most recent tool result the model has been shown. */
export function lastResult(req: any): string {
  const msgs: any[] = req.messages ?? []
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i]
    for (const block of [...(Array.isArray(m.content) ? m.content : [])].reverse()) {
      if (block.type === 'tool-result') {
        return (block.content ?? []).filter((b: any) => b.type === 'text').map((b: any) => b.text).join('')
      }
    }
  }
  return ''
}

function grab(re: RegExp): (req: any) => string {
  return (req) => {
    const m = re.exec(lastResult(req))
    if (m === null) throw new Error(`no ${re} in: ${lastResult(req).slice(0, 300)}`)
    return m[1]!
  }
}

async function fsTools(env: Env): Promise<void> {
  await env.use('fs-local', { cwd: env.ws })
  await env.use('fs-observation-policy')
  await env.use('subprocess-local')
  await env.use('tool-fs')
  await env.use('tool-fs-search', { sampleOverCapGlobResults: false })
}

async function shellTools(env: Env, bash: object = {}): Promise<void> {
  await env.use('jobs-local')
  await env.use('tool-jobs')
  await env.use('subprocess-local')
  await env.use('shell-env', { dshHome: `${env.root}/home` })
  await env.use('bash-local', { cwd: env.ws, timeoutMs: 10_000, ...bash })
  await env.use('tool-bash')
}

const lines = (n: number, f: (i: number) => string): string => Array.from({ length: n }, (_, i) => f(i + 1) + '\n').join('')

/** A width×height greyscale PNG (a gradient), made with zlib. */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (b: Buffer): number => {
    let c = 0xffffffff
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length)
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const c = Buffer.alloc(4); c.writeUInt32BE(crc(td))
    return Buffer.concat([len, td, c])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0); ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8; ihdr[9] = 0 // 8-bit greyscale
  const raw = Buffer.alloc((width + 1) * height)
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw[y * (width + 1) + 1 + x] = (x + y) & 0xff
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))])
}

// A 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

export const scenarios: Scenario[] = [
  {
    name: 'read',
    files: {
      'src/a.ts': 'export const a = 1\nexport const b = 2\n',
      'notes.txt': 'line one\r\nline two\r\nünïcödé ✓ 🙂 \u{1F469}\u200D\u{1F4BB}\r\n',
      'big.txt': lines(2500, (i) => `row ${i} ${'x'.repeat(i % 40)}`),
      'wide.txt': 'a'.repeat(3000) + '\nshort\n',
      'empty.txt': '',
      'tabs.txt': '\tindented\n  spaced\u00a0nbsp\n',
      'pixel.png': PNG,
      'bin.dat': Buffer.from([0, 1, 2, 3, 255, 254, 0, 10]),
    },
    setup: async (env) => {
      await env.use('attachment-local', { dshHome: `${env.root}/home` })
      await fsTools(env)
    },
    steps: () => [
      ['read-1', 'read', { file_path: 'src/a.ts' }],
      ['read-2', 'read', { file_path: 'notes.txt', offset: 2, limit: 1 }],
      ['read-3', 'read', { file_path: 'notes.txt' }],
      ['read-4', 'read', { file_path: 'missing.txt' }],
      ['read-5', 'read', { file_path: 'big.txt' }],
      ['read-6', 'read', { file_path: 'big.txt', offset: 2400, limit: 50 }],
      ['read-7', 'read', { file_path: 'big.txt', offset: 9999 }],
      ['read-8', 'read', { file_path: 'wide.txt' }],
      ['read-9', 'read', { file_path: 'empty.txt' }],
      ['read-10', 'read', { file_path: 'tabs.txt' }],
      ['read-11', 'read', { file_path: 'pixel.png' }],
      ['read-12', 'read', { file_path: 'bin.dat' }],
      ['read-13', 'read', { file_path: 'src' }],
      ['read-14', 'read_image', { file_path: 'pixel.png' }],
      ['read-15', 'read', { file_path: 'big.txt', offset: 100, limit: 5 }],
      ['read-16', 'read', { file_path: 'big.txt', limit: 3 }],
      ['read-17', 'read', { file_path: `${'src'}/a.ts`, offset: 2 }],
      ['read-18', 'read', { file_path: 'notes.txt', limit: 2 }],
      ['read-19', 'read', { file_path: 'big.txt', offset: 2499 }],
    ],
  },
  {
    name: 'write-edit',
    files: {
      'src/config.ts': 'export const port = 8080\nexport const host = "localhost"\nexport const port2 = 8080\n',
      'crlf.txt': 'alpha\r\nbeta\r\ngamma\r\n',
      'uni.md': '# Títle\n\nCafé — naïve façade 🙂\n',
    },
    setup: fsTools,
    steps: () => [
      ['we-1', 'read', { file_path: 'src/config.ts' }],
      ['we-2', 'edit', { file_path: 'src/config.ts', old_string: '"localhost"', new_string: '"0.0.0.0"' }],
      ['we-3', 'edit', { file_path: 'src/config.ts', old_string: '8080', new_string: '9090' }],
      ['we-4', 'edit', { file_path: 'src/config.ts', old_string: '8080', new_string: '9090', replace_all: true }],
      ['we-5', 'edit', { file_path: 'src/config.ts', old_string: 'not there', new_string: 'x' }],
      ['we-6', 'write', { file_path: 'new/file.txt', content: 'fresh\nfile\n' }],
      ['we-7', 'read', { file_path: 'crlf.txt' }],
      ['we-8', 'edit', { file_path: 'crlf.txt', old_string: 'beta', new_string: 'BETA\nDELTA' }],
      ['we-9', 'read', { file_path: 'uni.md' }],
      ['we-10', 'edit', { file_path: 'uni.md', old_string: 'naïve', new_string: 'naive 🙃' }],
      ['we-11', 'write', { file_path: 'uni.md', content: '# Replaced\n\nÜberall ✓\n' }],
      ['we-12', 'write', { file_path: 'unread.txt', content: 'x' }],
      ['we-13', 'edit', { file_path: 'missing.ts', old_string: 'a', new_string: 'b' }],
      ['we-14', 'write', { file_path: 'src/config.ts', content: 'export const port = 1\n' }],
      ['we-15', 'edit', { file_path: 'src/config.ts', old_string: 'port = 1', new_string: 'port = 1' }],
    ],
  },
  {
    name: 'search',
    files: {
      'src/one.ts': 'import { two } from "./two"\nexport function one() { return two() + 1 }\n// TODO: tidy\n',
      'src/two.ts': 'export function two() { return 2 }\n// todo lower\n',
      'src/deep/three.go': 'package deep\n\nfunc Three() int { return 3 }\n',
      'docs/readme.md': '# Docs\nSee one() and two().\nÜnïcode line with TODO\n',
      'many/.keep': '',
      ...Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`many/f${String(i).padStart(3, '0')}.txt`, `match ${i}\n`])),
    },
    setup: fsTools,
    steps: () => [
      ['s-1', 'grep', { pattern: 'TODO' }],
      ['s-2', 'grep', { pattern: 'function \\w+', path: 'src' }],
      ['s-3', 'grep', { pattern: 'return', include: '*.go' }],
      ['s-4', 'grep', { pattern: 'nothing-matches-this' }],
      ['s-5', 'grep', { pattern: 'match', path: 'many' }],
      ['s-6', 'grep', { pattern: '[unclosed' }],
      ['s-7', 'glob', { pattern: '**/*.ts' }],
      ['s-8', 'glob', { pattern: '*.md', path: 'docs' }],
      ['s-9', 'glob', { pattern: '**/*.rs' }],
      ['s-10', 'glob', { pattern: 'many/*.txt' }],
      ['s-11', 'grep', { pattern: 'Ünïcode' }],
      ['s-12', 'glob', { pattern: '**/*', path: 'src' }],
      ['s-13', 'grep', { pattern: 'todo', path: 'src/two.ts' }],
    ],
  },
  {
    name: 'bash',
    files: { 'data.csv': 'a,b\n1,2\n3,4\n' },
    setup: (env) => shellTools(env),
    steps: () => [
      ['b-1', 'bash', { command: 'echo hello && printf "ünï ✓\\n"', description: 'greet' }],
      ['b-2', 'bash', { command: 'cat data.csv | wc -l', description: 'count lines' }],
      ['b-3', 'bash', { command: 'echo to-stderr >&2; exit 3', description: 'fail on purpose' }],
      ['b-4', 'bash', { command: 'sleep 5', description: 'too slow', timeoutMs: 300 }],
      ['b-5', 'bash', { command: 'seq 1 3000', description: 'long output' }],
      ['b-6', 'bash', { command: 'printf "a\\r\\nb\\r\\n"', description: 'crlf output' }],
      ['b-7', 'bash', { command: 'true', description: 'no output' }],
      ['b-8', 'bash', { command: 'mkdir -p sub && cd sub && pwd', description: 'make sub' }],
      ['b-9', 'bash', { command: 'pwd', description: 'where', workdir: 'sub' }],
      ['b-11', 'bash', { command: 'printf "no newline at end"', description: 'no final newline' }],
      ['b-12', 'bash', { command: 'printf "tab\\there\\n\\x1b[31mred\\x1b[0m\\n"', description: 'escapes' }],
      ['b-13', 'bash', { command: 'for i in $(seq 1 40); do echo "row $i"; done; echo done >&2', description: 'both streams' }],
      ['b-14', 'bash', { command: 'echo $((6*7))', description: 'arithmetic' }],
      ['b-15', 'bash', { command: 'ls', description: 'list' }],
      ['b-10', 'bash', { command: 'head -c 20000 /dev/zero | tr "\\0" y', description: 'long line' }],
    ],
  },
  {
    name: 'jobs',
    setup: (env) => shellTools(env),
    steps: () => {
      const job = grab(/\b(bash-\d+)\b/)
      return [
        ['j-1', 'bash', { command: 'for i in 1 2 3; do echo tick $i; sleep 0.05; done', description: 'ticker', run_in_background: true }],
        ['j-2', 'job_output', (req: any) => ({ job_id: job(req), wait: true, timeout_ms: 5000 })],
        ['j-3', 'job_list', {}],
        ['j-4', 'bash', { command: 'sleep 30', description: 'sleeper', run_in_background: true }],
        ['j-5', 'job_output', (req: any) => ({ job_id: job(req) })],
        ['j-6', 'job_kill', { job_id: 'bash-2', reason: 'no longer needed' }],
        ['j-7', 'job_output', { job_id: 'job-does-not-exist' }],
        ['j-8', 'job_list', {}],
      ]
    },
  },
  {
    name: 'todo',
    setup: async (env) => { await env.use('tool-todo', { allowParallelInProgress: false }) },
    steps: () => [
      ['t-1', 'todo_write', { todos: [{ content: 'Read the code', status: 'in_progress' }, { content: 'Write the fix', status: 'pending' }, { content: 'Run the tests ✓', status: 'pending' }] }],
      ['t-2', 'todo_write', { todos: [{ content: 'Read the code', status: 'completed' }, { content: 'Write the fix', status: 'in_progress' }, { content: 'Run the tests ✓', status: 'pending' }] }],
      ['t-3', 'todo_write', { todos: [{ content: 'a', status: 'in_progress' }, { content: 'b', status: 'in_progress' }] }],
      ['t-4', 'todo_write', { todos: [] }],
      ['t-6', 'todo_write', { todos: [{ content: 'Ünïcode task ✓ with a rather long description that goes on and on so that a card has to wrap or cut it somewhere', status: 'pending' }] }],
      ['t-7', 'todo_write', { todos: Array.from({ length: 12 }, (_, i) => ({ content: `step ${i + 1}`, status: i < 4 ? 'completed' : i === 4 ? 'in_progress' : 'pending' })) }],
      ['t-5', 'todo_write', { todos: [{ content: 'Read the code', status: 'completed' }, { content: 'Write the fix', status: 'completed' }] }],
    ],
  },
  {
    name: 'str-replace-editor',
    files: { 'app.py': 'def main():\n    print("hi")\n\nif __name__ == "__main__":\n    main()\n', 'dir/x.txt': 'x\n' },
    setup: async (env) => {
      await env.use('fs-local', { cwd: env.ws })
      await env.use('tool-str-replace-editor')
    },
    steps: (env) => [
      ['e-1', 'str_replace_editor', { command: 'view', path: `${env.ws}/app.py` }],
      ['e-2', 'str_replace_editor', { command: 'str_replace', path: `${env.ws}/app.py`, old_str: 'print("hi")', new_str: 'print("hello, wörld")' }],
      ['e-3', 'str_replace_editor', { command: 'insert', path: `${env.ws}/app.py`, insert_line: 0, new_str: 'import sys\n' }],
      ['e-4', 'str_replace_editor', { command: 'create', path: `${env.ws}/new.md`, file_text: '# New\n\nbody\n' }],
      ['e-5', 'str_replace_editor', { command: 'str_replace', path: `${env.ws}/app.py`, old_str: 'absent', new_str: 'x' }],
      ['e-6', 'str_replace_editor', { command: 'view', path: `${env.ws}/dir` }],
      ['e-7', 'str_replace_editor', { command: 'view', path: `${env.ws}/app.py`, view_range: [2, 3] }],
      ['e-9', 'str_replace_editor', { command: 'view', path: `${env.ws}/new.md` }],
      ['e-10', 'str_replace_editor', { command: 'str_replace', path: `${env.ws}/new.md`, old_str: 'body', new_str: 'body ✓\nmore' }],
      ['e-11', 'str_replace_editor', { command: 'insert', path: `${env.ws}/new.md`, insert_line: 2, new_str: 'inserted line' }],
      ['e-8', 'str_replace_editor', { command: 'create', path: `${env.ws}/app.py`, file_text: 'x' }],
    ],
  },
  {
    name: 'web',
    setup: async (env) => {
      await env.use('web')
      await env.use('web-fetch-http')
      await env.use('tool-web', { search: false })
    },
    steps: (env) => [
      ['w-1', 'web_fetch', { url: `${env.web}/page.html` }],
      ['w-2', 'web_fetch', { url: `${env.web}/plain.txt` }],
      ['w-3', 'web_fetch', { url: `${env.web}/data.json` }],
      ['w-4', 'web_fetch', { url: `${env.web}/missing` }],
      ['w-5', 'web_fetch', { url: `${env.web}/big.html` }],
      ['w-6', 'web_fetch', { url: `${env.web}/redirect` }],
      ['w-7', 'web_fetch', { url: 'not a url' }],
      ['w-8', 'web_fetch', { url: `${env.web}/page.html?second=1` }],
      ['w-9', 'web_fetch', { url: `${env.web}/unicode.html` }],
    ],
  },
  {
    name: 'spill',
    files: { 'huge.txt': lines(4000, (i) => `line ${i}: ${'lorem ipsum '.repeat(3)}`) },
    setup: async (env) => {
      await env.use('spill-local', { root: `${env.root}/spill` })
      await env.use('spill-policy', { maxInlineBytes: 2000 })
      await fsTools(env)
      await shellTools(env)
    },
    steps: () => [
      ['sp-1', 'bash', { command: 'seq 1 5000', description: 'many lines' }],
      ['sp-2', 'read', { file_path: 'huge.txt', limit: 400 }],
      ['sp-3', 'grep', { pattern: 'line 1' }],
      ['sp-4', 'glob', { pattern: '**/*' }],
      ['sp-5', 'bash', { command: 'echo small', description: 'fits' }],
    ],
  },
  {
    name: 'goal',
    setup: async (env) => {
      await env.use('goal')
      await env.use('tool-goal')
    },
    steps: () => {
      const id = grab(/"?(?:goal_id|id)"?\s*[:=]\s*"?([A-Za-z0-9_-]{6,})/)
      return [
        ['g-1', 'get_goal', {}],
        ['g-2', 'create_goal', { objective: 'Make the tests pass ✓', max_goal_rounds: 5 }],
        ['g-3', 'get_goal', {}],
        ['g-4', 'update_goal', (req: any) => ({ goal_id: id(req), revision: 1, action: 'edit', objective: 'Make every test pass' })],
        ['g-5', 'update_goal', (req: any) => ({ goal_id: id(req), revision: 2, action: 'pause' })],
        ['g-6', 'update_goal', { goal_id: 'nope', revision: 9, action: 'resume' }],
        ['g-7', 'get_goal', {}],
      ]
    },
  },
  {
    name: 'code-mode',
    tools: { mode: 'both' },
    files: { 'a.txt': 'alpha\nbeta\n', 'b.txt': 'gamma\n' },
    setup: async (env) => {
      await fsTools(env)
      await env.use('tool-todo', { allowParallelInProgress: true })
      await env.use('code-runtime-worker-thread')
    },
    steps: () => [
      ['rc-1', 'run_code', { description: 'read two files', code: 'const a = await tools.read({ file_path: "a.txt" })\nconst b = await tools.read({ file_path: "b.txt" })\nconsole.log(a, b)\nreturn "ok"' }],
      ['rc-2', 'run_code', { description: 'search and plan', code: 'const g = await tools.grep({ pattern: "a" })\nawait tools.todo_write({ todos: [{ content: "x", status: "pending" }] })\nreturn g' }],
      ['rc-3', 'run_code', { description: 'a failing sub-call', code: 'try { await tools.read({ file_path: "nope.txt" }) } catch (e) { console.log("caught", String(e).slice(0, 80)) }\nreturn 1' }],
      ['rc-4', 'run_code', { description: 'edits through tools', code: 'await tools.read({ file_path: "b.txt" })\nconst r = await tools.edit({ file_path: "b.txt", old_string: "gamma", new_string: "GAMMA" })\nreturn r' }],
      ['rc-6', 'run_code', { description: 'globs', code: 'const g = await tools.glob({ pattern: "*.txt" })\nconsole.log(JSON.stringify(g))' }],
      ['rc-7', 'run_code', { description: 'many sub-calls', code: 'for (const f of ["a.txt", "b.txt", "a.txt"]) await tools.read({ file_path: f, limit: 1 })\nreturn "read 3"' }],
      ['rc-5', 'run_code', { description: 'plain', code: 'return { n: 1.5, s: "ü", list: [1, 2, 3] }' }],
    ],
  },
  {
    // A small task end to end, the way a model works: look around, read,
    // change, check; one step asks for three reads at once.
    name: 'session',
    files: {
      'package.json': '{\n  "name": "demo",\n  "type": "module",\n  "version": "1.0.0",\n  "scripts": { "test": "node test.js" }\n}\n',
      'lib/sum.js': 'export function sum(xs) {\n  let t = 0\n  for (const x of xs) t += x\n  return t\n}\n',
      'lib/mean.js': 'import { sum } from "./sum.js"\nexport function mean(xs) {\n  return sum(xs) / xs.length\n}\n',
      'test.js': 'import { mean } from "./lib/mean.js"\nif (mean([1, 2, 3]) !== 2) throw new Error("mean")\nconsole.log("ok")\n',
      'README.md': '# demo\n\nSums and means. Ünïcode: ✓\n',
    },
    setup: async (env) => {
      await fsTools(env)
      await shellTools(env)
      await env.use('tool-todo', { allowParallelInProgress: false })
    },
    steps: () => [
      ['p-1', 'todo_write', { todos: [{ content: 'Understand the code', status: 'in_progress' }, { content: 'Handle empty input', status: 'pending' }] }],
      ['p-2', 'glob', { pattern: '**/*.js' }],
      { parallel: [
        ['p-3', 'read', { file_path: 'lib/sum.js' }],
        ['p-4', 'read', { file_path: 'lib/mean.js' }],
        ['p-5', 'read', { file_path: 'test.js' }],
      ] },
      ['p-6', 'grep', { pattern: 'xs\\.length', path: 'lib' }],
      ['p-7', 'bash', { command: 'node test.js', description: 'run the test' }],
      ['p-8', 'todo_write', { todos: [{ content: 'Understand the code', status: 'completed' }, { content: 'Handle empty input', status: 'in_progress' }] }],
      ['p-9', 'edit', { file_path: 'lib/mean.js', old_string: '  return sum(xs) / xs.length', new_string: '  if (xs.length === 0) return 0\n  return sum(xs) / xs.length' }],
      ['p-10', 'read', { file_path: 'lib/mean.js' }],
      ['p-11', 'write', { file_path: 'test-empty.js', content: 'import { mean } from "./lib/mean.js"\nif (mean([]) !== 0) throw new Error("empty")\nconsole.log("empty ok")\n' }],
      ['p-12', 'bash', { command: 'node test.js && node test-empty.js', description: 'run both tests' }],
      ['p-13', 'read', { file_path: 'README.md' }],
      ['p-14', 'edit', { file_path: 'README.md', old_string: 'Sums and means.', new_string: 'Sums and means (an empty list has mean 0).' }],
      ['p-15', 'grep', { pattern: 'mean', include: '*.md' }],
      ['p-16', 'bash', { command: 'git init -q . 2>/dev/null; ls -1', description: 'list files' }],
      ['p-17', 'glob', { pattern: '*.md' }],
      ['p-18', 'read', { file_path: 'package.json', offset: 2, limit: 2 }],
      ['p-19', 'edit', { file_path: 'package.json', old_string: '"1.0.0"', new_string: '"1.0.1"' }],
      ['p-20', 'bash', { command: 'grep -c version package.json', description: 'check version' }],
      ['p-21', 'todo_write', { todos: [{ content: 'Understand the code', status: 'completed' }, { content: 'Handle empty input', status: 'completed' }] }],
    ],
  },
  {
    // web_search through web-search-exa against the driver's stand-in; DSH
    // takes a list of queries, LasmeX one query.
    name: 'web-search',
    setup: async (env) => {
      await env.use('web')
      await env.use('web-search-exa', { apiKey: 'test', baseURL: `${env.web}/exa` })
      await env.use('tool-web', { fetch: false })
    },
    steps: (env) => {
      const q = (...queries: string[]): object => env.host === 'dsh' ? { queries } : { query: queries.join(' ') }
      return [
        ['ws-1', 'web_search', q('go generics')],
        ['ws-2', 'web_search', q('nothing at all')],
        ['ws-3', 'web_search', q('many results')],
        ['ws-4', 'web_search', q('ünïcode query ✓')],
        ['ws-5', 'web_search', q('trigger an error')],
        ...(env.host === 'dsh' ? [
          ['ws-6', 'web_search', q('rust traits', 'go interfaces')],
          ['ws-7', 'web_search', q('same', 'same')],
          ['ws-8', 'web_search', q('many results', 'many more')],
          ['ws-9', 'web_search', { queries: [] }],
        ] as Step[] : [
          ['ws-6', 'web_search', q('rust traits')],
          ['ws-7', 'web_search', q('python typing')],
        ] as Step[]),
      ]
    },
  },
  {
    // read_image with a model that takes images: small, large enough to be
    // stored downscaled, mislabelled, and not an image.
    name: 'images',
    images: true,
    files: {
      'pixel.png': PNG,
      'small.png': png(64, 48),
      'large.png': png(4000, 3000),
      'wide.png': png(3001, 1000),
      'fake.png': 'not an image at all\n',
      'notes.txt': 'text\n',
    },
    setup: async (env) => {
      await env.use('attachment-local', { dshHome: `${env.root}/home` })
      await fsTools(env)
    },
    steps: () => [
      ['im-1', 'read_image', { file_path: 'pixel.png' }],
      ['im-2', 'read_image', { file_path: 'small.png' }],
      ['im-3', 'read_image', { file_path: 'large.png' }],
      ['im-4', 'read_image', { file_path: 'wide.png' }],
      ['im-5', 'read_image', { file_path: 'fake.png' }],
      ['im-6', 'read_image', { file_path: 'notes.txt' }],
      ['im-7', 'read_image', { file_path: 'missing.png' }],
      ['im-8', 'read', { file_path: 'small.png' }],
    ],
  },
  {
    // Plan mode with a stand-in user who first sends the plan back, then
    // approves it; and ask_user_question through the same channel.
    name: 'plan-mode',
    setup: async (env) => {
      await env.use('user-questions')
      await env.use('plan-mode', { section: 'You are in plan mode: plan, then call exit_plan_mode.' })
      await env.use('tool-ask-user')
      const reviews = [{ selected: ['Keep planning'], custom: 'Add a rollback step ✓' }, { selected: ['Approve'] }]
      env.ctx.userQuestions.registerProvider({
        ask: (request: any) => {
          const q = request.questions[0]
          if (q.id === 'plan-review') return Promise.resolve({ answers: [{ id: 'plan-review', ...reviews.shift()! }] })
          return Promise.resolve({ answers: request.questions.map((x: any) => ({ id: x.id, selected: x.options?.length ? [x.options[0].label] : [], ...x.options?.length ? {} : { custom: 'Free-form answer: ünïcode' } })) })
        },
      })
    },
    start: async (env, agent) => { env.ctx.planMode.set(agent, true) },
    steps: () => [
      ['pm-1', 'ask_user_question', { questions: [{ id: 'db', header: 'Database', question: 'Which database?', options: [{ label: 'Postgres (Recommended)', description: 'Already in use.' }, { label: 'SQLite' }] }] }],
      ['pm-2', 'exit_plan_mode', { plan: 'no heading here' }],
      ['pm-3', 'exit_plan_mode', { plan: '# Migrate the store\n\n1. Add the table\n2. Backfill' }],
      ['pm-4', 'exit_plan_mode', { plan: '# Migrate the store\n\n1. Add the table\n2. Backfill\n3. Roll back on failure ✓' }],
      ['pm-5', 'ask_user_question', { questions: [{ id: 'name', question: 'What should the table be called?' }, { id: 'both', question: 'Pick any', multi_select: true, options: [{ label: 'a' }, { label: 'b' }] }] }],
      ['pm-6', 'exit_plan_mode', { plan: '# Again' }],
    ],
  },
  {
    // The terminal tools on a real PTY (node-pty), with a pass-through sandbox.
    name: 'terminal',
    setup: async (env) => {
      const { default: SandboxProvider } = await import(pkgName(env, 'sandbox'))
      class PassthroughSandbox extends SandboxProvider {
        confine(argv: readonly string[]): object {
          return { argv: [...argv], enforcement: 'full', denialSignatures: [], runnerFailureRules: [] }
        }
      }
      await env.ctx.plugin(PassthroughSandbox)
      await env.use('terminal')
      await env.use('sandbox-policy', { mode: 'danger-full-access', workspaceRoot: env.ws })
      await env.use('subprocess-local')
      await env.use('terminal-bash', { pollIntervalMs: 10, exactProbeAfterMs: 20, idleSilenceMs: 250, handoffGraceMs: 250, timeoutMs: 4000, disposeGraceMs: 500 })
      await env.use('tool-terminal')
    },
    steps: (env) => [
      ['t-1', 'terminal_open', { type: 'shell', name: 'main', cwd: env.ws }],
      ['t-2', 'terminal_send', { sessionId: 'pty-1', text: 'export KEEP=kept; echo ready' }],
      ['t-3', 'terminal_send', { sessionId: 'pty-1', text: 'printf "keep=%s\\n" "$KEEP"' }],
      ['t-4', 'terminal_list', {}],
      ['t-5', 'terminal_read', { sessionId: 'pty-1' }],
      ['t-6', 'terminal_send', { sessionId: 'pty-1', text: 'exit 3' }],
      ['t-7', 'terminal_send', { sessionId: 'pty-9', text: 'echo nope' }],
    ],
  },
  {
    // Subagents spawned in process on the same scripted model: one in the
    // foreground, one in the background (collected with job_output).
    name: 'subagent',
    files: { 'notes.txt': 'subagent notes\n' },
    childReplies: { 'Summarise notes.txt': 'The notes say: subagent notes ✓', 'Count to three': 'one, two, three' },
    children: 2,
    setup: async (env) => {
      await fsTools(env)
      await env.use('jobs-local')
      await env.use('tool-jobs')
      await env.use('subagent')
      await env.use('subagent-spawn-in-process', { providerName: 'spawn' })
      await env.use('tool-subagent', { provider: 'spawn', enableRunInBackground: true })
    },
    steps: () => [
      ['sa-1', 'subagent', { description: 'summarise', prompt: 'Summarise notes.txt in one line.' }],
      ['sa-2', 'subagent', { description: 'count', prompt: 'Count to three.', run_in_background: true }],
      ['sa-3', 'job_output', (req: any) => ({ job_id: grab(/\b(subagent-[A-Za-z0-9_-]+)\b/)(req), wait: true, timeout_ms: 5000 })],
      ['sa-4', 'job_list', {}],
    ],
  },
  {
    // What models produce all the time: for each tool, arguments the
    // registry rejects ("invalid arguments: …") and a call whose execute
    // fails; and tools the host does not know.
    name: 'rejected',
    files: { 'a.txt': 'alpha\n', 'dir/x.txt': 'x\n' },
    setup: async (env) => {
      await fsTools(env)
      await shellTools(env)
      await env.use('tool-todo', { allowParallelInProgress: false })
      await env.use('tool-str-replace-editor')
      await env.use('web')
      await env.use('web-fetch-http')
      await env.use('tool-web', { search: false })
    },
    steps: (env) => [
      ['x-1', 'read', { file_path: 1 }],
      ['x-2', 'read', 'not an object' as unknown as object],
      ['x-3', 'read', { file_path: 'missing.txt' }],
      ['x-4', 'write', { content: 'x' }],
      ['x-5', 'write', { file_path: 'dir', content: 'x' }],
      ['x-6', 'edit', { file_path: 'a.txt' }],
      ['x-7', 'edit', { file_path: 'missing.txt', old_string: 'a', new_string: 'b' }],
      ['x-8', 'glob', { pattern: 5 }],
      ['x-9', 'glob', { pattern: '*', path: 'nope' }],
      ['x-10', 'grep', {}],
      ['x-11', 'grep', { pattern: '(', path: '.' }],
      ['x-12', 'bash', { command: ['ls'], description: 'list' }],
      ['x-13', 'bash', { description: 'no command', timeout: '10' }],
      ['x-14', 'job_output', {}],
      ['x-15', 'job_output', { job_id: 'bash-404' }],
      ['x-16', 'job_kill', { job_id: 7 }],
      ['x-17', 'job_kill', { job_id: 'bash-404' }],
      ['x-18', 'job_list', { status: 'sleeping' }],
      ['x-19', 'todo_write', { todos: 'finish' }],
      ['x-20', 'todo_write', { todos: [{ content: 'a', status: 'in_progress' }, { content: 'b', status: 'in_progress' }] }],
      ['x-21', 'todo_write', { todos: [{ content: 'a', status: 'done' }] }],
      ['x-22', 'str_replace_editor', { command: 'bogus', path: `${env.ws}/a.txt` }],
      ['x-23', 'str_replace_editor', { command: 'view', path: `${env.ws}/missing.txt` }],
      ['x-24', 'web_fetch', { url: 42 }],
      ['x-25', 'web_fetch', { url: `${env.web}/missing` }],
      ['x-26', 'no_such_tool', { anything: true }],
      ['x-27', 'mcp__ghost__lookup', { q: 1 }],
      ['x-28', 'read_file', { path: 'a.txt' }],
      ['x-29', 'read', { file_path: 'a.txt', offset: 1.5, limit: -0 }],
    ],
  },
  {
    // The rest of the first-party tools the same way: rejected arguments
    // and failing executes for goals, web_search, read_image, the plan and
    // question tools, the terminal tools and run_code, and a call of a
    // tool this deployment does not load (subagent).
    name: 'rejected-more',
    tools: { mode: 'both' },
    images: true,
    files: { 'notes.txt': 'text\n' },
    setup: async (env) => {
      await env.use('attachment-local', { dshHome: `${env.root}/home` })
      await fsTools(env)
      await env.use('code-runtime-worker-thread')
      await env.use('goal')
      await env.use('tool-goal')
      await env.use('web')
      await env.use('web-search-exa', { apiKey: 'test', baseURL: `${env.web}/exa` })
      await env.use('tool-web', { fetch: false })
      await env.use('user-questions')
      await env.use('plan-mode', { section: 'You are in plan mode: plan, then call exit_plan_mode.' })
      await env.use('tool-ask-user')
      env.ctx.userQuestions.registerProvider({
        ask: (request: any) => Promise.resolve({ answers: request.questions.map((x: any) => ({ id: x.id, selected: [], custom: 'answer' })) }),
      })
      const { default: SandboxProvider } = await import(pkgName(env, 'sandbox'))
      class PassthroughSandbox extends SandboxProvider {
        confine(argv: readonly string[]): object {
          return { argv: [...argv], enforcement: 'full', denialSignatures: [], runnerFailureRules: [] }
        }
      }
      await env.ctx.plugin(PassthroughSandbox)
      await env.use('terminal')
      await env.use('sandbox-policy', { mode: 'danger-full-access', workspaceRoot: env.ws })
      await env.use('terminal-bash', { pollIntervalMs: 10, exactProbeAfterMs: 20, idleSilenceMs: 250, handoffGraceMs: 250, timeoutMs: 4000, disposeGraceMs: 500 })
      await env.use('tool-terminal')
    },
    steps: (env) => {
      const q = (...queries: string[]): object => env.host === 'dsh' ? { queries } : { query: queries.join(' ') }
      return [
        ['y-1', 'get_goal', 'now' as unknown as object],
        ['y-2', 'create_goal', { objective: 'x', max_goal_rounds: '5' }],
        ['y-3', 'update_goal', { goal_id: 'nope', revision: 1, action: 'pause' }],
        ['y-4', 'update_goal', { goal_id: 'nope', revision: 1, action: 'stop' }],
        ['y-5', 'web_search', env.host === 'dsh' ? { queries: 'go' } : { query: ['go'] }],
        ['y-6', 'web_search', q('trigger an error')],
        ['y-7', 'read_image', { file_path: null }],
        ['y-8', 'read_image', { file_path: 'missing.png' }],
        ['y-9', 'ask_user_question', { questions: 'which?' }],
        ['y-10', 'ask_user_question', { questions: [{ id: 'a', question: 'A?', options: 'x' }] }],
        ['y-11', 'exit_plan_mode', { plan: 1 }],
        ['y-12', 'exit_plan_mode', { plan: '# Not planning' }],
        ['y-13', 'terminal_open', { type: 'bogus' }],
        ['y-14', 'terminal_send', { sessionId: 'pty-9', text: 'echo nope' }],
        ['y-15', 'terminal_read', {}],
        ['y-16', 'terminal_signal', { sessionId: 'pty-9', signal: 'SIGFOO' }],
        ['y-17', 'terminal_close', { sessionId: 'pty-9' }],
        ['y-18', 'terminal_list', [] as unknown as object],
        ['y-19', 'run_code', { code: 1 }],
        ['y-20', 'run_code', { description: 'throws', code: 'throw "boom ✓"' }],
        ['y-21', 'subagent', { description: 'd', prompt: 'p' }],
        ['y-22', 'Read', { file_path: 'notes.txt' }],
      ]
    },
  },
  {
    // DSH's Agent Teams: the Lead spawns a teammate, shares a task board
    // and messages it; tool-subagent-control is loaded too, so the Team's
    // send_message, list_agents and interrupt_agent shadow its globals in
    // the members' scopes.
    name: 'team',
    hosts: ['dsh'],
    files: { 'notes.txt': 'team notes\n' },
    childReplies: { 'Review notes.txt': 'Reviewed: the notes are fine ✓' },
    children: 2,
    setup: async (env) => {
      await fsTools(env)
      await env.use('subagent')
      await env.use('tool-subagent-control')
      await env.use('subagent-spawn-in-process', { providerName: 'spawn' })
      await env.use('subagent-fork-in-process', { providerName: 'fork' })
      await env.use('experimental-agent-team')
      await env.use('experimental-tool-agent-team')
    },
    steps: () => {
      const taskId = grab(/"id":"([^"]+)"/)
      return [
        ['tm-1', 'spawn_teammate', { name: 'reviewer', description: 'Reviews the notes', prompt: 'Review notes.txt and report.' }],
        ['tm-2', 'team_task_create', { subject: 'Review notes', description: 'Read notes.txt; say whether it is fine.', write_scopes: ['notes.txt'] }],
        ['tm-3', 'team_task_list', {}],
        ['tm-4', 'team_task_get', (req: any) => ({ task_id: taskId(req) })],
        ['tm-5', 'team_task_update', (req: any) => ({ task_id: taskId(req), expected_revision: Number(grab(/"revision":(\d+)/)(req)), action: 'reassign', owner: 'reviewer' })],
        ['tm-6', 'send_message', { target: 'reviewer', message: 'FYI: the notes are short.' }],
        ['tm-7', 'list_agents', {}],
        ['tm-8', 'followup_task', { target: 'reviewer', message: 'Review notes.txt once more, briefly.' }],
        ['tm-9', 'wait_agent', { timeout_ms: 10000 }],
        ['tm-10', 'interrupt_agent', { target: 'reviewer' }],
        ['tm-11', 'team_task_list', { status: 'completed', limit: 5 }],
        ['tm-12', 'spawn_teammate', {}],
        ['tm-13', 'send_message', { subagent_id: 'reviewer', message: 'm' }],
        ['tm-14', 'interrupt_agent', { target: 'nobody' }],
        ['tm-15', 'team_task_update', { task_id: 'task-404', expected_revision: 0, action: 'claim' }],
        ['tm-16', 'wait_agent', { timeout_ms: 5 }],
      ]
    },
  },
]
