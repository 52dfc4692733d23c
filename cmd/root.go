// Package cmd holds the cobra commands: flag parsing, output sinks and the
// mapping of outcomes to exit codes (0 ok, 1 divergence, 2 usage, 3 could not
// verify). Each command lives in its own file and registers itself in init.
package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// Exit codes of DESIGN.md §3.
const (
	ExitOK         = 0
	ExitDivergence = 1
	ExitUsage      = 2
	ExitCannot     = 3
)

// Version is set at build time with -ldflags "-X .../cmd.Version=...".
var Version = ""

func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// ExitError carries an exit code through cobra.
type ExitError struct {
	Code int
	Err  error // nil: the command already printed what it had to say
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}
func (e *ExitError) Unwrap() error { return e.Err }

// usageErr marks a usage error (exit 2).
func usageErr(format string, args ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, args...)}
}

// stopProfile ends a --cpuprofile or --memprofile run (set by the root's pre-run hook).
var stopProfile func()

// commands registered by the command files' init functions.
var commands []func() *cobra.Command

func register(f func() *cobra.Command) { commands = append(commands, f) }

// NewRoot builds the root command (a fresh tree each call, for tests).
func NewRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "dsh-replay",
		Short: "Replay DSH session logs through the tool projectors: verify, show, golden",
		Long: `dsh-replay re-runs the pure projectors of DSH / LasmeX tools (render,
presentationMeta, presentCall, presentResult) on every call recorded in a
session log and proves that they reproduce what was recorded.`,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &ExitError{Code: ExitUsage, Err: err}
	})
	// --cpuprofile and --memprofile are for measuring the tool itself (make
	// bench, perf work); the memory profile (allocations included) is written
	// when the command ends.
	var profile, memProfile string
	root.PersistentFlags().StringVar(&profile, "cpuprofile", "", "write a CPU profile to `FILE`")
	root.PersistentFlags().MarkHidden("cpuprofile")
	root.PersistentFlags().StringVar(&memProfile, "memprofile", "", "write a memory profile to `FILE` at the end")
	root.PersistentFlags().MarkHidden("memprofile")
	root.PersistentPreRunE = func(c *cobra.Command, args []string) error {
		var stops []func()
		if profile != "" {
			f, err := os.Create(profile)
			if err != nil {
				return &ExitError{Code: ExitUsage, Err: err}
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				f.Close()
				return err
			}
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
		if memProfile != "" {
			f, err := os.Create(memProfile)
			if err != nil {
				return &ExitError{Code: ExitUsage, Err: err}
			}
			stops = append(stops, func() { pprof.Lookup("allocs").WriteTo(f, 0); f.Close() })
		}
		if len(stops) > 0 {
			stopProfile = func() {
				for _, stop := range stops {
					stop()
				}
			}
		}
		return nil
	}
	for _, f := range commands {
		root.AddCommand(f())
	}
	return root
}

// Execute runs the CLI with os.Args and returns the exit code.
func Execute() int {
	tuneGC()
	return Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// tuneGC trades a little memory for less collector work: the live heap of a
// streaming run is small (15-20 MB) and churns fast (verify allocates about
// three bytes per byte of log), so the default GOGC collects every few
// milliseconds. A higher GOGC under a soft memory limit keeps peak RSS under
// 80 MB whatever the log size; 72 MiB rather than 56 gives the collector
// half again as much headroom (a third fewer collections, about 6% of
// verify's CPU). GOGC and GOMEMLIMIT in the environment win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(72 << 20)
	}
}

// Run runs the CLI with explicit streams; no panic escapes it.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "dsh-replay: internal error (this is a bug, please report it): %v\n%s", r, debug.Stack())
			code = ExitCannot
		}
	}()
	root := NewRoot()
	defer func() {
		if stopProfile != nil {
			stopProfile()
			stopProfile = nil
		}
	}()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			fmt.Fprintf(stderr, "dsh-replay: %v\n", ee.Err)
		}
		return ee.Code
	}
	// cobra's own errors (unknown command, bad args) are usage errors.
	fmt.Fprintf(stderr, "dsh-replay: %v\n", err)
	return ExitUsage
}
