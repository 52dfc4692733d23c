package logformat

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/dsh-replay/dsh-replay/internal/jobs"
	"github.com/dsh-replay/dsh-replay/jsonv"
)

// DefaultMaxRecordBytes bounds one physical line. Upstream has no limit of
// its own, but a record this large is hostile input, and refusing it keeps
// memory bounded.
const DefaultMaxRecordBytes = 64 << 20

// Options tune reading.
type Options struct {
	// NoSidecar disables loading <base>.values.jsonl next to the log.
	NoSidecar bool
	// Jobs is the number of decoding workers (0: GOMAXPROCS).
	Jobs int
	// MaxRecordBytes bounds one line (0: DefaultMaxRecordBytes).
	MaxRecordBytes int
	// NoViewPrepass skips the first pass over a file that finds the pruned
	// replacement copies of results. Without it a copy that comes after its
	// call was delivered is reported as a "late-view" notice instead of
	// being attached to the call (always the case for stdin).
	NoViewPrepass bool
	// DecodeValues decodes every result value while reading (in the
	// decoding workers), for consumers that look at all of them; otherwise a
	// value is only checked and decoded on first use.
	DecodeValues bool
	// ShapesOnly keeps only the kind of each result's value, meta and
	// content (an empty value of it), for consumers that count calls and
	// never read what they carry (calls --summary); it wins over
	// DecodeValues.
	ShapesOnly bool
	// OnNotice, when set, receives every notice as it is found (the Summary
	// keeps at most MaxNoticesPerKind of each kind).
	OnNotice func(Notice)
	// HeaderOnly stops after the first line (see Classify).
	HeaderOnly bool
	// Release, when set, is every call's Release (--config pins it);
	// otherwise a call's Release is the one its log's format implies.
	Release string
	// Reserve, when set, makes room beside the soft memory limit for
	// memory that stays live by design (a large zstd window's history:
	// under a limit below the live heap the collector runs back to back)
	// and returns the func that gives it back, or nil. How memory is
	// managed is the command's decision: cmd passes internal/gctune.Reserve.
	Reserve func(n int64) (release func())
}

// MaxNoticesPerKind bounds the notices a Summary keeps of one kind.
const MaxNoticesPerKind = 100

func (o Options) maxLine() int {
	if o.MaxRecordBytes > 0 {
		return o.MaxRecordBytes
	}
	return DefaultMaxRecordBytes
}

func (o Options) jobs() int { return jobs.Count(o.Jobs) }

// ReadCalls streams the calls of one log (a path, or "-" for stdin) to fn in
// log order (order of first appearance). A sub-call is delivered inside its
// root call's SubCalls, not on its own. Reading never stops at the first
// problem it can survive: those become Notices in the Summary. A fatal
// problem is returned as *Error (the Summary then covers what was read);
// an error returned by fn stops reading and is returned as is.
func ReadCalls(path string, opts Options, fn func(*Call) error) (*Summary, error) {
	if path == "-" {
		return ReadCallsFrom("-", os.Stdin, opts, fn)
	}
	if data, ok := readSmallFile(path, smallFileBytes, nil); ok {
		return readCallsBytes(path, data, opts, fn)
	}
	f, st, err := openRegular(path, "")
	if err != nil {
		if st != nil && st.IsDir() {
			err = dirError(path)
		}
		return &Summary{File: path}, err
	}
	defer f.Close()
	rd := newReader(path, opts, fn)
	if !opts.NoSidecar {
		side, err := openSidecar(path, opts.maxLine(), rd.notice)
		if err != nil {
			return &rd.sum, err
		}
		rd.side = side
		defer side.close()
	}
	if !opts.NoViewPrepass && st.Mode().IsRegular() {
		// The prepass reads the same open file by offset: no second open.
		views, err := scanReplacementsIn(path, f, st.Size(), opts.maxLine(), opts.Reserve)
		if err == nil {
			rd.views = views
		}
	}
	err = rd.run(f, st.Size())
	return &rd.sum, err
}

