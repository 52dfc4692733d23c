//go:build !unix

package atomicwrite

import "os"

// Without flock a live temporary file cannot be told from a stale one:
// none is removed (golden check names them).
func lockFile(*os.File) error { return nil }

func removeIfStale(string) bool { return false }

// CrashedByHook reports whether a process ended as the crash hook ends it
// (TerminateProcess with exit code 1).
func CrashedByHook(ps *os.ProcessState) bool { return ps.ExitCode() == 1 }
