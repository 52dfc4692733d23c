package golden

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/replay"
	"github.com/dsh-replay/dsh-replay/report"
)

// Golden kinds: what a golden file is.
const (
	kindLog       = "log"
	kindCardsText = cards.TextGolden
	kindCardsJSON = cards.JSONGolden
)

// goldenOptions are the flags and streams the golden subcommands share;
// each subcommand's options embed them.
type goldenOptions struct {
	proj     cmdutil.ProjectorFlags
	out      string
	filter   logformat.PathFilter
	force    bool
	maxLines int
	// the review selection (--log, --tool, --call)
	logs, tools, calls []string

	cmdutil.IO
}

// Validate checks the flags before anything runs (none to check here).
func (o *goldenOptions) Validate() error { return nil }

// runE is a subcommand's RunE (cmdutil.RunE: bind, validate, run or runF).
func runE[O cmdutil.Options](o O, runF, run func(O) error) func(*cobra.Command, []string) error {
	return cmdutil.RunE(o, runF, run)
}

// NewCmd is `dsh-replay golden`.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "golden",
		Short: "Regenerate and review goldens: re-record content/meta of test logs, card goldens for show",
		Long: `golden keeps test logs and their card goldens in step with the projectors.

  update PATH...   re-record content and meta of every call that carries a
                   value, in place and atomically, and write the card goldens
                   (<log base>.cards.txt: show at width 100 without colour;
                   <log base>.cards.ndjson: show --json). On a terminal the
                   changes go to pending .new files for review; elsewhere (or
                   with --no-review) they are written in place.
  check PATH...    compare without writing: exit 1 on drift, on stale card
                   goldens (their log is gone) and on pending .new files.
  diff [PATH...]   show the pending changes.
  review [PATH...] decide pending changes one call at a time: interactive on
                   a terminal; elsewhere each diff and the commands that
                   decide it (exit 1 while anything is pending).
  accept [PATH...] move pending .new files into place (with --call or --tool:
                   only those calls' changes).
  reject [PATH...] delete pending .new files (with --call or --tool: only
                   those calls' changes).
  pending [PATH...] list the pending items (--json: one object each).

Without --call or --tool a log and its two card goldens are decided together;
with them, each call is decided on its own (its re-recorded content and meta,
its card and its views), and every file is written atomically as it is made.

DSH_REPLAY_UPDATE=no|new|always sets how update writes when no flag does
(no: write nothing, as --dry-run; new: pending .new files, as --review;
always: in place, as --no-review). When CI is set nothing is written unless
--force says so. Exit codes: 0 ok,
1 drift (check) or calls that could not be re-recorded (update), 2 usage
error, 3 a log could not be read or a file could not be written.`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return cmdutil.UsageErr("unknown golden subcommand %q (want update, check, diff, review, accept, reject or pending)", args[0])
			}
			return cmdutil.UsageErr("golden needs a subcommand: update, check, diff, review, accept, reject or pending")
		},
		RunE: func(*cobra.Command, []string) error { return nil },
	}
	c.AddCommand(newCmdUpdate(f, nil), newCmdCheck(f, nil), newCmdDiff(f, nil),
		newCmdDecide(f, "accept", nil), newCmdDecide(f, "reject", nil), newCmdPending(f, nil), newCmdReview(f, nil))
	return c
}

func addCommonFlags(c *cobra.Command, o *goldenOptions) {
	f := c.Flags()
	o.proj.Add(f)
	f.StringVar(&o.out, "out", "", "keep goldens (and re-recorded log copies) under `DIR`, mirroring the logs' relative paths")
	cmdutil.AddPathFilterFlags(f, &o.filter)
}

func needPaths(name string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return cmdutil.UsageErr("golden %s needs at least one PATH (a log or a directory)", name)
		}
		for _, a := range args {
			if a == "-" {
				return cmdutil.UsageErr("golden %s works on files: stdin (-) cannot be re-recorded", name)
			}
		}
		return nil
	}
}

