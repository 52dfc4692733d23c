package golden

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/atomicwrite"
	"github.com/dsh-replay/dsh-replay/internal/termquote"
	"github.com/dsh-replay/dsh-replay/replay"
)

// checkOptions are the flags of `golden check`.
type checkOptions struct {
	goldenOptions
	unreferenced string // warn, fail or delete
}

func (o *checkOptions) Validate() error {
	if o.maxLines < 0 {
		return cmdutil.UsageErr("--max-lines must be >= 0")
	}
	switch o.unreferenced {
	case "warn", "fail":
	case "delete":
		if os.Getenv("CI") != "" {
			return cmdutil.UsageErr("--unreferenced=delete: refusing to delete goldens when CI is set (run it locally)")
		}
	default:
		return cmdutil.UsageErr("--unreferenced must be warn, fail or delete, not %q", o.unreferenced)
	}
	return nil
}

// newCmdCheck is `golden check`; runF, when set, runs instead (tests).
func newCmdCheck(fac *cmdutil.Factory, runF func(*checkOptions) error) *cobra.Command {
	o := &checkOptions{}
	o.proj.Limits = fac.PluginLimits
	c := &cobra.Command{
		Use:   "check PATH...",
		Short: "Compare logs and card goldens with the projectors without writing (exit 1 on drift)",
		Long: `check computes what update would write and compares: a log whose
content or meta would be re-recorded, a card golden that is missing or
differs, a stale card golden whose log is gone (only named after a complete
run over directories), a pending .new file or a temporary file left behind
are all drift (exit 1). Every failure prints the command that regenerates.`,
		Args: needPaths("check"),
		RunE: runE(o, runF, runCheck),
	}
	addCommonFlags(c, &o.goldenOptions)
	c.Flags().IntVar(&o.maxLines, "max-lines", replay.DiffLimit, "cap each diff at `N` lines (0: no diffs)")
	c.Flags().StringVar(&o.unreferenced, "unreferenced", "warn", "card goldens whose log is gone, and cards of calls gone from their log: warn, fail or delete (not when CI is set)")
	return c
}

// checkRun is one check: its outcome so far.
type checkRun struct {
	*goldenRun
	opts    *checkOptions
	code    exitStatus
	unref   int      // unreferenced goldens and cards
	drifted []string // logs whose goldens drifted
}

func runCheck(o *checkOptions) error {
	g, paths, err := goldenRunOver(&o.goldenOptions)
	if err != nil {
		return err
	}
	c := &checkRun{goldenRun: g, opts: o}
	for _, path := range paths {
		p := g.plan(path)
		if p.readErr != nil {
			fmt.Fprintf(g.stderr, "dsh-replay: %v\n", p.readErr)
			c.code.worse(cmdutil.ExitCannot)
			continue
		}
		c.settleGoneCards(p)
		c.printDrift(path, p)
	}
	// Pending and temporary files left behind, then stale goldens.
	left := g.leftovers(o.Args, paths)
	c.printLeftovers(left)
	stale, complete := g.staleGoldens(o.Args, paths)
	for _, s := range stale {
		c.unreferenced(s+": its log is gone", func() error { return os.Remove(s) })
	}
	c.printSummary(paths, len(stale), len(left), complete)
	return c.code.err()
}

// unreferenced applies the --unreferenced policy to one golden (or to the
// cards of its calls that are gone): delete removes them with del.
func (c *checkRun) unreferenced(what string, del func() error) {
	c.unref++
	switch c.opts.unreferenced {
	case "delete":
		if err := del(); err != nil {
			fmt.Fprintf(c.stderr, "dsh-replay: %v\n", err)
			c.code.worse(cmdutil.ExitCannot)
			return
		}
		fmt.Fprintf(c.stdout, "DELETED %s\n", termquote.QuoteName(what))
	case "fail":
		fmt.Fprintf(c.stdout, "UNREFERENCED %s\n", what)
		c.code.worse(cmdutil.ExitDivergence)
	default:
		fmt.Fprintf(c.stdout, "UNREFERENCED %s (warning; --unreferenced=fail makes it fail, =delete removes it)\n", what)
	}
}

// goneCards are the calls a card golden has cards of but the log no
// longer has, and the golden parsed as it is and as it should be.
func goneCards(f *goldenFile) (gone []string, have, want segFile) {
	if f.cards == nil || !f.exists {
		return nil, have, want
	}
	have, want = parseSegs(f.kind, f.have, true), parseSegs(f.kind, f.want, true)
	if !have.ok || !want.ok {
		return nil, have, want
	}
	for _, k := range have.keys {
		if !has(want, k) {
			gone = append(gone, k)
		}
	}
	return gone, have, want
}

// settleGoneCards applies the policy to the cards of calls gone from one
// log; deleting them rewrites the golden without them (and updates the
// plan's view of it).
func (c *checkRun) settleGoneCards(p *logPlan) {
	for _, f := range p.files {
		gone, have, want := goneCards(f)
		if len(gone) == 0 {
			continue
		}
		c.unreferenced(fmt.Sprintf("%s: the cards of %s %s, gone from the log", f.path, cmdutil.Plural(len(gone), "call", "calls"), strings.Join(gone, ", ")), func() error {
			kept := have
			kept.keys = nil
			for _, k := range have.keys {
				if has(want, k) {
					kept.keys = append(kept.keys, k)
				}
			}
			data := kept.bytes()
			if sameSegs(kept, want) {
				data = f.want
			}
			if err := atomicwrite.WriteFile(f.path, data, 0o644); err != nil {
				return err
			}
			f.have = data
			f.same = f.cards.Matches(data)
			return nil
		})
	}
}

