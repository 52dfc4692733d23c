// dsh-replay-recorder: a tools/result observer that appends each successful
// call's canonical value to <log basename>.values.jsonl beside the session log,
// so that `dsh-replay verify` can re-run render and presentationMeta on it.
//
// One source for DeepSeek Harness and LasmeX: it uses only the cordis plugin
// shape (name, inject, apply) and structural types, never a host import.
//
// It must never hurt the session: every failure is contained, a sidecar it
// cannot write is reported once and then skipped, and each line is written
// with one appendFileSync call so a crash leaves at most a torn last line.
import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname, join, basename } from 'node:path'

export const name = 'dsh-replay-recorder'
// sessionPersistence says where the log is; without one there is nothing to sit beside.
export const inject = ['tools', 'sessionPersistence']

export interface Config {
  /** Write every sidecar into this directory instead of beside its log (tests). */
  dir?: string
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

interface Block { type: string; text?: string; [k: string]: unknown }

interface Exec {
  callId: string
  name: string
  arguments: unknown
  agent?: { session?: { header?: unknown } }
}

interface Result {
  isError: boolean
  value?: unknown
  content: Block[]
}

interface ToolDef {
  output?: { render?(args: unknown, value: unknown): Block[] }
  finalizeContent?(exec: unknown, result: unknown): Block[] | undefined
}

interface Host {
  on(event: string, listener: (...args: any[]) => unknown): unknown
  tools?: { get(name: string): ToolDef | undefined }
  sessionPersistence?: { locate(header: unknown): { kind: string; path?: string } | undefined }
  logger?: { warn(msg: string): void } | ((name: string) => { warn(msg: string): void })
}

/** The sidecar of a log path: session.jsonl and session.jsonl.zstd both give session.values.jsonl. */
export function sidecarPath(logPath: string, dir?: string): string {
  let base = basename(logPath)
  for (const suf of ['.jsonl.zstd', '.jsonl.zst', '.jsonl']) {
    if (base.endsWith(suf)) { base = base.slice(0, -suf.length); break }
  }
  return join(dir ?? dirname(logPath), base + '.values.jsonl')
}

/** Why a value cannot be written as JSON that reads back equal, or undefined when it can. */
export function unrecordable(value: unknown): string | undefined {
  const seen = new Set<object>()
  const walk = (v: unknown, ptr: string): string | undefined => {
    const at = ptr === '' ? '' : ` at ${ptr}`
    switch (typeof v) {
      case 'string': case 'boolean': return undefined
      case 'number':
        if (Number.isNaN(v)) return `NaN${at}`
        if (!Number.isFinite(v)) return `${v > 0 ? 'Infinity' : '-Infinity'}${at}`
        if (Object.is(v, -0)) return `-0${at}`
        return undefined
      case 'undefined': return `undefined${at}`
      case 'bigint': return `BigInt${at}`
      case 'function': return `function${at}`
      case 'symbol': return `symbol${at}`
    }
    if (v === null) return undefined
    const o = v as object
    if (seen.has(o)) return `cycle${at}`
    if (typeof (o as { toJSON?: unknown }).toJSON === 'function') return `object with toJSON${at}`
    seen.add(o)
    try {
      if (Array.isArray(o)) {
        for (let i = 0; i < o.length; i++) {
          if (!(i in o)) return `array hole at ${ptr}/${i}`
          const r = walk(o[i], `${ptr}/${i}`)
          if (r !== undefined) return r
        }
        return undefined
      }
      const proto = Object.getPrototypeOf(o)
      if (proto !== Object.prototype && proto !== null) return `${proto?.constructor?.name ?? 'non-plain'} object${at}`
      for (const k of Object.keys(o)) {
        const r = walk((o as Record<string, unknown>)[k], `${ptr}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`)
        if (r !== undefined) return r
      }
      return undefined
    } finally {
      seen.delete(o)
    }
  }
  return walk(value, '')
}

/** One sidecar line (with its newline) for a successful call. */
export function valueLine(callId: string, value: unknown, contentReplaced: boolean): string {
  const why = unrecordable(value)
  if (why !== undefined) return JSON.stringify({ callId, unrecordable: why }) + '\n'
  const entry: Record<string, unknown> = { callId, value }
  if (contentReplaced) entry.contentReplaced = true
  return JSON.stringify(entry) + '\n'
}

// The spill policy replaces an oversized text result with a head/tail preview
// and this notice; dsh-replay rebuilds that itself, so a spill of what render
// gives is not "replaced". Anything else that differs is.
const SPILL = /^([\s\S]*?)(?:\n\n)?\(Omitted (\d+) bytes\. Full formatted result stored at: [^\n]*\)$/

function textOf(blocks: Block[] | undefined): string | undefined {
  if (blocks === undefined) return undefined
  let text = ''
  for (const b of blocks) {
    if (b.type !== 'text' || typeof b.text !== 'string') return undefined
    text += b.text
  }
  return text
}

/** Whether recorded is the spill policy's preview of rendered (head + tail, the omitted count right). */
export function isSpillOf(rendered: string, recorded: string): boolean {
  const m = SPILL.exec(recorded)
  if (m === null) return false
  const full = Buffer.from(rendered.toWellFormed(), 'utf8')
  const kept = Buffer.from(m[1]!, 'utf8')
  if (full.length - kept.length !== Number(m[2])) return false
  let head = 0
  while (head < kept.length && kept[head] === full[head]) head++
  // A head cut inside a character keeps fewer bytes; the rest must be the tail.
  for (let h = head; h >= Math.max(0, head - 4); h--) {
    const tail = kept.subarray(h)
    if (full.subarray(full.length - tail.length).equals(tail)) return true
  }
  return false
}

/** Whether the logged content is not what the tool's own projections give for the value. */
export function contentReplaced(tool: ToolDef | undefined, exec: Exec, result: Result, args: unknown): boolean {
  const render = tool?.output?.render
  if (render === undefined) return false
  let content: Block[] | undefined
  try {
    content = render.call(tool!.output, args, result.value)
    if (tool!.finalizeContent !== undefined) {
      content = tool!.finalizeContent(exec, { ...result, content }) ?? content
    }
  } catch {
    return false
  }
  if (JSON.stringify(content) === JSON.stringify(result.content)) return false
  const rendered = textOf(content)
  const recorded = textOf(result.content)
  if (rendered !== undefined && recorded !== undefined && isSpillOf(rendered, recorded)) return false
  return true
}

export function apply(ctx: Host, config: Config = {}): void {
  const warned = new Set<string>()
  const warn = (key: string, msg: string): void => {
    if (warned.has(key)) return
    warned.add(key)
    try {
      const lg = ctx.logger
      const logger = typeof lg === 'function' ? lg(name) : lg
      if (logger !== undefined) logger.warn(`${name}: ${msg}`)
      else process.emitWarning(`${name}: ${msg}`)
    } catch { /* a logger must not fail the session */ }
  }
  const made = new Set<string>()

  ctx.on('tools/result', (exec: Exec, result: Result) => {
    try {
      if (result.isError) return
      const header = exec.agent?.session?.header
      if (header === undefined) return
      const where = ctx.sessionPersistence?.locate(header)
      if (where === undefined || typeof where.path !== 'string') {
        warn('locate', 'the session has no file-backed log; no values are recorded')
        return
      }
      const path = sidecarPath(where.path, config.dir)
      if (warned.has(path)) return
      let args = exec.arguments
      if (typeof args === 'string') {
        try { args = JSON.parse(args) } catch { /* render sees the raw text */ }
      }
      const line = valueLine(exec.callId, result.value, contentReplaced(ctx.tools?.get(exec.name), exec, result, args))
      try {
        const d = dirname(path)
        // Values hold what the tools read: as private as the log beside them.
        if (!made.has(d)) { mkdirSync(d, { recursive: true, mode: 0o700 }); made.add(d) }
        appendFileSync(path, line, { mode: 0o600 })
      } catch (error) {
        warn(path, `cannot write ${path}: ${(error as Error).message}; values of this session are not recorded`)
      }
    } catch (error) {
      warn('internal', `recording failed: ${(error as Error)?.message ?? String(error)}`)
    }
  })
}
