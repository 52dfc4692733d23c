package golden

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/atomicwrite"
	"github.com/dsh-replay/dsh-replay/internal/gctune"
	"github.com/dsh-replay/dsh-replay/internal/termquote"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// Streaming update: what update holds of one log is bounded by a call, not
// by the log. The re-recorded fields go to a spool file as the reader
// delivers the calls; the log is then streamed through the rewriter into
// the temporary file of its write (the edits read back from the spool in
// line order), and the card goldens are rendered from that file into
// theirs, card by card, each compared on the fly with what is on disk. Of
// the log only its size, modification time and a hash of what was read are
// kept, and checked again before the rename. (golden check keeps the
// in-memory plan: it prints every change.)

// shownChanges is how many re-recorded calls an update line names.
const shownChanges = 5

// streamPlan is what update does to one log.
type streamPlan struct {
	log      string
	n        int      // calls re-recorded
	shown    []string // the first shownChanges of them, described
	problems []problem
	files    []*streamFile
	readErr  error // the log could not be read or rewritten (exit 3)

	st    fs.FileInfo // the log when planned
	src   *os.File
	sum   [sha256.Size]byte // of the log's bytes, as the rewrite read them
	spool *editSpool
	// out holds the re-recorded log (the log's temporary file, or a
	// scratch file in a dry run); nil when nothing was re-recorded.
	out sink
}

// streamFile is one golden of a streamed plan.
type streamFile struct {
	kind   string
	path   string
	exists bool
	same   bool   // known to need no write (cards: decided when rendered)
	head   []byte // the first line on disk (card goldens)
	// removed are temporary files of killed writes swept when the plan
	// made its own (reported with the write).
	removed []string
	// writeErr: the write of the re-recorded log failed while the plan
	// made it (reported, and counted, as a write that did not land).
	writeErr error
	target   string
}

// sink is where re-recorded content goes: a write's temporary file, or a
// scratch file a dry run reads back.
type sink interface {
	io.Writer
	Reader() (io.Reader, error)
	Commit(check func() error) error
	Discard()
}

// scratch is a sink in the temporary directory that is never committed.
type scratch struct {
	f *os.File
	w *bufio.Writer
	n int64
}

func newScratch() (*scratch, error) {
	f, err := os.CreateTemp("", "dsh-replay-golden-*")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name()) // unlinked: nothing to clean up, however the run ends (unix)
	return &scratch{f: f, w: bufio.NewWriterSize(f, 256<<10)}, nil
}

func (s *scratch) Write(b []byte) (int, error) {
	n, err := s.w.Write(b)
	s.n += int64(n)
	return n, err
}

func (s *scratch) Reader() (io.Reader, error) {
	if err := s.w.Flush(); err != nil {
		return nil, err
	}
	return io.NewSectionReader(s.f, 0, s.n), nil
}

func (s *scratch) Commit(func() error) error { return nil }

func (s *scratch) Discard() {
	name := s.f.Name()
	s.f.Close()
	os.Remove(name)
}

// editSpool holds the edits of one log in a scratch file, indexed by line.
type editSpool struct {
	f   *os.File
	w   *bufio.Writer
	off int64
	idx []spoolRef
	buf []byte
}

// spoolRef places one spooled edit: 16 bytes a re-recorded call.
type spoolRef struct {
	off  int64
	line uint32
	n    uint32
}

