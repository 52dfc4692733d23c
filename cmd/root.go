package cmd

import (
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/cmd/golden"
	"github.com/dsh-replay/dsh-replay/cmd/show"
	"github.com/dsh-replay/dsh-replay/internal/gctune"
)

// The exit codes, as cmdutil defines them.
const (
	ExitOK         = cmdutil.ExitOK
	ExitDivergence = cmdutil.ExitDivergence
	ExitUsage      = cmdutil.ExitUsage
	ExitCannot     = cmdutil.ExitCannot
)

// commands are the root's subcommands by name, each built afresh (one list,
// so what the CLI offers is read in one place).
var commands = []struct {
	name  string
	build func(*cmdutil.Factory) *cobra.Command
}{
	{"show", func(f *cmdutil.Factory) *cobra.Command { return show.NewCmd(f, nil) }},
	{"golden", golden.NewCmd},
	{"calls", func(f *cmdutil.Factory) *cobra.Command { return newCmdCalls(f, nil) }},
	{"tools", func(f *cmdutil.Factory) *cobra.Command { return newCmdTools(f, nil, nil) }},
	{"verify", func(f *cmdutil.Factory) *cobra.Command { return newCmdVerify(f, nil) }},
	{"merge-reports", func(f *cmdutil.Factory) *cobra.Command { return newCmdMergeReports(f, nil) }},
	{"exit-codes", newHelpExitCodes},
	{"environment", newHelpEnvironment},
}

// NewRoot builds the root command (a fresh tree each call, for tests).
func NewRoot() *cobra.Command {
	root, _ := newRoot(&cmdutil.Factory{}, "")
	return root
}

// rootFor is the root for a run of args: when args start with a
// subcommand's name, that subcommand is the only one built (a command
// tree with its flags and help text is start-up cost; the others are not
// reachable from there).
func rootFor(f *cmdutil.Factory, args []string) (*cobra.Command, *profiles) {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-v") {
		return newRoot(f, "-") // the version alone: no subcommand is reached
	}
	if len(args) > 0 {
		for _, c := range commands {
			if c.name == args[0] {
				return newRoot(f, args[0])
			}
		}
	}
	return newRoot(f, "")
}

// profiles are a run's --cpuprofile and --memprofile: started by the
// root's pre-run hook, ended by stop when the command returns.
type profiles struct{ stops []func() }

func (p *profiles) stop() {
	for _, stop := range p.stops {
		stop()
	}
	p.stops = nil
}

// newRoot builds the root with every subcommand, or only the one named
// ("-": none), and the profiles its run may start.
func newRoot(f *cmdutil.Factory, only string) (*cobra.Command, *profiles) {
	prof := &profiles{}
	root := &cobra.Command{
		Use:   "dsh-replay",
		Short: "Replay DSH session logs through the tool projectors: verify, show, golden",
		Long: `dsh-replay re-runs the pure projectors of DSH / LasmeX tools (render,
presentationMeta, presentCall, presentResult) on every call recorded in a
session log and proves that they reproduce what was recorded.`,
		Version: cmdutil.VersionString(),
	}
	// --cpuprofile and --memprofile are for measuring the tool itself (make
	// bench, perf work); the memory profile (allocations included) is written
	// when the command ends.
	var profile, memProfile string
	root.PersistentFlags().StringVar(&profile, "cpuprofile", "", "write a CPU profile to `FILE`")
	root.PersistentFlags().MarkHidden("cpuprofile")
	root.PersistentFlags().StringVar(&memProfile, "memprofile", "", "write a memory profile to `FILE` at the end")
	root.PersistentFlags().MarkHidden("memprofile")
	root.PersistentPreRunE = func(c *cobra.Command, args []string) error {
		if profile != "" {
			f, err := os.Create(profile)
			if err != nil {
				return &cmdutil.ExitError{Code: ExitUsage, Err: err}
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				f.Close()
				return err
			}
			prof.stops = append(prof.stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
		if memProfile != "" {
			f, err := os.Create(memProfile)
			if err != nil {
				return &cmdutil.ExitError{Code: ExitUsage, Err: err}
			}
			prof.stops = append(prof.stops, func() { pprof.Lookup("allocs").WriteTo(f, 0); f.Close() })
		}
		return nil
	}
	for _, c := range commands {
		if only == "" || c.name == only {
			root.AddCommand(c.build(f))
		}
	}
	return root, prof
}

// Execute runs the CLI with os.Args and returns the exit code.
func Execute() int {
	gctune.Apply()
	// The runtime samples an allocation every 512 KB for a memory profile
	// nobody asked for: a stack walk and a bucket each (70 of a 6,052-log
	// tree's page faults).
	if !slices.ContainsFunc(os.Args[1:], func(a string) bool { return strings.HasPrefix(a, "--memprofile") }) {
		runtime.MemProfileRate = 0
	}
	return Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// Run runs the CLI with explicit streams; no panic escapes it.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return RunWith(&cmdutil.Factory{}, args, stdin, stdout, stderr)
}

// RunWith is Run with the commands built by f (tests).
func RunWith(f *cmdutil.Factory, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root, prof := rootFor(f, args)
	defer prof.stop()
	return cmdutil.Execute(root, args, stdin, stdout, stderr)
}
