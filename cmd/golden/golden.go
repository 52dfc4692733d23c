// Package golden is `dsh-replay golden`: re-recording test logs from their
// values, card goldens, and the review of pending changes (per log or per
// call, on the command line or in the interactive reviewer).
package golden

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/report"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/logformat/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/replay"
)

// Golden kinds: what a golden file is.
const (
	kindLog       = "log"
	kindCardsText = cards.TextGolden
	kindCardsJSON = cards.JSONGolden
)

type goldenOptions struct {
	proj     cmdutil.ProjectorFlags
	out      string
	force    bool
	dryRun   bool
	review   bool
	noReview bool
	prune    bool
	maxLines int

	unreferenced string

	// review filters
	logs, tools, calls []string
	filter             logformat.PathFilter
}

// NewCmd is `dsh-replay golden`.
func NewCmd() *cobra.Command {
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
	c.AddCommand(newGoldenUpdateCmd(), newGoldenCheckCmd(), newGoldenDiffCmd(),
		newGoldenReviewCmd("accept"), newGoldenReviewCmd("reject"), newPendingCmd(), newReviewCmd())
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

func newGoldenCheckCmd() *cobra.Command {
	o := &goldenOptions{}
	c := &cobra.Command{
		Use:   "check PATH...",
		Short: "Compare logs and card goldens with the projectors without writing (exit 1 on drift)",
		Long: `check computes what update would write and compares: a log whose
content or meta would be re-recorded, a card golden that is missing or
differs, a stale card golden whose log is gone (only named after a complete
run over directories), a pending .new file or a temporary file left behind
are all drift (exit 1). Every failure prints the command that regenerates.`,
		Args: needPaths("check"),
		RunE: func(c *cobra.Command, args []string) error {
			return runGoldenCheck(c, o, args)
		},
	}
	addCommonFlags(c, o)
	c.Flags().IntVar(&o.maxLines, "max-lines", replay.DiffLimit, "cap each diff at `N` lines (0: no diffs)")
	c.Flags().StringVar(&o.unreferenced, "unreferenced", "warn", "card goldens whose log is gone, and cards of calls gone from their log: warn, fail or delete (not when CI is set)")
	return c
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

func newGoldenRun(c *cobra.Command, o *goldenOptions, needRegistry bool) (*goldenRun, error) {
	// A signal at any moment ends a golden run the same way: no temporary
	// file left, exit 130 or 143.
	logformat.HandleInterrupts()
	l, err := newLayout(o.out, o.proj)
	if err != nil {
		return nil, err
	}
	g := &goldenRun{layout: l, o: o, stdout: c.OutOrStdout(), stderr: c.ErrOrStderr()}
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

// callChange is one call whose content or meta update re-records.
type callChange struct {
	callID, tool string
	line         int
	subCall      bool
	content      bool
	oldContent   jsonv.Value
	newContent   jsonv.Value
	meta         bool
	oldMeta      jsonv.Value
	newMeta      jsonv.Value
}

func (c *callChange) what() string {
	var parts []string
	if c.content {
		parts = append(parts, "content")
	}
	if c.meta {
		switch {
		case c.newMeta.IsUndefined():
			parts = append(parts, "meta removed")
		case c.oldMeta.IsUndefined():
			parts = append(parts, "meta added")
		default:
			parts = append(parts, "meta")
		}
	}
	return strings.Join(parts, ", ")
}

// problem is a call whose fields cannot be re-recorded.
type problem struct {
	callID, tool string
	line         int
	fail         bool // a failure (exit 1); else a warning
	msg          string
}

// goldenFile is one golden a log owns: the log itself or a card golden.
type goldenFile struct {
	kind   string
	path   string // where it lives (under --out when set)
	want   []byte
	cards  *cards.Golden // card goldens: compared up to the header's version
	have   []byte
	exists bool
	same   bool
}

// logPlan is what update would do to one log.
type logPlan struct {
	log      string
	changes  []callChange
	problems []problem
	files    []*goldenFile
	readErr  error // the log could not be read or rewritten (exit 3)
}

// reRecord adds what re-recording one call changes, or why it cannot.
func (g *goldenRun) reRecord(c *logformat.Call, p *logPlan) {
	r, problems := g.eng.ReRecord(c)
	for _, pr := range problems {
		p.problems = append(p.problems, problem{callID: c.CallID, tool: c.Name, line: c.Line, fail: pr.Fail, msg: pr.Msg})
	}
	if r.SetContent || r.SetMeta {
		p.changes = append(p.changes, callChange{callID: c.CallID, tool: c.Name, line: c.Line, subCall: c.IsSubCall,
			content: r.SetContent, oldContent: c.Content, newContent: r.Content,
			meta: r.SetMeta, oldMeta: c.Meta, newMeta: r.Meta})
	}
}

// plan computes the re-recorded log and card goldens of one log and reads
// what is on disk now.
func (g *goldenRun) plan(path string) *logPlan {
	p := &logPlan{log: path}
	collect := func(c *logformat.Call) error {
		g.reRecord(c, p)
		for _, s := range c.SubCalls {
			g.reRecord(s, p)
		}
		return nil
	}
	if _, err := logformat.ReadCalls(path, logformat.Options{NoSidecar: g.o.proj.NoSidecar}, collect); err != nil {
		p.readErr = err
		return p
	}
	old, err := logformat.ReadRegularFile(path)
	if err != nil {
		p.readErr = err
		return p
	}
	edits := make([]logformat.Edit, len(p.changes))
	for i, ch := range p.changes {
		edits[i] = logformat.Edit{Line: ch.line, CallID: ch.callID, SubCall: ch.subCall, SetMeta: ch.meta, Meta: ch.newMeta}
		if ch.content {
			edits[i].Content = ch.newContent
		}
	}
	data, err := logformat.Rewrite(path, old, edits)
	if err != nil {
		p.readErr = err
		return p
	}
	// The log: in place, or a re-recorded copy under --out.
	lf := &goldenFile{kind: kindLog, path: g.place(path), want: data}
	if g.out == "" || len(p.changes) > 0 || fileExists(lf.path) {
		p.files = append(p.files, lf)
	}
	text, js, err := cards.Goldens(g.reg, path, data)
	if err != nil {
		p.readErr = fmt.Errorf("rendering the cards of the re-recorded log: %w", err)
		return p
	}
	base := g.place(cards.LogBase(path))
	p.files = append(p.files,
		&goldenFile{kind: kindCardsText, path: base + cardsTextExt, want: text.Bytes(cmdutil.VersionString()), cards: text},
		&goldenFile{kind: kindCardsJSON, path: base + cardsJSONExt, want: js.Bytes(cmdutil.VersionString()), cards: js})
	for _, f := range p.files {
		f.have, err = logformat.ReadRegularFile(f.path)
		f.exists = err == nil
		switch {
		case !f.exists && f.kind == kindLog:
			// Under --out without a copy yet: the copy is due only when the
			// log changes.
			f.have, f.same = old, len(p.changes) == 0
		case !f.exists:
		case f.cards != nil:
			f.same = f.cards.Matches(f.have)
		default:
			f.same = bytes.Equal(f.have, f.want)
		}
	}
	return p
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
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

// staleGoldens lists the card goldens (under the directories among args,
// or their --out mirrors) whose log no longer exists. complete is false when
// an argument is a file: the run then does not cover a whole tree.
func (g *goldenRun) staleGoldens(args, paths []string) (stale []string, complete bool) {
	complete = true
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			complete = false
			continue
		}
		root := g.place(a)
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			name := d.Name()
			var base string
			switch {
			case strings.HasSuffix(name, cardsTextExt):
				base = strings.TrimSuffix(p, cardsTextExt)
			case strings.HasSuffix(name, cardsJSONExt):
				base = strings.TrimSuffix(p, cardsJSONExt)
			default:
				return nil
			}
			if !g.logExists(base) {
				stale = append(stale, p)
			}
			return nil
		})
	}
	sort.Strings(stale)
	return stale, complete
}