// smallFileBytes is the size up to which a regular file is read whole, in
// one read, and its lines decoded in place: for a small log, opening and
// reading it are most of the work, so it is done once.
var smallFileBytes int64 = 256 << 10

// ReadSmallFile reads a regular file of at most SmallLogBytes whole, in one
// read; ok is false (and nothing is read) for any other path.
func ReadSmallFile(path string) (data []byte, ok bool) {
	return ReadSmallFileInto(path, nil)
}

// ReadSmallFileInto is ReadSmallFile reading into buf when it has room (a
// larger buffer is allocated when it has not). The calls and summary read
// from data hold copies, never views of it, so a reader may hand the same
// buffer to the next file once it is done with one (TestReadCallsBytesHoldsNoView).
func ReadSmallFileInto(path string, buf []byte) (data []byte, ok bool) {
	if path == "-" {
		return nil, false
	}
	return readSmallFile(path, smallFileBytes, buf)
}

// ReadCallsBytes is ReadCalls for a log already read whole: data is the
// file's bytes, path names it (and its sidecar, which is read unless
// opts.NoSidecar says not to).
func ReadCallsBytes(path string, data []byte, opts Options, fn func(*Call) error) (*Summary, error) {
	return readCallsBytes(path, data, opts, fn)
}

// SmallLogBytes is the size up to which ReadSmallFile reads a log.
func SmallLogBytes() int64 { return smallFileBytes }

// readCallsBytes is ReadCalls for a log read whole.
func readCallsBytes(path string, data []byte, opts Options, fn func(*Call) error) (*Summary, error) {
	rd := newReader(path, opts, fn)
	if !opts.NoSidecar {
		side, err := openSidecar(path, opts.maxLine(), rd.notice)
		if err != nil {
			return &rd.sum, err
		}
		rd.side = side
		defer side.close()
	}
	if !opts.NoViewPrepass {
		views, err := scanReplacementsBytes(path, data, opts.maxLine(), opts.Reserve)
		if err == nil {
			rd.views = views
		}
	}
	err := rd.runBytes(data)
	return &rd.sum, err
}

// ReadCallsFrom is ReadCalls over an open stream; name is used in provenance
// and messages. No sidecar is read and no prepass is made.
func ReadCallsFrom(name string, r io.Reader, opts Options, fn func(*Call) error) (*Summary, error) {
	rd := newReader(name, opts, fn)
	size := int64(-1)
	if l, ok := r.(interface{ Len() int }); ok {
		size = int64(l.Len()) // an in-memory reader: size the buffers to it
	}
	err := rd.run(r, size)
	return &rd.sum, err
}

// dirError is the error of reading a directory as a log: unreadable when
// it cannot be listed (a walk reports such a directory among the logs).
func dirError(path string) error {
	d, err := os.Open(path)
	if err == nil {
		_, err = d.Readdirnames(1)
		d.Close()
		if err == nil || err == io.EOF {
			return &Error{File: path, Msg: "is a directory (use ExpandPaths)"}
		}
	}
	return &Error{File: path, Kind: Unreadable, Msg: "cannot read directory: " + openMsg(err)}
}

func openMsg(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "no such file or directory"
	}
	if errors.Is(err, fs.ErrPermission) {
		return "permission denied"
	}
	return err.Error()
}

func asSourceError(err error, se **sourceError) bool { return errors.As(err, se) }

