package golden

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/replay"
)

// diffOptions are the flags of `golden diff`.
type diffOptions struct{ goldenOptions }

func (o *diffOptions) Validate() error {
	if o.maxLines < 0 {
		return cmdutil.UsageErr("--max-lines must be >= 0")
	}
	return nil
}

// newCmdDiff is `golden diff`; runF, when set, runs instead (tests).
func newCmdDiff(fac *cmdutil.Factory, runF func(*diffOptions) error) *cobra.Command {
	o := &diffOptions{}
	o.proj.Limits = fac.PluginLimits
	c := &cobra.Command{
		Use:   "diff [PATH...]",
		Short: "Show the pending golden changes (.new files)",
		Long: `diff shows every pending change under PATH (default: the current directory):
for a log, each re-recorded call's content and meta; for card goldens, a line
diff. Whitespace is visible (␍ CR, ␉ tab, · trailing space, "(no newline at
end)") and each diff is capped at --max-lines with "… N more lines".
--tool and --call show only the matching calls.`,
		RunE: runE(o, runF, runDiff),
	}
	addFilterFlags(c, &o.goldenOptions)
	c.Flags().IntVar(&o.maxLines, "max-lines", 100, "cap each diff at `N` lines")
	return c
}

func runDiff(o *diffOptions) error {
	args := o.Args
	g, err := newGoldenRun(&o.goldenOptions, false)
	if err != nil {
		return err
	}
	units, err := g.pendingUnits(args)
	if err != nil {
		return err
	}
	w := g.stdout
	shown := 0
	for _, u := range units {
		if !g.matches(u) {
			continue
		}
		shown++
		fmt.Fprintf(w, "── %s\n", u.log)
		if p, ok := u.files[kindLog]; ok {
			var sel []callChange
			for _, ch := range u.changes {
				if g.callSelected(ch.callID, ch.tool) {
					sel = append(sel, ch)
				}
			}
			fmt.Fprintf(w, "%s: %d %s re-recorded\n", p, len(u.changes), cmdutil.Plural(len(u.changes), "call", "calls"))
			for i := range sel {
				g.writeCallChange(w, u.log, &sel[i])
			}
		}
		for _, kind := range []string{kindCardsText, kindCardsJSON} {
			p, ok := u.files[kind]
			if !ok {
				continue
			}
			old, new := readOrEmpty(target(p)), readOrEmpty(p)
			if !fileExists(target(p)) {
				fmt.Fprintf(w, "%s: new golden\n", p)
			} else {
				fmt.Fprintf(w, "%s\n", p)
			}
			a, b := string(old), string(new)
			if g.filtered() {
				a, b = g.selectCards(kind, old, new)
			}
			writeDiff(w, a, b, o.maxLines)
		}
		fmt.Fprintln(w)
	}
	if shown == 0 {
		fmt.Fprintln(w, "no pending goldens")
		return nil
	}
	fmt.Fprintf(w, "%d %s with pending goldens: %s  or  %s\n", shown, cmdutil.Plural(shown, "log", "logs"), g.command("accept", args, g.filterArgs()...), g.command("reject", args, g.filterArgs()...))
	return nil
}

// selectCards keeps only the selected calls' cards of both versions.
func (g *goldenRun) selectCards(kind string, old, new []byte) (string, string) {
	if kind == kindCardsJSON {
		pick := func(data []byte) string {
			var b strings.Builder
			for i, l := range bytes.Split(data, []byte{'\n'}) {
				if i == 0 || len(l) == 0 {
					continue
				}
				v, err := jsonv.Parse(l)
				if err == nil && g.callSelected(v.Get("callId").Str(), v.Get("tool").Str()) {
					b.Write(l)
					b.WriteByte('\n')
				}
			}
			return b.String()
		}
		return pick(old), pick(new)
	}
	ob, nb := splitCards(old), splitCards(new)
	if len(ob) != len(nb) && len(ob) > 0 {
		return string(old), string(new)
	}
	pick := func(bs []cardBlock) string {
		var parts []string
		for _, b := range bs {
			if g.callSelected(b.callID, b.tool) {
				parts = append(parts, b.text)
			}
		}
		return strings.Join(parts, "\n\n")
	}
	return pick(ob), pick(nb)
}

// writeCallChange prints what re-recording one call changes.
func (g *goldenRun) writeCallChange(w io.Writer, log string, ch *callChange) {
	sub := ""
	if ch.subCall {
		sub = " sub-call"
	}
	fmt.Fprintf(w, "  %s:%s call %s (%s): %s\n", log, itoa(ch.line)+sub, ch.callID, ch.tool, ch.what())
	if g.o.maxLines == 0 {
		return
	}
	if ch.content {
		a, b := contentText(ch.oldContent), contentText(ch.newContent)
		writeDiff(w, a, b, g.o.maxLines)
	}
	if ch.meta {
		writeDiff(w, metaText(ch.oldMeta), metaText(ch.newMeta), g.o.maxLines)
	}
}

func itoa(i int) string { return fmt.Sprint(i) }

// contentText is content as a diff shows it: the text of text-only blocks,
// else the blocks as indented JSON.
func contentText(v jsonv.Value) string {
	if v.IsArray() {
		var b strings.Builder
		ok := true
		for _, blk := range v.Elems() {
			if blk.Get("type").Str() != "text" || !blk.Get("text").IsString() {
				ok = false
				break
			}
			b.WriteString(blk.Get("text").Str())
		}
		if ok {
			return b.String()
		}
	}
	return metaText(v)
}

func metaText(v jsonv.Value) string {
	if v.IsUndefined() {
		return "(absent)"
	}
	return jsonv.StringifyIndent(v, "  ")
}

// writeDiff prints a capped line diff (- old, + new) with visible whitespace.
func writeDiff(w io.Writer, old, new string, limit int) {
	if limit <= 0 {
		return
	}
	for _, l := range replay.TextDiff(old, new, limit) {
		fmt.Fprintf(w, "    %s\n", l)
	}
}