var shellQuote = report.ShellQuote

// goldenRunOver prepares a golden run (with card goldens) over the logs the
// arguments name, refusing two logs that would share a golden.
func goldenRunOver(c *cobra.Command, o *goldenOptions, args []string) (*goldenRun, []string, error) {
	g, err := newGoldenRun(c, o, true)
	if err != nil {
		return nil, nil, err
	}
	paths, err := goldenPaths(args, o.filter, g.stderr)
	if err != nil {
		return nil, nil, err
	}
	if err := checkCollisions(paths); err != nil {
		return nil, nil, &cmdutil.ExitError{Code: cmdutil.ExitCannot, Err: err}
	}
	return g, paths, nil
}

func runGoldenCheck(c *cobra.Command, o *goldenOptions, args []string) error {
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
	unref := 0
	// unreferenced applies the policy to one golden (or its calls' cards).
	unreferenced := func(what string, del func() error) {
		unref++
		switch o.unreferenced {
		case "delete":
			if err := del(); err != nil {
				fmt.Fprintf(g.stderr, "dsh-replay: %v\n", err)
				worse(cmdutil.ExitCannot)
				return
			}
			fmt.Fprintf(g.stdout, "DELETED %s\n", logformat.QuoteName(what))
		case "fail":
			fmt.Fprintf(g.stdout, "UNREFERENCED %s\n", what)
			worse(cmdutil.ExitDivergence)
		default:
			fmt.Fprintf(g.stdout, "UNREFERENCED %s (warning; --unreferenced=fail makes it fail, =delete removes it)\n", what)
		}
	}
	var drifted []string
	out := g.stdout
	for _, path := range paths {
		p := g.plan(path)
		if p.readErr != nil {
			fmt.Fprintf(g.stderr, "dsh-replay: %v\n", p.readErr)
			worse(cmdutil.ExitCannot)
			continue
		}
		for _, f := range p.files {
			if f.cards == nil || !f.exists {
				continue
			}
			have, want := parseSegs(f.kind, f.have, true), parseSegs(f.kind, f.want, true)
			if !have.ok || !want.ok {
				continue
			}
			var gone []string
			for _, k := range have.keys {
				if !has(want, k) {
					gone = append(gone, k)
				}
			}
			if len(gone) == 0 {
				continue
			}
			f := f
			unreferenced(fmt.Sprintf("%s: the cards of %s %s, gone from the log", f.path, cmdutil.Plural(len(gone), "call", "calls"), strings.Join(gone, ", ")), func() error {
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
				if err := logformat.WriteFileAtomic(f.path, data, 0o644); err != nil {
					return err
				}
				f.have = data
				f.same = f.cards.Matches(data)
				return nil
			})
		}
		bad := false
		for _, pr := range p.problems {
			if pr.fail {
				// update cannot fix these: the value or the projector must change.
				fmt.Fprintf(out, "FAIL %s: call %s (%s): %s\n", cmdutil.Where(path, pr.line), pr.callID, pr.tool, pr.msg)
				worse(cmdutil.ExitDivergence)
			}
		}
		for _, f := range p.files {
			if f.same {
				continue
			}
			bad = true
			switch {
			case f.kind == kindLog:
				fmt.Fprintf(out, "DRIFT %s: %d %s would be re-recorded\n", logformat.QuoteName(f.path), len(p.changes), cmdutil.Plural(len(p.changes), "call", "calls"))
				for i := range p.changes {
					g.writeCallChange(out, path, &p.changes[i])
				}
			case !f.exists:
				fmt.Fprintf(out, "MISSING %s: no card golden\n", logformat.QuoteName(f.path))
			case cards.ParseHeader(f.kind, f.have).Format != cards.GoldenFormat:
				h := cards.ParseHeader(f.kind, f.have)
				if h.OK {
					fmt.Fprintf(out, "DRIFT %s: golden format %d, this dsh-replay writes format %d\n", logformat.QuoteName(f.path), h.Format, cards.GoldenFormat)
				} else {
					fmt.Fprintf(out, "DRIFT %s: not a card golden (no header)\n", logformat.QuoteName(f.path))
				}
			default:
				fmt.Fprintf(out, "DRIFT %s: the cards differ\n", logformat.QuoteName(f.path))
				// The version in the header is not compared: keep it out of the diff.
				want := f.cards.Header(cards.ParseHeader(f.kind, f.have).Version) + string(f.cards.Body)
				writeDiff(out, string(f.have), want, o.maxLines)
			}
		}
		if bad {
			drifted = append(drifted, path)
			worse(cmdutil.ExitDivergence)
		}
	}
	// Pending and temporary files left behind, then stale goldens.
	left := g.leftovers(args, paths)
	for _, l := range left {
		if strings.HasPrefix(filepath.Base(l), logformat.TempPrefix) {
			fmt.Fprintf(out, "LEFTOVER %s: a temporary file of an interrupted write (golden update removes it)\n", logformat.QuoteName(l))
		} else {
			fmt.Fprintf(out, "PENDING %s: review it (%s), then accept or reject it\n", logformat.QuoteName(l), g.command("diff", nil))
		}
		worse(cmdutil.ExitDivergence)
	}
	stale, complete := g.staleGoldens(args, paths)
	for _, s := range stale {
		s := s
		unreferenced(s+": its log is gone", func() error { return os.Remove(s) })
	}
	if len(drifted) > 0 {
		regen := drifted
		if len(drifted) > 5 && len(drifted) == len(paths) {
			regen = args
		}
		fmt.Fprintf(out, "to regenerate: %s\n", g.command("update", regen))
	}
	if len(stale) > 0 && o.unreferenced != "delete" {
		fmt.Fprintf(out, "to delete unreferenced goldens: %s\n", g.command("check", args, "--unreferenced=delete"))
	}
	if len(left) > 0 {
		fmt.Fprintf(out, "to settle pending files: %s  (or %s)\n", g.command("accept", nil), g.command("reject", nil))
	}
	status := "ok"
	if code != cmdutil.ExitOK {
		status = "FAILED"
	}
	fmt.Fprintf(out, "golden check: %s: %d %s, %d drifted, %d unreferenced, %d pending\n", status, len(paths), cmdutil.Plural(len(paths), "log", "logs"), len(drifted), unref, len(left))
	if !complete {
		fmt.Fprintln(out, "stale goldens not looked for under file arguments: only directories are complete runs")
	}
	if code != cmdutil.ExitOK {
		return &cmdutil.ExitError{Code: code}
	}
	return nil
}

// leftovers lists pending .new files and temporary files of interrupted
// writes that belong to the logs and directories of a run.
func (g *goldenRun) leftovers(args, paths []string) []string {
	set := map[string]bool{}
	isOurs := func(name string) bool {
		if strings.HasPrefix(name, logformat.TempPrefix) {
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
				if strings.HasPrefix(n, logformat.TempPrefix) && strings.Contains(n, filepath.Base(base)) {
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