// reader is the state of reading one log.
type reader struct {
	file string
	host string // the host the latest request header names
	// version is the log's format version (formatAny for a wrapped event
	// stream); release is the DSH release calls are checked against.
	version int
	release string
	// isSeeded is the format 2+ header's flag; inheritedSeed is set by a
	// session/end-seed {inherited: true}: the two must agree.
	isSeeded, inheritedSeed bool
	// streamFormat is the newest format a wrapped event stream's events
	// show (streamEvidence); streamMigrated: its system head is one
	// upstream's v2→v3 migration made.
	streamFormat   int
	streamMigrated bool
	team           bool           // a request header showed a Team member (Call.Team)
	reqHeader      *RequestHeader // the newest request header (Call.Request)
	opts           Options
	fn             func(*Call) error
	sum            Summary

	format    lineFormat
	projected bool // body records lack seq/time: filled in as upstream's replay parser does
	decided   bool // projected decided by the first event record
	count     int64
	committed int64
	turnEnded bool // a good record ended a turn
	issue     *issue
	noticeN   map[string]int

	// pairing
	calls   map[string]*Call // undelivered top-level calls by call id
	subs    map[string]*Call // undelivered sub-calls by sub-call id
	queue   []*Call          // undelivered top-level calls in order of first appearance
	head    int
	final   map[*Call]bool  // calls that can get nothing more (turn over or EOF)
	views   map[string]int  // expected replacement copies per call id (prepass), nil if unknown
	done    map[string]bool // delivered call ids that still expect views (late copies)
	side    *sidecar
	stopErr error // error from fn

	// chunkCalls are call ids streamed as tool-call chunks that no
	// assistant/message, tool/call or tool/result has named yet (first line).
	chunkCalls map[string]int

	batchBytes int // plaintext per batch
}

type issue struct {
	line int
	msg  string
}

func newReader(file string, opts Options, fn func(*Call) error) *reader {
	return &reader{
		file: file, opts: opts, fn: fn,
		sum:     Summary{File: file},
		noticeN: map[string]int{},
		calls:   map[string]*Call{},
		subs:    map[string]*Call{},
		final:   map[*Call]bool{},
	}
}

func (rd *reader) notice(n Notice) {
	if n.File == "" {
		n.File = rd.file
	}
	if rd.opts.OnNotice != nil {
		rd.opts.OnNotice(n)
	}
	if rd.noticeN[n.Kind] >= MaxNoticesPerKind {
		rd.sum.NoticesDropped++
		return
	}
	rd.noticeN[n.Kind]++
	rd.sum.Notices = append(rd.sum.Notices, n)
}

