// Pins what would make two recordings differ: the clock and the random ids
// (message ids, goal ids, spill file names). Imported before any host module.
import crypto from 'node:crypto'
import { syncBuiltinESMExports } from 'node:module'

// A clock that starts at a fixed instant and moves 1 ms per reading, so
// times are ordered, distinct and the same on every run.
const START = Date.UTC(2026, 0, 1)
let tick = 0
const RealDate = Date
const now = (): number => START + tick++
class PinnedDate extends RealDate {
  constructor(...args: any[]) {
    if (args.length === 0) super(now())
    else super(...(args as [any]))
  }
  static now(): number { return now() }
}
globalThis.Date = PinnedDate as DateConstructor

// A seeded generator (xorshift32) behind every random id.
let state = 0x2545f491
function nextByte(): number {
  state ^= state << 13; state >>>= 0
  state ^= state >>> 17
  state ^= state << 5; state >>>= 0
  return state & 0xff
}
function bytes(n: number): Buffer {
  const b = Buffer.alloc(n)
  for (let i = 0; i < n; i++) b[i] = nextByte()
  return b
}
function uuid(): `${string}-${string}-${string}-${string}-${string}` {
  const b = bytes(16)
  b[6] = (b[6]! & 0x0f) | 0x40
  b[8] = (b[8]! & 0x3f) | 0x80
  const h = b.toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/** Restart the sequences, so that each scenario's bytes do not depend on the ones before it. */
export function reset(): void {
  tick = 0
  state = 0x2545f491
}

const randomBytes = ((n: number, cb?: (err: Error | null, buf: Buffer) => void) => {
  const b = bytes(n)
  if (cb !== undefined) { queueMicrotask(() => cb(null, b)); return undefined }
  return b
}) as typeof crypto.randomBytes
crypto.randomBytes = randomBytes
crypto.randomUUID = uuid as typeof crypto.randomUUID
Object.defineProperty(globalThis.crypto, 'randomUUID', { value: uuid, configurable: true, writable: true })
Math.random = () => nextByte() / 256 + nextByte() / 65536
syncBuiltinESMExports()
