package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/logformat"
)

func newGoldenUpdateCmd() *cobra.Command {
	o := &goldenOptions{}
	c := &cobra.Command{
		Use:   "update PATH...",
		Short: "Re-record content/meta of logs with values and write card goldens",
		Long: `update re-runs render and presentationMeta on every call that carries a
canonical value and re-records the log's content and meta in place: only the
byte spans of those fields change (meta is inserted or removed as needed),
every other line stays byte-identical, and a .jsonl.zstd log stays chained
zstd (frames without an edited line are copied verbatim). Calls marked
contentReplaced keep their content (their meta is still re-recorded); Code
Mode sub-calls never get meta. Then the card goldens are written.

Writes are atomic (temporary file in the same directory, fsync, rename,
directory fsync). On a terminal the changes go to pending .new files; review
them with golden diff / accept / reject. Off a terminal, or with --no-review,
they are written in place. --dry-run only says what would change.`,
		Example: `  dsh-replay golden update testdata/golden
  dsh-replay golden update --no-review --prune testdata/
  dsh-replay golden update --out /tmp/goldens testdata/golden/session.jsonl`,
		Args: needPaths("update"),
		RunE: func(c *cobra.Command, args []string) error {
			return runGoldenUpdate(c, o, args)
		},
	}
	addCommonFlags(c, o)
	f := c.Flags()
	f.BoolVar(&o.dryRun, "dry-run", false, "write nothing; say what would change")
	f.BoolVar(&o.review, "review", false, "write changes to pending .new files even off a terminal")
	f.BoolVar(&o.noReview, "no-review", false, "write changes in place even on a terminal")
	f.BoolVar(&o.force, "force", false, "write even when CI is set")
	f.BoolVar(&o.prune, "prune", false, "delete stale card goldens (whose log is gone) after a complete run")
	return c
}

// mode is how update writes.
type mode int

const (
	modeWrite mode = iota
	modeReview
	modeDry
)