// goldenRun is the state shared by the golden subcommands.
type goldenRun struct {
	layout
	o              *goldenOptions
	reg            *projector.Registry
	eng            *replay.Engine
	stdout, stderr io.Writer
	states         map[*pendingUnit]*unitState // per-call work, by unit
}

func newGoldenRun(o *goldenOptions, needRegistry bool) (*goldenRun, error) {
	// A signal at any moment ends a golden run the same way: no temporary
	// file left, exit 130 or 143.
	cmdutil.HandleInterrupts()
	l, err := newLayout(o.out, o.proj)
	if err != nil {
		return nil, err
	}
	g := &goldenRun{layout: l, o: o, stdout: o.Out, stderr: o.ErrOut}
	if needRegistry {
		if g.reg, _, err = o.proj.Registry(); err != nil {
			return nil, err
		}
		g.eng = replay.NewEngine(g.reg, replay.Options{})
	}
	return g, nil
}

// refuseInCI is the safety net: a CI job must never write goldens.
func refuseInCI(o *goldenOptions, what string) error {
	if os.Getenv("CI") != "" && !o.force {
		return cmdutil.UsageErr("refusing to %s: CI is set (CI jobs run `dsh-replay golden check`; pass --force to write anyway)", what)
	}
	return nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// goldenPaths expands the arguments into logs; a values sidecar named
// explicitly (a shell glob catches them) is not a log.
func goldenPaths(args []string, filter logformat.PathFilter, stderr io.Writer) ([]string, error) {
	paths, err := cmdutil.ExpandLogs(args, filter, stderr)
	if err != nil {
		return nil, err
	}
	out := paths[:0]
	for _, p := range paths {
		if !logformat.IsSidecar(p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// checkCollisions refuses two logs that would share card goldens
// (session.jsonl next to session.jsonl.zstd).
func checkCollisions(paths []string) error {
	seen := map[string]string{}
	for _, p := range paths {
		b := cards.LogBase(p)
		if q, ok := seen[b]; ok {
			return fmt.Errorf("%s and %s would share the card goldens %s%s: rename one", q, p, b, cardsTextExt)
		}
		seen[b] = p
	}
	return nil
}

var shellQuote = report.ShellQuote

// exitStatus is the worst outcome of a run so far.
type exitStatus int

func (c *exitStatus) worse(code int) {
	if code > int(*c) {
		*c = exitStatus(code)
	}
}

// err is the run's outcome as RunE returns it.
func (c exitStatus) err() error {
	if c != cmdutil.ExitOK {
		return &cmdutil.ExitError{Code: int(c)}
	}
	return nil
}

// outputs are the files a run over paths may write: each log (in place, or
// its copy under --out) and its card goldens.
func (g *goldenRun) outputs(paths []string) []cmdutil.Output {
	outs := make([]cmdutil.Output, 0, 3*len(paths))
	for _, p := range paths {
		base := g.place(cards.LogBase(p))
		outs = append(outs,
			cmdutil.Output{Flag: "the re-recorded log", Path: g.place(p), Self: p},
			cmdutil.Output{Flag: "the card golden", Path: base + cardsTextExt},
			cmdutil.Output{Flag: "the card golden", Path: base + cardsJSONExt})
	}
	return outs
}

// goldenRunOver prepares a golden run (with card goldens) over the logs the
// arguments name, refusing two logs that would share a golden.
func goldenRunOver(o *goldenOptions) (*goldenRun, []string, error) {
	g, err := newGoldenRun(o, true)
	if err != nil {
		return nil, nil, err
	}
	paths, err := goldenPaths(o.Args, o.filter, g.stderr)
	if err != nil {
		return nil, nil, err
	}
	if err := checkCollisions(paths); err != nil {
		return nil, nil, &cmdutil.ExitError{Code: cmdutil.ExitCannot, Err: err}
	}
	if err := cmdutil.CheckOutputs(paths, g.outputs(paths)...); err != nil {
		return nil, nil, err
	}
	return g, paths, nil
}
