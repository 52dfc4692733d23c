// Package atomicwrite owns how dsh-replay replaces a file the user owns:
// a temporary file beside the target, written, synced and renamed over it,
// so a reader sees the old file or the new one and a crash leaves the old
// one. A temporary file left by a process that died (SIGKILL, a crash) is
// removed by the next write of the same file: a writer holds an advisory
// lock on its temporary file, so a live write is never mistaken for a
// stale one.
//
// Signals are the command's business: its handler calls Abort, which
// removes the temporary files of the writes under way, and then ends the
// process itself. The package has test hooks (CrashHookEnv, PauseHookEnv)
// that crash-safety and interrupt tests set in a re-executed binary.
package atomicwrite