func runGoldenUpdate(c *cobra.Command, o *goldenOptions, args []string) error {
	if o.review && o.noReview {
		return cmdutil.UsageErr("--review and --no-review cannot be combined")
	}
	m := modeWrite
	env, err := updatePolicy()
	if err != nil {
		return err
	}
	switch {
	case o.dryRun:
		m = modeDry
	case o.review:
		m = modeReview
	case o.noReview:
	case env == "no":
		m = modeDry
	case env == "new":
		m = modeReview
	case env == "always":
	case cmdutil.IsTerminal(c.OutOrStdout()):
		m = modeReview
	}
	if m != modeDry {
		if err := refuseInCI(o, "write goldens"); err != nil {
			return err
		}
	}
	g, paths, err := goldenRunOver(c, o, args)
	if err != nil {
		return err
	}
	code := cmdutil.ExitOK
	worse := func(c int) {
		if c > code {
			code = c
		}
	}
	var updated, pending, unchanged int
	for _, path := range paths {
		p := g.plan(path)
		if p.readErr != nil {
			fmt.Fprintf(g.stderr, "dsh-replay: %v\n", p.readErr)
			worse(cmdutil.ExitCannot)
			continue
		}
		for _, pr := range p.problems {
			fmt.Fprintf(g.stderr, "dsh-replay: %s: call %s (%s): %s\n", cmdutil.Where(path, pr.line), pr.callID, pr.tool, pr.msg)
			if pr.fail {
				worse(cmdutil.ExitDivergence)
			}
		}
		changed := false
		for _, f := range p.files {
			pend := f.path + pendingExt
			if m != modeDry {
				// Temporary files of earlier runs that were killed.
				for _, t := range append(logformat.RemoveStaleTemps(f.path), logformat.RemoveStaleTemps(pend)...) {
					fmt.Fprintf(g.stdout, "removed %s (left by an interrupted write)\n", logformat.QuoteName(t))
				}
			}
			if f.same {
				// Nothing to change; a pending copy is now moot.
				if m != modeDry && fileExists(pend) {
					if err := os.Remove(pend); err != nil {
						fmt.Fprintf(g.stderr, "dsh-replay: %v\n", err)
						worse(cmdutil.ExitCannot)
					}
				}
				continue
			}
			changed = true
			desc := g.describe(f, p)
			switch m {
			case modeDry:
				fmt.Fprintf(g.stdout, "would %s %s%s\n", verb(f), logformat.QuoteName(f.path), desc)
			case modeReview:
				if err := logformat.WriteFileAtomic(pend, f.want, 0o644); err != nil {
					fmt.Fprintf(g.stderr, "dsh-replay: writing %s: %v\n", logformat.QuoteName(pend), err)
					worse(cmdutil.ExitCannot)
					continue
				}
				fmt.Fprintf(g.stdout, "pending %s%s\n", logformat.QuoteName(pend), desc)
			default:
				if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
					fmt.Fprintf(g.stderr, "dsh-replay: %v\n", err)
					worse(cmdutil.ExitCannot)
					continue
				}
				if err := logformat.WriteFileAtomic(f.path, f.want, 0o644); err != nil {
					fmt.Fprintf(g.stderr, "dsh-replay: writing %s: %v\n", logformat.QuoteName(f.path), err)
					worse(cmdutil.ExitCannot)
					continue
				}
				if fileExists(pend) {
					os.Remove(pend)
				}
				fmt.Fprintf(g.stdout, "%s %s%s\n", pastVerb(f), logformat.QuoteName(f.path), desc)
			}
		}
		switch {
		case !changed:
			unchanged++
		case m == modeReview:
			pending++
		default:
			updated++
		}
	}
	stale, complete := g.staleGoldens(args, paths)
	for _, s := range stale {
		switch {
		case !complete:
		case m == modeDry && o.prune:
			fmt.Fprintf(g.stdout, "would delete stale golden %s\n", logformat.QuoteName(s))
		case o.prune && m != modeDry:
			if err := os.Remove(s); err != nil {
				fmt.Fprintf(g.stderr, "dsh-replay: %v\n", err)
				worse(cmdutil.ExitCannot)
			} else {
				fmt.Fprintf(g.stdout, "deleted stale golden %s\n", logformat.QuoteName(s))
			}
		default:
			fmt.Fprintf(g.stderr, "dsh-replay: stale golden %s: its log is gone (delete it with --prune)\n", logformat.QuoteName(s))
		}
	}
	word := map[mode]string{modeWrite: "updated", modeReview: "with pending changes", modeDry: "would change"}[m]
	n := updated
	if m == modeReview {
		n = pending
	}
	fmt.Fprintf(g.stdout, "golden: %d %s, %d %s, %d unchanged\n", len(paths), cmdutil.Plural(len(paths), "log", "logs"), n, word, unchanged)
	if m == modeReview && pending > 0 {
		fmt.Fprintf(g.stdout, "review with: %s\n", g.command("diff", args))
	}
	if !complete {
		fmt.Fprintln(g.stdout, "stale goldens not looked for: only directories are complete runs")
	}
	if code != cmdutil.ExitOK {
		return &cmdutil.ExitError{Code: code}
	}
	return nil
}

// UpdateEnv names the environment variable of the update policy, as
// insta's INSTA_UPDATE: no (write nothing), new (pending .new files),
// always (in place). Flags win over it.
const UpdateEnv = "DSH_REPLAY_UPDATE"

func updatePolicy() (string, error) {
	switch v := os.Getenv(UpdateEnv); v {
	case "", "no", "new", "always":
		return v, nil
	default:
		return "", cmdutil.UsageErr("%s=%q: want no, new or always", UpdateEnv, v)
	}
}

func verb(f *goldenFile) string {
	if !f.exists {
		return "write"
	}
	return "update"
}

func pastVerb(f *goldenFile) string {
	if !f.exists {
		return "wrote"
	}
	return "updated"
}

// describe says what changed in a golden, for one line of output.
func (g *goldenRun) describe(f *goldenFile, p *logPlan) string {
	switch {
	case f.kind == kindLog && len(p.changes) > 0:
		parts := make([]string, 0, len(p.changes))
		for i, ch := range p.changes {
			if i == 5 {
				parts = append(parts, fmt.Sprintf("… %d more", len(p.changes)-5))
				break
			}
			parts = append(parts, fmt.Sprintf("%s %s", ch.callID, ch.what()))
		}
		return fmt.Sprintf(": %d %s re-recorded (%s)", len(p.changes), cmdutil.Plural(len(p.changes), "call", "calls"), strings.Join(parts, "; "))
	case !f.exists:
		return " (new)"
	case f.cards != nil && cards.ParseHeader(f.kind, f.have).Format != cards.GoldenFormat:
		return fmt.Sprintf(" (golden format %d → %d)", cards.ParseHeader(f.kind, f.have).Format, cards.GoldenFormat)
	}
	return ""
}