func newEditSpool() (*editSpool, error) {
	f, err := os.CreateTemp("", "dsh-replay-edits-*")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	return &editSpool{f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// add spools one edit: its fields as one JSON object.
func (s *editSpool) add(e logformat.Edit) error {
	ms := []jsonv.Member{jsonv.M("id", jsonv.Str(e.CallID)), jsonv.M("sub", jsonv.BoolValue(e.SubCall)), jsonv.M("setMeta", jsonv.BoolValue(e.SetMeta))}
	if e.Content.IsDefined() {
		ms = append(ms, jsonv.M("content", e.Content))
	}
	if e.Meta.IsDefined() {
		ms = append(ms, jsonv.M("meta", e.Meta))
	}
	text := jsonv.Stringify(jsonv.Obj(ms...))
	if e.Line < 0 || int64(e.Line) > math.MaxUint32 || int64(len(text)) > math.MaxUint32 {
		return fmt.Errorf("line %d: a re-recorded call too large to spool", e.Line)
	}
	if _, err := s.w.WriteString(text); err != nil {
		return err
	}
	s.idx = append(s.idx, spoolRef{line: uint32(e.Line), off: s.off, n: uint32(len(text))})
	s.off += int64(len(text))
	return nil
}

// edits returns what hands out the spooled edits in line order.
func (s *editSpool) edits() (func() (logformat.Edit, bool, error), error) {
	if err := s.w.Flush(); err != nil {
		return nil, err
	}
	sort.SliceStable(s.idx, func(i, j int) bool { return s.idx[i].line < s.idx[j].line })
	i := 0
	return func() (logformat.Edit, bool, error) {
		if i == len(s.idx) {
			return logformat.Edit{}, false, nil
		}
		r := s.idx[i]
		i++
		s.buf = slices.Grow(s.buf[:0], int(r.n))[:r.n]
		if _, err := s.f.ReadAt(s.buf, r.off); err != nil {
			return logformat.Edit{}, false, fmt.Errorf("reading back the re-recorded fields: %w", err)
		}
		v, err := jsonv.Parse(s.buf)
		if err != nil {
			return logformat.Edit{}, false, fmt.Errorf("reading back the re-recorded fields: %w", err)
		}
		return logformat.Edit{Line: int(r.line), CallID: v.Get("id").Str(), SubCall: v.Get("sub").Bool(),
			SetMeta: v.Get("setMeta").Bool(), Content: v.Get("content"), Meta: v.Get("meta")}, true, nil
	}, nil
}

func (s *editSpool) close() {
	name := s.f.Name()
	s.f.Close()
	os.Remove(name)
}

// close releases what the plan holds open (an uncommitted write is
// abandoned).
func (p *streamPlan) close() {
	if p.out != nil {
		p.out.Discard()
	}
	if p.spool != nil {
		p.spool.close()
	}
	if p.src != nil {
		p.src.Close()
	}
}

// unchanged fails when the log on disk is no longer what the plan read:
// its size, modification time or identity differ, or its bytes hash to
// something else.
func (p *streamPlan) unchanged() error {
	changed := fmt.Errorf("%s: %w", termquote.QuoteName(p.log), errLogChanged)
	f, st, err := logformat.OpenRegularFile(p.log)
	if err != nil {
		return err
	}
	defer f.Close()
	if !sameFile(st, p.st) {
		return changed
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	if !bytes.Equal(h.Sum(nil), p.sum[:]) {
		return changed
	}
	return nil
}

// sameFile: a and b are one file, unchanged as far as its metadata says.
func sameFile(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// reRecordStream spools what re-recording one call changes, or notes why
// it cannot.
func (g *goldenRun) reRecordStream(c *logformat.Call, p *streamPlan) error {
	r, problems := g.eng.ReRecord(c)
	for _, pr := range problems {
		p.problems = append(p.problems, problem{callID: c.CallID, tool: c.Name, line: c.Line, fail: pr.Fail, msg: pr.Msg})
	}
	if !r.SetContent && !r.SetMeta {
		return nil
	}
	ch := callChange{callID: c.CallID, content: r.SetContent, meta: r.SetMeta, oldMeta: c.Meta, newMeta: r.Meta}
	if len(p.shown) < shownChanges {
		p.shown = append(p.shown, fmt.Sprintf("%s %s", ch.callID, ch.what()))
	}
	p.n++
	e := logformat.Edit{Line: c.Line, CallID: c.CallID, SubCall: c.IsSubCall, SetMeta: r.SetMeta, Meta: r.Meta}
	if r.SetContent {
		e.Content = r.Content
	}
	return p.spool.add(e)
}

// streamPlan reads one log once for its calls and once more through the
// rewriter, into the log's temporary file (mode m: the pending copy under
// review, a scratch file in a dry run).
func (u *updateRun) streamPlan(path string) *streamPlan {
	g := u.goldenRun
	p := &streamPlan{log: path}
	st, err := os.Stat(path)
	if err != nil {
		_, err = readLog(path) // its error, as the in-memory plan words it
		if err == nil {
			err = fmt.Errorf("%s: %w", termquote.QuoteName(path), errLogChanged)
		}
		p.readErr = err
		return p
	}
	p.st = st
	if p.spool, err = newEditSpool(); err != nil {
		p.readErr = err
		return p
	}
	collect := func(c *logformat.Call) error {
		root := g.selected(c.CallID)
		if root {
			if err := g.reRecordStream(c, p); err != nil {
				return err
			}
		}
		for _, s := range c.SubCalls {
			if root || g.selected(s.CallID) {
				if err := g.reRecordStream(s, p); err != nil {
					return err
				}
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
	src, sst, err := logformat.OpenRegularFile(path)
	if err != nil {
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			err = fmt.Errorf("%s: %w", termquote.QuoteName(path), pe.Err)
		}
		p.readErr = err
		return p
	}
	p.src = src
	if !sameFile(sst, st) {
		p.readErr = fmt.Errorf("%s: %w", termquote.QuoteName(path), errLogChanged)
		return p
	}

	// The log: in place, or a re-recorded copy under --out.
	lf := &streamFile{kind: kindLog, path: g.place(path)}
	lst, lerr := os.Stat(lf.path)
	lf.exists = lerr == nil
	if g.out == "" || p.n > 0 || lf.exists {
		p.files = append(p.files, lf)
	}
	// In place, the log changes exactly when a call is re-recorded; a copy
	// under --out is compared with the new bytes as they are written.
	compare := g.out != "" && lf.exists && !os.SameFile(lst, st)
	lf.same = p.n == 0 && !compare
	if g.out != "" && !lf.exists {
		lf.same = p.n == 0
	}
	needBytes := p.n > 0 || compare
	if needBytes {
		if err := u.rewriteLog(p, lf, compare); err != nil && lf.writeErr == nil {
			p.readErr = err
			return p
		}
	}

	base := g.place(cards.LogBase(path))
	for _, c := range []struct{ kind, ext string }{{kindCardsText, cardsTextExt}, {kindCardsJSON, cardsJSONExt}} {
		f := &streamFile{kind: c.kind, path: base + c.ext}
		f.head, f.exists = firstLine(f.path)
		p.files = append(p.files, f)
	}
	return p
}

// rewriteLog streams the re-recorded log into its write (or a scratch
// file), hashing what it reads; with compare, lf.same says whether the
// copy on disk already holds those bytes.
func (u *updateRun) rewriteLog(p *streamPlan, lf *streamFile, compare bool) (err error) {
	var out sink
	failed := func(err error) error {
		lf.writeErr = err
		return err
	}
	if u.mode == modeDry {
		if out, err = newScratch(); err != nil {
			return err
		}
	} else {
		lf.target = lf.path
		if u.mode == modeReview {
			lf.target += pendingExt
		} else if err := os.MkdirAll(filepath.Dir(lf.path), 0o755); err != nil {
			return failed(err)
		}
		lf.removed = append(atomicwrite.RemoveStaleTemps(lf.path), atomicwrite.RemoveStaleTemps(lf.path+pendingExt)...)
		t, err := atomicwrite.Create(lf.target, 0o644)
		if err != nil {
			return failed(err)
		}
		out = t
	}
	p.out = out
	ew := &errWriter{w: out}
	var w io.Writer = ew
	var cmp *sameAs
	if compare {
		f, _, err := logformat.OpenRegularFile(lf.path)
		if err != nil {
			return err
		}
		defer f.Close()
		cmp = newSameAs(f)
		w = io.MultiWriter(out, cmp)
	}
	next, err := p.spool.edits()
	if err != nil {
		return err
	}
	h := sha256.New()
	r := io.TeeReader(io.LimitReader(p.src, p.st.Size()), h)
	if err := logformat.RewriteStream(p.log, r, w, next); err != nil {
		if ew.err != nil {
			return failed(ew.err)
		}
		return err
	}
	// What the rewrite did not need to read is hashed too.
	if _, err := io.Copy(io.Discard, r); err != nil {
		return err
	}
	copy(p.sum[:], h.Sum(nil))
	if cmp != nil {
		lf.same = cmp.done()
	}
	return nil
}

// errWriter keeps the first error of the writes it passes on.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	n, err := e.w.Write(b)
	if err != nil && e.err == nil {
		e.err = err
	}
	return n, err
}

// firstLine reads the first line of a golden (at most 64 KiB: a header is
// short); exists is false when it cannot be read.
func firstLine(path string) (head []byte, exists bool) {
	f, _, err := logformat.OpenRegularFile(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b := make([]byte, 64<<10)
	n, err := io.ReadFull(f, b)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, false
	}
	b = b[:n]
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i+1]
	}
	return b, true
}

// sameAs compares what is written to it with a reader's bytes.
type sameAs struct {
	r    *bufio.Reader
	buf  []byte
	same bool
}

func newSameAs(r io.Reader) *sameAs {
	return &sameAs{r: bufio.NewReaderSize(r, 64<<10), same: true}
}

func (s *sameAs) Write(b []byte) (int, error) {
	n := len(b)
	for s.same && len(b) > 0 {
		k := min(len(b), 64<<10)
		s.buf = slices.Grow(s.buf[:0], k)[:k]
		if _, err := io.ReadFull(s.r, s.buf); err != nil || !bytes.Equal(s.buf, b[:k]) {
			s.same = false
		}
		b = b[k:]
	}
	return n, nil
}

// done: everything written matched, and the reader has nothing more.
func (s *sameAs) done() bool {
	if !s.same {
		return false
	}
	_, err := s.r.ReadByte()
	return err == io.EOF
}

// cardSource is the re-recorded log for rendering the card goldens.
func (p *streamPlan) cardSource() (io.Reader, error) {
	if p.out != nil {
		return p.out.Reader()
	}
	return io.NewSectionReader(p.src, 0, p.st.Size()), nil
}

// renderCards renders the card golden f into its write (nil in a dry run)
// and says whether the golden on disk already holds it (up to the version
// its header names).
func (u *updateRun) renderCards(p *streamPlan, f *streamFile, out io.Writer) (same bool, err error) {
	g := &cards.Golden{Kind: f.kind, Log: filepath.Base(p.log)}
	var cmp *sameAs
	h := cards.ParseHeader(f.kind, f.head)
	if f.exists && h.OK && h.Format == cards.GoldenFormat {
		cf, _, err := logformat.OpenRegularFile(f.path)
		if err == nil {
			defer cf.Close()
			cmp = newSameAs(cf)
			io.WriteString(cmp, g.Header(h.Version))
		}
	}
	var body []io.Writer
	if out != nil {
		if _, err := io.WriteString(out, g.Header(cmdutil.VersionString())); err != nil {
			return false, err
		}
		body = append(body, out)
	}
	if cmp != nil {
		body = append(body, cmp)
	}
	src, err := p.cardSource()
	if err != nil {
		return false, err
	}
	if err := cards.WriteBody(u.reg, g.Log, src, f.kind, io.MultiWriter(body...)); err != nil {
		return false, fmt.Errorf("rendering the cards of the re-recorded log: %w", err)
	}
	return cmp != nil && cmp.done(), nil
}
