//go:build unix

package logformat

import "syscall"

// openFileLimit is the soft RLIMIT_NOFILE (the runtime has raised it to
// the hard limit at start-up where it could); 0 when it cannot be read.
func openFileLimit() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > 1<<30 {
		return 0
	}
	return int(rl.Cur)
}
