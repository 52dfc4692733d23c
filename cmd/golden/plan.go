package golden

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/dsh-replay/dsh-replay/internal/termquote"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/gctune"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// Planning: what update would write for one log, and what is on disk now.

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
	readErr  error  // the log could not be read or rewritten (exit 3)
	src      []byte // the log as the plan read it
}

// errLogChanged refuses a log that changed while it was planned or
// re-recorded: writing the plan would lose what changed (lines a live host
// appended, a decision another run made).
var errLogChanged = errors.New("the log changed while it was being re-recorded (a host still appending to it, or another golden run?): nothing written for it; run golden update again")

// unchanged fails when the log on disk is no longer what the plan read.
func (p *logPlan) unchanged() error {
	cur, err := logformat.ReadRegularFile(p.log)
	if err != nil {
		return err
	}
	if !bytes.Equal(cur, p.src) {
		return fmt.Errorf("%s: %w", termquote.QuoteName(p.log), errLogChanged)
	}
	return nil
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

// readLog reads a log whole; its error names the file quoted, as the
// reader's do (os's errors carry the name raw).
func readLog(path string) ([]byte, error) {
	b, err := logformat.ReadRegularFile(path)
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		return nil, fmt.Errorf("%s: %w", termquote.QuoteName(path), pe.Err)
	}
	return b, err
}

// plan computes the re-recorded log and card goldens of one log and reads
// what is on disk now.
func (g *goldenRun) plan(path string) *logPlan {
	p := &logPlan{log: path}
	before, err := readLog(path)
	if err != nil {
		p.readErr = err
		return p
	}
	collect := func(c *logformat.Call) error {
		root := g.selected(c.CallID)
		if root {
			g.reRecord(c, p)
		}
		for _, s := range c.SubCalls {
			if root || g.selected(s.CallID) {
				g.reRecord(s, p)
			}
		}
		return nil
	}
	opts := logformat.Options{NoSidecar: g.o.proj.NoSidecar, Reserve: gctune.Reserve}
	if g.reg != nil {
		opts.Release = g.reg.Config.Release
	}
	if _, err := logformat.ReadCalls(path, opts, collect); err != nil {
		p.readErr = err
		return p
	}
	old, err := readLog(path)
	if err != nil {
		p.readErr = err
		return p
	}
	if !bytes.Equal(before, old) {
		p.readErr = fmt.Errorf("%s: %w", termquote.QuoteName(path), errLogChanged)
		return p
	}
	before = nil
	p.src = old
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

// selected: update --call names the call, or names none.
func (g *goldenRun) selected(callID string) bool {
	return len(g.o.calls) == 0 || slices.Contains(g.o.calls, callID)
}

// checkCalls refuses an update --call naming a call none of the logs has,
// before anything is written.
func (g *goldenRun) checkCalls(paths []string) error {
	if len(g.o.calls) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var note func(c *logformat.Call)
	note = func(c *logformat.Call) {
		seen[c.CallID] = true
		for _, s := range c.SubCalls {
			note(s)
		}
	}
	for _, path := range paths {
		logformat.ReadCalls(path, logformat.Options{NoSidecar: true}, func(c *logformat.Call) error { note(c); return nil })
	}
	for _, id := range g.o.calls {
		if !seen[id] {
			return cmdutil.UsageErr("--call %q: no such call in %s", id, strings.Join(paths, ", "))
		}
	}
	return nil
}
