package golden

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/replay"
)

// reviewOptions are the flags of `golden review`.
type reviewOptions struct {
	goldenOptions
	noTUI bool
}

// newCmdReview is `golden review`; runF, when set, runs instead (tests).
func newCmdReview(fac *cmdutil.Factory, runF func(*reviewOptions) error) *cobra.Command {
	o := &reviewOptions{}
	o.proj.Limits = fac.PluginLimits
	c := &cobra.Command{
		Use:   "review [PATH...]",
		Short: "Review pending golden changes one call at a time",
		Long: `review walks the pending changes under PATH (default: the current
directory) one call at a time: the call's card before and after and the diff
of its golden text (re-recorded content and meta, card, views).

On a terminal it is interactive: a accepts, r rejects, s skips; A, R and S
do the same for every remaining call; tab (or 1-4) switches between the
unified diff, side by side, the old and the new text; arrows, pgup/pgdn and
home/end scroll; ? shows every key; q quits. Each decision is written
atomically as it is made; quitting leaves undecided calls pending.

Without a terminal (CI, pipes, scripts) it prints each pending diff followed
by the exact commands that decide it, and exits 1 while anything is pending.`,
		RunE: runE(o, runF, runReview),
	}
	addFilterFlags(c, &o.goldenOptions)
	c.Flags().BoolVar(&o.noTUI, "no-tui", false, "print the pending diffs and the commands that decide them, even on a terminal")
	c.Flags().BoolVar(&o.force, "force", false, "review interactively even when CI is set")
	return c
}

func runReview(o *reviewOptions) error {
	args := o.Args
	g, err := newGoldenRun(&o.goldenOptions, false)
	if err != nil {
		return err
	}
	g.o.maxLines = 200
	_, revs, err := g.pendingReviews(args)
	if err != nil {
		return err
	}
	if len(revs) == 0 {
		fmt.Fprintln(g.stdout, "no pending goldens")
		return nil
	}
	if o.noTUI || !cmdutil.IsInteractive(o.In, o.Out) {
		return g.printReviews(revs, args)
	}
	if err := refuseInCI(&o.goldenOptions, "review goldens"); err != nil {
		return err
	}
	return runReviewer(g, o, revs)
}

// printReviews is review without a terminal.
func (g *goldenRun) printReviews(revs []*callReview, args []string) error {
	w := g.stdout
	for i, r := range revs {
		fmt.Fprintf(w, "── %d/%d %s\n", i+1, len(revs), r.title())
		for _, l := range r.diffLines(g, 100) {
			fmt.Fprintln(w, l)
		}
		if r.call != "" {
			fmt.Fprintf(w, "  accept: %s\n", g.command("accept", []string{r.unit.log}, "--call", shellQuote(r.call)))
			fmt.Fprintf(w, "  reject: %s\n", g.command("reject", []string{r.unit.log}, "--call", shellQuote(r.call)))
		} else {
			fmt.Fprintf(w, "  accept: %s\n", g.command("accept", []string{r.unit.log}))
			fmt.Fprintf(w, "  reject: %s\n", g.command("reject", []string{r.unit.log}))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%d pending %s; all at once: %s  or  %s\n", len(revs), cmdutil.Plural(len(revs), "change", "changes"),
		g.command("accept", args, g.filterArgs()...), g.command("reject", args, g.filterArgs()...))
	return &cmdutil.ExitError{Code: cmdutil.ExitDivergence}
}

func (r *callReview) title() string {
	if r.call == "" {
		return r.unit.log + " · whole files: " + r.describe()
	}
	return fmt.Sprintf("%s · call %s (%s): %s", r.unit.log, r.call, r.tool, r.describe())
}

// diffLines is the golden-text diff of a review: the re-recorded fields,
// then the card text, then the views.
func (r *callReview) diffLines(g *goldenRun, limit int) []string {
	var out []string
	add := func(title, old, new string) {
		out = append(out, "  "+title)
		for _, l := range replay.TextDiff(old, new, limit) {
			out = append(out, "    "+l)
		}
	}
	for _, ch := range r.logChg {
		what := fmt.Sprintf("%s:%d call %s (%s): %s", r.unit.log, ch.line, ch.callID, ch.tool, ch.what())
		if ch.content {
			add(what+" · content", contentText(ch.oldContent), contentText(ch.newContent))
		}
		if ch.meta {
			add(what+" · meta", metaText(ch.oldMeta), metaText(ch.newMeta))
		}
	}
	if r.cardOld != r.cardNew {
		add("card ("+cardsTextExt+")", nlEnd(r.cardOld), nlEnd(r.cardNew))
	}
	if r.jsonOld != r.jsonNew {
		add("views ("+cardsJSONExt+")", nlEnd(r.jsonOld), nlEnd(r.jsonNew))
	}
	for _, kind := range r.whole {
		p := r.unit.files[kind]
		add(p, string(readOrEmpty(target(p))), string(readOrEmpty(p)))
	}
	return out
}

func nlEnd(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
