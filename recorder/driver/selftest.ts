// Checks of the recorder plugin on its own, with a stand-in host: what it
// writes, what it refuses, and that nothing it meets can throw into the
// session. Prints "selftest ok" and exits 0, or lists the failures and exits 1.
import { mkdtempSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as Recorder from '../src/index.ts'

const failures: string[] = []
function expect(what: string, got: unknown, want: unknown): void {
  if (JSON.stringify(got) !== JSON.stringify(want)) failures.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`)
}

const cyclic: any = { a: [1] }
cyclic.a.push(cyclic)
const cases: [string, unknown, string | undefined][] = [
  ['plain', { a: [1, 'x', null, true, { b: 1.5 }] }, undefined],
  ['NaN', { a: { b: NaN } }, 'NaN at /a/b'],
  ['Infinity', [Infinity], 'Infinity at /0'],
  ['-0', { n: -0 }, '-0 at /n'],
  ['undefined', { u: undefined }, 'undefined at /u'],
  ['top-level undefined', undefined, 'undefined'],
  ['BigInt', { big: 10n }, 'BigInt at /big'],
  ['cycle', cyclic, 'cycle at /a/1'],
  ['Date', { when: new Date(0) }, 'object with toJSON at /when'],
  ['Map', { m: new Map() }, 'Map object at /m'],
  ['hole', [1, , 3], 'array hole at /1'],
  ['key escaping', { 'a/b~c': NaN }, 'NaN at /a~1b~0c'],
]
for (const [name, value, want] of cases) expect(`unrecordable(${name})`, Recorder.unrecordable(value), want)
expect('valueLine plain', Recorder.valueLine('c1', { x: 1 }, false), '{"callId":"c1","value":{"x":1}}\n')
expect('valueLine replaced', Recorder.valueLine('c1', 'v', true), '{"callId":"c1","value":"v","contentReplaced":true}\n')
expect('valueLine NaN', Recorder.valueLine('c1', NaN, false), '{"callId":"c1","unrecordable":"NaN"}\n')
expect('sidecarPath', Recorder.sidecarPath('/l/s.jsonl.zstd'), '/l/s.values.jsonl')
expect('sidecarPath dir', Recorder.sidecarPath('/l/s.jsonl', '/o'), '/o/s.values.jsonl')
// A generation's sidecar is named after it (session.v4.jsonl -> session.v4.values.jsonl).
expect('sidecarPath generation', Recorder.sidecarPath('/l/session.v4.jsonl.zstd'), '/l/session.v4.values.jsonl')
expect('sidecarPath child generation', Recorder.sidecarPath('/l/session.2.v3.jsonl'), '/l/session.2.v3.values.jsonl')

// contentReplaced against a tool whose render is known.
const tool = { output: { render: (_a: unknown, v: any) => [{ type: 'text', text: v.text }] } }
const exec = { callId: 'c', name: 't', arguments: {} }
const long = 'x'.repeat(50) + 'ü'.repeat(50) + 'y'.repeat(50)
const full = Buffer.byteLength(long)
const spilled = long.slice(0, 20) + long.slice(-20) + `\n\n(Omitted ${full - 40} bytes. Full formatted result stored at: /s/f.txt. Use read with offset/limit, or grep this path to search within it.)`
expect('same content', Recorder.contentReplaced(tool, exec, { isError: false, value: { text: 'a' }, content: [{ type: 'text', text: 'a' }] }, {}), false)
expect('other content', Recorder.contentReplaced(tool, exec, { isError: false, value: { text: 'a' }, content: [{ type: 'text', text: 'b' }] }, {}), true)
expect('spill of render', Recorder.contentReplaced(tool, exec, { isError: false, value: { text: long }, content: [{ type: 'text', text: spilled }] }, {}), false)
expect('spill of something else', Recorder.contentReplaced(tool, exec, { isError: false, value: { text: long.slice(0, -1) + 'z' }, content: [{ type: 'text', text: spilled }] }, {}), true)
expect('render throws', Recorder.contentReplaced({ output: { render: () => { throw new Error('x') } } }, exec, { isError: false, value: 1, content: [] }, {}), false)

// The plugin in a stand-in host.
function host(logPath: string | undefined) {
  const listeners: ((exec: any, result: any) => void)[] = []
  const warnings: string[] = []
  const ctx = {
    on: (_e: string, l: any) => { listeners.push(l) },
    tools: { get: () => tool },
    sessionPersistence: { locate: () => logPath === undefined ? undefined : { kind: 'jsonl', path: logPath } },
    logger: { warn: (m: string) => { warnings.push(m) } },
  }
  Recorder.apply(ctx, {})
  const emit = (exec: any, result: any) => { for (const l of listeners) l(exec, result) }
  return { emit, warnings }
}
const agent = { session: { header: { id: 's' } } }
const dir = mkdtempSync(join(tmpdir(), 'recorder-selftest-'))
{
  const h = host(join(dir, 'sub', 'log.jsonl'))
  h.emit({ callId: 'a', name: 't', arguments: '{}', agent }, { isError: false, value: { text: 'one' }, content: [{ type: 'text', text: 'one' }] })
  h.emit({ callId: 'b', name: 't', arguments: {}, agent }, { isError: true, content: [{ type: 'text', text: 'Error' }] })
  h.emit({ callId: 'c', name: 't', arguments: {}, agent }, { isError: false, value: { text: NaN }, content: [] })
  h.emit({ callId: 'd', name: 't', arguments: {}, agent }, { isError: false, value: { text: 'two' }, content: [{ type: 'text', text: 'other' }] })
  h.emit({ callId: 'e', name: 't', arguments: {} }, { isError: false, value: 1, content: [] })
  const lines = readFileSync(join(dir, 'sub', 'log.values.jsonl'), 'utf8')
  expect('sidecar', lines, '{"callId":"a","value":{"text":"one"}}\n{"callId":"c","unrecordable":"NaN at /text"}\n{"callId":"d","value":{"text":"two"},"contentReplaced":true}\n')
  expect('no warnings', h.warnings, [])
  expect('sidecar mode', statSync(join(dir, 'sub', 'log.values.jsonl')).mode & 0o777, 0o600)
}
{
  // A sidecar that cannot be written: one warning, no throw, later calls skipped.
  writeFileSync(join(dir, 'file'), '')
  const h = host(join(dir, 'file', 'log.jsonl'))
  for (const id of ['a', 'b', 'c']) h.emit({ callId: id, name: 't', arguments: {}, agent }, { isError: false, value: { text: 'x' }, content: [{ type: 'text', text: 'x' }] })
  expect('one warning for an unwritable sidecar', h.warnings.length, 1)
  expect('nothing written', existsSync(join(dir, 'file', 'log.values.jsonl')), false)
}
{
  const h = host(undefined)
  h.emit({ callId: 'a', name: 't', arguments: {}, agent }, { isError: false, value: 1, content: [] })
  h.emit({ callId: 'b', name: 't', arguments: {}, agent }, { isError: false, value: 1, content: [] })
  expect('one warning without a log file', h.warnings.length, 1)
}
{
  // A value whose getter throws must not escape.
  const h = host(join(dir, 'g.jsonl'))
  const evil = { get x() { throw new Error('getter') } }
  h.emit({ callId: 'a', name: 't', arguments: {}, agent }, { isError: false, value: evil, content: [] })
  expect('a throwing value is one warning', h.warnings.length, 1)
}

if (failures.length > 0) {
  console.log(failures.join('\n'))
  process.exit(1)
}
console.log('selftest ok')
