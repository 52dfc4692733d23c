// The few Node APIs the recorder uses, declared here so the build needs
// nothing but TypeScript (no @types/node install).
declare module 'node:fs' {
  export function appendFileSync(path: string, data: string, options?: { mode?: number }): void
  export function mkdirSync(path: string, options?: { recursive?: boolean; mode?: number }): string | undefined
}
declare module 'node:path' {
  export function dirname(p: string): string
  export function join(...parts: string[]): string
  export function basename(p: string, suffix?: string): string
}
interface NodeBuffer extends Uint8Array {
  equals(other: Uint8Array): boolean
  subarray(start?: number, end?: number): NodeBuffer
}
declare const Buffer: { from(s: string, encoding: 'utf8'): NodeBuffer }
declare const process: { emitWarning(msg: string): void }
