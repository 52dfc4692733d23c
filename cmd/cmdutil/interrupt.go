package cmdutil

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/dsh-replay/dsh-replay/internal/atomicwrite"
)

// Signals. A command that writes files calls HandleInterrupts before its
// first write: SIGINT and SIGTERM then remove the temporary file of every
// write under way (atomicwrite.Abort) and end the process with
// InterruptExit, 130 or 143, as a shell reports a signal.

var (
	sigMu    sync.Mutex
	deferred int       // > 0: a caller shuts down on signals itself
	caught   os.Signal // the signal caught while deferred
	install  sync.Once
)

// InterruptExit is the exit code for a signal: 128 + its number (130 for
// SIGINT, 143 for SIGTERM).
func InterruptExit(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 130
}

// HandleInterrupts installs the handler. Idempotent.
func HandleInterrupts() {
	install.Do(func() {
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
		go func() {
			for s := range ch {
				sigMu.Lock()
				if deferred > 0 {
					caught = s
					sigMu.Unlock()
					continue
				}
				// sigMu stays held: a resume racing the exit waits.
				msg := ""
				if atomicwrite.Abort() > 0 {
					msg = ": the file being written was left as it was"
				}
				fmt.Fprintf(os.Stderr, "dsh-replay: interrupted (%v)%s\n", s, msg)
				os.Exit(InterruptExit(s))
			}
		}()
	})
}

// DeferInterrupts is for a caller that shuts down on SIGINT and SIGTERM by
// itself and writes only between its events (the interactive reviewer):
// until resume is called a signal is only noted, and resume returns it
// (nil when none came).
func DeferInterrupts() (resume func() os.Signal) {
	HandleInterrupts()
	sigMu.Lock()
	deferred++
	sigMu.Unlock()
	var once sync.Once
	return func() os.Signal {
		var s os.Signal
		once.Do(func() {
			sigMu.Lock()
			deferred--
			s, caught = caught, nil
			sigMu.Unlock()
		})
		return s
	}
}