// printDrift reports what update would change in one log's goldens, and
// the calls it cannot re-record.
func (c *checkRun) printDrift(path string, p *logPlan) {
	out := c.stdout
	for _, pr := range p.problems {
		if pr.fail {
			// update cannot fix these: the value or the projector must change.
			fmt.Fprintf(out, "FAIL %s: call %s (%s): %s\n", cmdutil.Where(path, pr.line), pr.callID, pr.tool, pr.msg)
			c.code.worse(cmdutil.ExitDivergence)
		}
	}
	bad := false
	for _, f := range p.files {
		if f.same {
			continue
		}
		bad = true
		switch {
		case f.kind == kindLog:
			fmt.Fprintf(out, "DRIFT %s: %d %s would be re-recorded\n", termquote.QuoteName(f.path), len(p.changes), cmdutil.Plural(len(p.changes), "call", "calls"))
			for i := range p.changes {
				c.writeCallChange(out, path, &p.changes[i])
			}
		case !f.exists:
			fmt.Fprintf(out, "MISSING %s: no card golden\n", termquote.QuoteName(f.path))
		case cards.ParseHeader(f.kind, f.have).Format != cards.GoldenFormat:
			h := cards.ParseHeader(f.kind, f.have)
			if h.OK {
				fmt.Fprintf(out, "DRIFT %s: golden format %d, this dsh-replay writes format %d\n", termquote.QuoteName(f.path), h.Format, cards.GoldenFormat)
			} else {
				fmt.Fprintf(out, "DRIFT %s: not a card golden (no header)\n", termquote.QuoteName(f.path))
			}
		default:
			fmt.Fprintf(out, "DRIFT %s: the cards differ\n", termquote.QuoteName(f.path))
			// The version in the header is not compared: keep it out of the diff.
			want := f.cards.Header(cards.ParseHeader(f.kind, f.have).Version) + string(f.cards.Body)
			writeDiff(out, string(f.have), want, c.opts.maxLines)
		}
	}
	if bad {
		c.drifted = append(c.drifted, path)
		c.code.worse(cmdutil.ExitDivergence)
	}
}

// printLeftovers names the pending and temporary files left behind.
func (c *checkRun) printLeftovers(left []string) {
	for _, l := range left {
		if strings.HasPrefix(filepath.Base(l), atomicwrite.TempPrefix) {
			fmt.Fprintf(c.stdout, "LEFTOVER %s: a temporary file of an interrupted write (golden update removes it)\n", termquote.QuoteName(l))
		} else {
			fmt.Fprintf(c.stdout, "PENDING %s: review it (%s), then accept or reject it\n", termquote.QuoteName(l), c.command("diff", nil))
		}
		c.code.worse(cmdutil.ExitDivergence)
	}
}

// printSummary is the commands that fix what check found and the line
// that ends it.
func (c *checkRun) printSummary(paths []string, stale, left int, complete bool) {
	out, args := c.stdout, c.opts.Args
	if len(c.drifted) > 0 {
		regen := c.drifted
		if len(c.drifted) > 5 && len(c.drifted) == len(paths) {
			regen = args
		}
		fmt.Fprintf(out, "to regenerate: %s\n", c.command("update", regen))
	}
	if stale > 0 && c.opts.unreferenced != "delete" {
		fmt.Fprintf(out, "to delete unreferenced goldens: %s\n", c.command("check", args, "--unreferenced=delete"))
	}
	if left > 0 {
		fmt.Fprintf(out, "to settle pending files: %s  (or %s)\n", c.command("accept", nil), c.command("reject", nil))
	}
	status := "ok"
	if c.code != cmdutil.ExitOK {
		status = "FAILED"
	}
	fmt.Fprintf(out, "golden check: %s: %d %s, %d drifted, %d unreferenced, %d pending\n", status, len(paths), cmdutil.Plural(len(paths), "log", "logs"), len(c.drifted), c.unref, left)
	if !complete {
		fmt.Fprintln(out, "stale goldens not looked for under file arguments: only directories are complete runs")
	}
}

// leftovers lists pending .new files and temporary files of interrupted
// writes that belong to the logs and directories of a run.
func (g *goldenRun) leftovers(args, paths []string) []string {
	set := map[string]bool{}
	isOurs := func(name string) bool {
		if strings.HasPrefix(name, atomicwrite.TempPrefix) {
			return true
		}
		t, ok := strings.CutSuffix(name, pendingExt)
		return ok && (strings.HasSuffix(t, ".jsonl") || strings.HasSuffix(t, ".jsonl.zstd") ||
			strings.HasSuffix(t, cardsTextExt) || strings.HasSuffix(t, cardsJSONExt))
	}
	for _, a := range args {
		if st, err := os.Stat(a); err == nil && st.IsDir() {
			filepath.WalkDir(g.place(a), func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && isOurs(d.Name()) {
					set[p] = true
				}
				return nil
			})
		}
	}
	for _, p := range paths {
		base := g.place(cards.LogBase(p))
		for _, f := range []string{g.place(p), base + cardsTextExt, base + cardsJSONExt} {
			if fileExists(f + pendingExt) {
				set[f+pendingExt] = true
			}
		}
		dir := filepath.Dir(g.place(p))
		if ents, err := os.ReadDir(dir); err == nil {
			for _, e := range ents {
				n := e.Name()
				if strings.HasPrefix(n, atomicwrite.TempPrefix) && strings.Contains(n, filepath.Base(base)) {
					set[filepath.Join(dir, n)] = true
				}
			}
		}
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