func (rd *reader) errorf(line int, format string, args ...any) *Error {
	return &Error{File: rd.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// run reads the whole stream.
func (rd *reader) run(in io.Reader, size int64) error {
	br := bufio.NewReaderSize(in, peekBufSize(size))
	magic, _ := br.Peek(4)
	var src io.Reader = br
	var zs *zstdSource
	if isZstdMagic(magic) {
		var err error
		zs, err = newZstdSource(br, rd.opts.Reserve)
		if err != nil {
			return rd.errorf(0, "zstd: %v", err)
		}
		defer zs.Close()
		src = zs
		rd.sum.Format = "zstd "
	}
	// The first buffer only serves line 1; batches bring their own.
	ls := newLineSource(src, zs, min(readBufSize(size, zs != nil), 64<<10), rd.opts.maxLine())
	rd.batchBytes = min(readBufSize(size, zs != nil), 512<<10)
	return rd.runLines(ls, zs, size)
}

// runBytes reads a log held whole in memory: its lines are decoded where
// they lie, in this goroutine.
func (rd *reader) runBytes(data []byte) error {
	if isZstdMagic(data[:min(4, len(data))]) || len(data) > rd.opts.maxLine() {
		return rd.run(bytes.NewReader(data), int64(len(data)))
	}
	rd.batchBytes = len(data) + 1
	return rd.runLines(newBytesSource(data, rd.opts.maxLine()), nil, int64(len(data)))
}

// runLines reads the header and then every record of ls.
func (rd *reader) runLines(ls *lineSource, zs *zstdSource, size int64) error {
	// Line 1: the header, or the first line of a wrapped event stream.
	first, end, err := ls.next()
	if err != nil {
		if err == io.EOF {
			if len(ls.Fragment()) == 0 {
				return rd.errorf(0, "empty file: not a session log")
			}
			return rd.errorf(1, "empty or header-less session log (the first line has no newline)")
		}
		return rd.sourceErr(err)
	}
	if err := rd.header(first); err != nil {
		return err
	}
	if rd.opts.HeaderOnly {
		return nil
	}
	rd.sum.Format += rd.format.String()
	rd.committed = end
	if rd.format != fmtLog {
		var rec record
		decodeLine(rd.format, rd.opts.decodeMode(), first, &rec)
		if err := rd.apply(&rec, 1, end); err != nil {
			return err
		}
	}

	if size >= 0 && size < int64(rd.batchBytes) {
		// One batch holds the whole log: decoding it in this goroutine
		// beats starting the pipeline's for a small file.
		err = rd.sequential(ls)
	} else {
		err = rd.pipeline(ls)
	}
	if err == nil && rd.stopErr == nil {
		err = rd.finish(ls, zs)
	}
	if rd.stopErr != nil {
		return rd.stopErr
	}
	return err
}

func (rd *reader) sourceErr(err error) error {
	var se *sourceError
	if errors.As(err, &se) {
		e := rd.errorf(se.Line, "%v", se.Err)
		var zw *zstdWindowError
		if errors.As(se.Err, &zw) {
			e.Kind = ZstdWindowTooLarge
		}
		return e
	}
	return rd.errorf(0, "%v", err)
}

// header checks line 1 (upstream parseHeaderRecord, leniently: only the
// session tag and the format version are required) or recognizes a wrapped
// event stream.
func (rd *reader) header(line []byte) error {
	v, n, err := jsonv.ParsePrefixStrict(line)
	if err == nil && strings.TrimLeft(string(line[n:]), " \t\r\n") != "" {
		err = errors.New("unexpected data after JSON value")
	}
	if err != nil {
		var se *jsonv.SyntaxError
		if errors.As(err, &se) && se.Msg == jsonv.ErrInvalidUTF8Msg {
			return rd.errorf(1, "not a session log: invalid UTF-8 in the first line")
		}
		return rd.errorf(1, "not a session log: the first line is not valid JSON (%v)", err)
	}
	if !v.IsObject() {
		return rd.notALog("the first line is JSON but not an object")
	}
	switch {
	case v.Get("type").Str() == "session":
		ver := v.Get("version")
		if ver.IsNumber() && (!ver.IsInteger() || ver.Num() < 0 || ver.Num() > NewestFormat) {
			rel := "newer"
			if ver.Num() < 0 || !ver.IsInteger() {
				rel = "different"
			}
			return rd.errorf(1, "session log format version %s is not supported: it was written by a %s harness (this build reads versions 0 to %d)", jsonv.Encode(ver), rel, NewestFormat)
		}
		h := Header{Raw: v, Version: -1}
		h.ID = v.Get("id").Str()
		if ver.IsNumber() {
			h.Version = int(ver.Num())
			rd.version = h.Version
		}
		rd.isSeeded = v.Get("isSeeded").True()
		h.CreatedAt = v.Get("createdAt").Num()
		h.Cwd = v.Get("cwd").Str()
		h.ParentSession = v.Get("parentSession").Str()
		h.Origin = v.Get("origin").Str()
		rd.sum.Header = &h
		rd.format = fmtLog
	case v.Get("type").Str() == "session_event" && v.Has("event"):
		rd.format = fmtStreamJSON
		rd.version = formatAny
	case v.Has("method") && v.Get("method").IsString() && (strings.HasPrefix(v.Get("method").Str(), "session.") || strings.HasPrefix(v.Get("method").Str(), "subagent.")):
		rd.format = fmtNotifications
		rd.version = formatAny
	default:
		return rd.notALog(notALogWhy(v))
	}
	rd.release = FormatRelease(max(rd.version, 0))
	if rd.opts.Release != "" {
		rd.release = rd.opts.Release
	}
	return nil
}

// notALog is the error for a first line that is JSON but no session header
// and no wrapped event stream.
func (rd *reader) notALog(why string) *Error {
	e := rd.errorf(1, "not a session log: %s", why)
	e.Kind = NotASessionLog
	return e
}

// notALogWhy names what the first line looks like instead.
func notALogWhy(v jsonv.Value) string {
	switch {
	case v.Has("jsonrpc"):
		return "the first line is a JSON-RPC frame, not a session header"
	case v.Get("type").IsString():
		return fmt.Sprintf("the first line is a %q record, not a session header", v.Get("type").Str())
	}
	return "the first line is not a session header"
}

// pipeline decodes batches of lines on worker goroutines and applies them
// here, in order. Memory is bounded by the number of batches in flight.
func (rd *reader) pipeline(ls *lineSource) error {
	batchBytes := rd.batchBytes
	jobs := rd.opts.jobs()
	inflight := 2*jobs + 2
	free := make(chan *batch, inflight)
	for i := 0; i < inflight; i++ {
		free <- &batch{}
	}
	work := make(chan *batch, inflight)
	order := make(chan *batch, inflight)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	worker := func() {
		defer wg.Done()
		for b := range work {
			if cap(b.recs) < len(b.lines) {
				b.recs = make([]record, len(b.lines))
			}
			b.recs = b.recs[:len(b.lines)]
			for i, l := range b.lines {
				decodeLine(rd.format, rd.opts.decodeMode(), b.buf[l.start:l.end], &b.recs[i])
			}
			close(b.done)
		}
	}

	started := 0 // workers, the producer's until wg.Wait
	wg.Add(1)
	go func() { // producer
		defer wg.Done()
		defer close(work)
		defer close(order)
		for {
			var b *batch
			select {
			case b = <-free:
			case <-quit:
				return
			}
			ls.fillBatch(b, batchBytes)
			b.done = make(chan struct{})
			// A worker per batch up to jobs: a small log starts few.
			if started < jobs {
				started++
				wg.Add(1)
				go worker()
			}
			work <- b
			order <- b
			if b.last {
				return
			}
		}
	}()

	var err error
	for b := range order {
		<-b.done
		if err == nil {
			for i := range b.recs {
				l := b.lines[i]
				if err = rd.apply(&b.recs[i], b.firstLine+i, l.endOff); err != nil {
					break
				}
				if rd.stopErr != nil {
					err = rd.stopErr
					break
				}
			}
			if err == nil && b.err != nil {
				err = rd.sourceErr(b.err)
			}
			if err != nil {
				close(quit)
			}
		}
		clear(b.recs)
		if !b.last {
			select {
			case free <- b:
			default:
			}
		}
	}
	wg.Wait()
	rd.sum.Workers = started
	return err
}

// sequential is pipeline without its goroutines: the same batches, decoded
// and applied in order.
func (rd *reader) sequential(ls *lineSource) error {
	if ls.inMemory() {
		return rd.inMemory(ls)
	}
	b := &batch{}
	for {
		if ls.inMemory() {
			ls.takeRest(b)
		} else {
			ls.fillBatch(b, rd.batchBytes)
		}
		if cap(b.recs) < len(b.lines) {
			b.recs = make([]record, len(b.lines))
		}
		b.recs = b.recs[:len(b.lines)]
		for i, l := range b.lines {
			decodeLine(rd.format, rd.opts.decodeMode(), b.buf[l.start:l.end], &b.recs[i])
		}
		for i := range b.recs {
			l := b.lines[i]
			if err := rd.apply(&b.recs[i], b.firstLine+i, l.endOff); err != nil {
				return err
			}
			if rd.stopErr != nil {
				return rd.stopErr
			}
		}
		if b.err != nil {
			return rd.sourceErr(b.err)
		}
		clear(b.recs)
		if b.last {
			return nil
		}
	}
}

// inMemory is sequential for a log held whole: each line is decoded into
// the one record and applied before the next is looked at.
func (rd *reader) inMemory(ls *lineSource) error {
	var rec record
	mode := rd.opts.decodeMode()
	err := ls.eachRest(func(line []byte, n int, endOff int64) error {
		decodeLine(rd.format, mode, line, &rec)
		if err := rd.apply(&rec, n, endOff); err != nil {
			return err
		}
		return rd.stopErr
	})
	if err != nil && err == ls.fatal {
		return rd.sourceErr(err)
	}
	return err
}

// peekBufSize sizes the reader that peeks at the zstd magic: a small file
// does not need 64 KB cleared for it.
func peekBufSize(size int64) int {
	if size >= 0 && size < 1<<16 {
		return max(int(size), 16)
	}
	return 1 << 16
}

// apply handles one record in log order: upstream's scanner rules first
// (unparsable record or seq gap: the rest is a droppable tail unless a later
// record ends a turn), then the loader's envelope checks, then pairing.
func (rd *reader) apply(rec *record, line int, end int64) error {
	rd.sum.Records++
	if rd.issue != nil {
		if rec.bad == "" && rec.turnEnd {
			return rd.corrupt(line)
		}
		return nil
	}
	if rec.kind == recSkip {
		rd.committed = end
		return nil
	}
	if rec.bad != "" {
		rd.issue = &issue{line: line, msg: rec.bad}
		return nil
	}
	seq := rec.seq
	if rd.format == fmtLog {
		if !rd.decided {
			rd.decided = true
			rd.projected = !rec.hasSeq
		}
		if !rd.projected && (!rec.hasSeq || rec.seq != rd.count) {
			// Upstream's scanner would stop keeping events here; real fixtures
			// have gaps (hand-trimmed chunk runs, fragments starting at seq 1),
			// so the reader resynchronizes and reports it instead.
			got := "none"
			if rec.hasSeq && rec.seq >= 0 {
				got = fmt.Sprint(rec.seq)
			} else if rec.hasSeq {
				got = "an invalid seq"
			}
			rd.notice(Notice{Line: line, Kind: "seq-gap", Msg: fmt.Sprintf("seq gap (expected %d, got %s)", rd.count, got)})
			if rec.hasSeq && rec.seq >= 0 {
				rd.count = rec.seq
			}
		}
		if !rec.hasSeq || rec.seq < 0 {
			seq = rd.count
		}
	} else if !rec.hasSeq {
		seq = -1
	}
	if rec.invalid != "" {
		return rd.errorf(line, "corrupt session log: %s", rec.invalid)
	}
	rd.count += int64(rec.n)
	rd.sum.Events += rec.n
	rd.committed = end
	rd.turnEnded = rd.turnEnded || rec.turnEnd
	if rec.toolChunk != "" {
		rd.streamedCall(rec.toolChunk, line)
	}
	if rec.kind == recPacked {
		if rd.version >= 2 {
			// Format 2 on stores the stream inside assistant/message: a
			// packed row is an event type its reader does not know.
			rd.sum.UnknownEvents++
			rd.notice(Notice{Line: line, Kind: "unknown-event", Msg: fmt.Sprintf("packed %s row in a format %d log (the stream is inside assistant/message from format 2 on)", rec.typ, rd.version)})
		}
		return nil
	}
	if err := rd.event(rec, line, seq); err != nil {
		return err
	}
	return rd.flush()
}

func (rd *reader) corrupt(turnEndLine int) error {
	return rd.errorf(rd.issue.line, "corrupt session log: %s (damage before the turn/end at line %d)", rd.issue.msg, turnEndLine)
}

// finish handles the end of input: the torn tail, then every call still
// open is delivered (interrupted when it has no result).
func (rd *reader) finish(ls *lineSource, zs *zstdSource) error {
	if ls.firstLines > 0 {
		what := fmt.Sprintf("the first zstd frame holds the header and %d more line", ls.firstLines-1)
		if ls.firstLines > 2 {
			what += "s"
		}
		if ls.frames == 1 && !zs.Torn {
			what = "the whole log is one zstd frame (as `zstd FILE` makes it)"
		}
		rd.notice(Notice{Line: 1, Kind: ZstdFraming, Msg: "not upstream's framing: " + what +
			"; upstream writes the header alone in the first frame, then one frame per append batch. Read anyway"})
	}
	frag := ls.Fragment()
	torn := zs != nil && zs.Torn
	if rd.issue != nil || len(frag) > 0 || torn {
		rd.sum.TornTails++
		n := Notice{Kind: "torn-tail", Offset: rd.committed}
		var why string
		switch {
		case rd.issue != nil:
			n.Line = rd.issue.line
			why = rd.issue.msg
		case len(frag) > 0:
			n.Line = ls.line
			why = fmt.Sprintf("the last line has no newline (%d bytes)", len(frag))
		default:
			n.Line = ls.line
			why = "the last zstd frame is incomplete"
		}
		where := "after the last turn/end"
		if !rd.turnEnded {
			where = "(no turn/end before it)"
		}
		n.Msg = fmt.Sprintf("torn tail %s: %s; the good part ends at byte %d", where, why, rd.committed)
		if torn {
			n.Msg += fmt.Sprintf(" of the decoded text (the torn zstd frame starts at compressed byte %d)", zs.TornAt)
		}
		rd.notice(n)
	}
	for i := rd.head; i < len(rd.queue); i++ {
		rd.final[rd.queue[i]] = true
	}
	if err := rd.flush(); err != nil {
		return err
	}
	if rd.side != nil {
		rd.side.orphans(rd.notice)
	}
	rd.callsWithoutRecords()
	if rd.version >= 2 && rd.isSeeded != rd.inheritedSeed && !rd.projected {
		msg := "the header says isSeeded but no session/end-seed {inherited: true} marks the inherited events"
		if !rd.isSeeded {
			msg = "a session/end-seed {inherited: true} in a log whose header does not say isSeeded"
		}
		rd.notice(Notice{Line: 1, Kind: "seed-mismatch", Msg: msg + " (upstream's reader refuses the log)"})
	}
	return nil
}

// streamedCall notes a call id seen in a streamed tool-call chunk.
func (rd *reader) streamedCall(id string, line int) {
	if _, known := rd.calls[id]; known {
		return
	}
	if _, seen := rd.chunkCalls[id]; seen {
		return
	}
	if rd.chunkCalls == nil {
		rd.chunkCalls = map[string]int{}
	}
	rd.chunkCalls[id] = line
}

// callsWithoutRecords reports tool calls that exist only as streamed model
// chunks: there is nothing to verify for them, which must not pass silently.
func (rd *reader) callsWithoutRecords() {
	ids := make([]string, 0, len(rd.chunkCalls))
	for id := range rd.chunkCalls {
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := rd.chunkCalls[ids[i]], rd.chunkCalls[ids[j]]
		return a < b || a == b && ids[i] < ids[j]
	})
	first := rd.chunkCalls[ids[0]]
	what := fmt.Sprintf("tool call %s is", jsonv.Quote(ids[0]))
	if len(ids) > 1 {
		what = fmt.Sprintf("%d tool calls (first %s) are", len(ids), jsonv.Quote(ids[0]))
	}
	rd.notice(Notice{Line: first, Kind: "calls-without-records",
		Msg: what + " streamed as model chunks but the log has no assistant/message, tool/call or tool/result for them: nothing to verify (a model script or a cut log)"})
}

// readBufSize picks the read buffer: large for throughput, small for small files.
func readBufSize(size int64, compressed bool) int {
	const max = 4 << 20
	if size < 0 {
		return max
	}
	if compressed {
		size *= 10
	}
	if size+1 < max {
		return int(size) + 1
	}
	return max
}
