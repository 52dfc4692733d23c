package replay

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/dsh-replay/dsh-replay/internal/jobs"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// Sink receives results in a deterministic order (log order, then call
// order, sub-calls after their root) from a single goroutine.
type Sink interface {
	BeginLog(file string)
	Call(r *CallResult)
	EndLog(l *LogResult)
}

// LogResult is the outcome of one log.
type LogResult struct {
	File string
	// NotALog: the file is JSON lines of another kind (see NotASessionLog).
	NotALog bool
	Summary *logformat.Summary // nil when the reader failed before summarising
	// Findings are log-level: torn tail, unknown events, orphan values,
	// corruption (fatal).
	Findings []Finding
	Nanos    int64
	// Data is the log's bytes when RunOptions.KeepData asks for them and
	// the log was read whole (a regular file of at most
	// logformat.SmallLogBytes); nil otherwise.
	Data []byte
	// CardGoldens marks the block of a log's card goldens (verify
	// --golden): reported like a log, counted as none.
	CardGoldens bool
}

// RunOptions configure the pipeline.
type RunOptions struct {
	// Jobs is the number of verifying workers (see jobs.Count: <= 0 is
	// GOMAXPROCS).
	Jobs int
	// ShardK of ShardN (1-based) keeps a stable subset of the calls; ShardN
	// 0 or 1 keeps everything.
	ShardK, ShardN int
	Read           logformat.Options
	// Deterministic zeroes timings.
	Deterministic bool
	// Window bounds the results held for re-ordering (default 64 per job).
	Window int
	// Stdin is read for the path "-" (default os.Stdin).
	Stdin io.Reader
	// Walked marks paths found in a directory walk: such a file that is
	// not a session log is skipped with a notice instead of being fatal.
	Walked map[string]bool
	// Errs are paths the walk found bad (logformat.Inputs.Errs): each is
	// reported as its error without being opened.
	Errs map[string]*logformat.Error
	// NoSidecar marks paths the walk saw no values sidecar beside
	// (logformat.Inputs.NoSidecar): read without looking for one.
	NoSidecar map[string]bool
	// KeepData fills LogResult.Data, for a sink that looks at a log again
	// (verify --golden draws its cards) without reading it twice.
	KeepData bool
}

// InShard reports whether a call of file belongs to shard k of n.
func InShard(file, callID string, k, n int) bool {
	if n <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(file))
	h.Write([]byte{0})
	h.Write([]byte(callID))
	return int(h.Sum64()%uint64(n)) == k-1
}

type itemKind uint8

const (
	itemBegin itemKind = iota
	itemCall
	itemEnd
	itemLog // a small log whole: its calls verified by one worker, in order
)

type item struct {
	seq     int
	kind    itemKind
	file    string
	call    logformat.Call
	results []CallResult
	log     *LogResult
	// cost is what the log drew from the read-ahead budget, given back
	// once its last item is delivered.
	cost int64
	// itemLog: the log's calls and each one's results.
	calls       []logformat.Call
	callResults [][]CallResult
}

// Run verifies every call of every log with a bounded worker pool and
// delivers the results to sink in order. It returns after the last EndLog.
func Run(e *Engine, paths []string, ro RunOptions, sink Sink) {
	i := 0
	RunFrom(e, func() (string, logformat.PathInfo, bool) {
		if i == len(paths) {
			return "", logformat.PathInfo{}, false
		}
		p := paths[i]
		i++
		return p, logformat.PathInfo{Walked: ro.Walked[p], Err: ro.Errs[p], NoSidecar: ro.NoSidecar[p]}, true
	}, ro, sink)
}

// RunFrom is Run over the paths nextPath hands out, with what a walk knows
// of each (logformat.Stream.Next: a walk still going on); RunOptions'
// Walked, Errs and NoSidecar are not looked at. nextPath is called from one
// goroutine at a time.
func RunFrom(e *Engine, nextPath func() (string, logformat.PathInfo, bool), ro RunOptions, sink Sink) {
	// One small log is verified on this goroutine: the readers, workers and
	// their channels cost a run of one log more than its calls do.
	first, firstInfo, ok := nextPath()
	if !ok {
		return
	}
	second, secondInfo, more := nextPath()
	if !more && runOne(e, first, firstInfo, ro, sink) {
		return
	}
	peeked := 0
	rest := nextPath
	nextPath = func() (string, logformat.PathInfo, bool) {
		switch peeked++; {
		case peeked == 1:
			return first, firstInfo, true
		case peeked == 2 && more:
			return second, secondInfo, true
		case !more:
			return "", logformat.PathInfo{}, false
		}
		return rest()
	}
	jobs := jobs.Count(ro.Jobs)
	window := ro.Window
	if window <= 0 {
		window = 64 * jobs
	}
	tokens := make(chan struct{}, window)
	budget := newByteBudget(readAheadBytes)
	work := make(chan *item, jobs)
	done := make(chan *item, window)

	var wg sync.WaitGroup
	worker := func() {
		defer wg.Done()
		for it := range work {
			switch it.kind {
			case itemCall:
				it.results = e.verifyTimed(&it.call, ro)
			case itemLog:
				it.callResults = make([][]CallResult, len(it.calls))
				for i := range it.calls {
					it.callResults[i] = e.verifyTimed(&it.calls[i], ro)
				}
			}
			done <- it
		}
	}
	go func() {
		seq, started := 0, 0
		send := func(it *item) {
			tokens <- struct{}{}
			it.seq = seq
			seq++
			// A worker per item up to jobs: a few calls start a few.
			if started < jobs {
				started++
				wg.Add(1)
				go worker()
			}
			work <- it
		}
		for job := range readAhead(nextPath, ro, jobs, budget) {
			path, info := job.path, job.info
			r := <-job.out
			if r != nil {
				lr := e.logResult(path, info.Walked, r.sum, r.err, ro)
				lr.Data = r.data
				if !ro.Deterministic {
					lr.Nanos = r.nanos
				}
				if len(r.calls) <= wholeLogCalls {
					// One item, not one a call: a tree of small logs
					// sent four items a log through the channels.
					send(&item{kind: itemLog, file: path, calls: r.calls, log: lr, cost: job.cost})
					continue
				}
				send(&item{kind: itemBegin, file: path})
				for j := range r.calls {
					send(&item{kind: itemCall, file: path, call: r.calls[j]})
				}
				send(&item{kind: itemEnd, file: path, log: lr, cost: job.cost})
				continue
			}
			start := time.Now()
			send(&item{kind: itemBegin, file: path})
			sum, err := readCalls(path, info, ro, func(c *logformat.Call) error {
				if !InShard(c.File, c.CallID, ro.ShardK, ro.ShardN) {
					return nil
				}
				send(&item{kind: itemCall, file: path, call: *c})
				return nil
			})
			lr := e.logResult(path, info.Walked, sum, err, ro)
			if !ro.Deterministic {
				lr.Nanos = time.Since(start).Nanoseconds()
			}
			send(&item{kind: itemEnd, file: path, log: lr, cost: job.cost})
		}
		close(work)
		wg.Wait()
		close(done)
	}()

	pending := map[int]*item{}
	next := 0
	for it := range done {
		pending[it.seq] = it
		for {
			it, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			switch it.kind {
			case itemBegin:
				sink.BeginLog(it.file)
			case itemCall:
				for i := range it.results {
					sink.Call(&it.results[i])
				}
			case itemEnd:
				sink.EndLog(it.log)
			case itemLog:
				sink.BeginLog(it.file)
				for _, rs := range it.callResults {
					for i := range rs {
						sink.Call(&rs[i])
					}
				}
				sink.EndLog(it.log)
			}
			if it.cost > 0 {
				budget.give(it.cost)
			}
			<-tokens
		}
	}
}

// wholeLogCalls is the most calls a small log may have to be verified as
// one item by one worker; a log with more spreads them over the workers.
const wholeLogCalls = 16

// verifyTimed is verifyContained with the call's time on its first result.
func (e *Engine) verifyTimed(c *logformat.Call, ro RunOptions) []CallResult {
	start := time.Now()
	results := e.verifyContained(c)
	if !ro.Deterministic && len(results) > 0 {
		results[0].Nanos = time.Since(start).Nanoseconds()
	}
	return results
}

// runOne verifies a log read whole as the pool would, in order, and
// reports false, having done nothing, when it is not a small regular file.
func runOne(e *Engine, path string, info logformat.PathInfo, ro RunOptions, sink Sink) bool {
	r, _ := readSmall(path, info, ro, nil)
	if r == nil {
		return false
	}
	sink.BeginLog(path)
	for i := range r.calls {
		start := time.Now()
		results := e.verifyContained(&r.calls[i])
		if !ro.Deterministic && len(results) > 0 {
			results[0].Nanos = time.Since(start).Nanoseconds()
		}
		for j := range results {
			sink.Call(&results[j])
		}
	}
	lr := e.logResult(path, info.Walked, r.sum, r.err, ro)
	lr.Data = r.data
	if !ro.Deterministic {
		lr.Nanos = r.nanos
	}
	sink.EndLog(lr)
	return true
}

// Small logs are read ahead, several at once: reading one takes little more
// than opening it, so a tree of them read one after another would leave
// the other cores idle. A log of up to logformat.SmallLogBytes is read whole
// by one of readAheadReaders(jobs) readers, at most readAheadLogs(jobs) logs
// before the one being delivered (their calls wait in memory); a larger one,
// stdin and anything that is not a regular file are read in turn, streaming.
// Logs are delivered in order, so one slow log holds up the window behind
// it: two readers a job and eight logs a job (against one and four) made
// the 6,052-log tree 0.88 of its wall time with --jobs 2; 32 logs a job
// 0.97 of that again, 64 nothing more.
func readAheadLogs(jobs int) int { return min(32*jobs, 64) }

func readAheadReaders(jobs int) int { return 2 * jobs }

// readAheadBytes bounds what the logs read ahead and not yet delivered may
// hold, in bytes of the files they are read from: a small log's calls
// carry the values of its sidecar, which may be any size (40 logs of a few
// KB with 27 MB sidecars peaked at 1.9 GB when only logs were counted). A
// log costs SmallLogBytes plus its sidecar's size; one costing more than
// the whole budget is read alone.
const readAheadBytes = 32 << 20

// byteBudget is a counting semaphore of bytes.
type byteBudget struct {
	mu         sync.Mutex
	more       *sync.Cond
	size, free int64
}

func newByteBudget(size int64) *byteBudget {
	b := &byteBudget{size: size, free: size}
	b.more = sync.NewCond(&b.mu)
	return b
}

// take waits until n bytes (at most the whole budget) are free and takes
// them; it returns what it took, for give.
func (b *byteBudget) take(n int64) int64 {
	n = min(n, b.size)
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.free < n {
		b.more.Wait()
	}
	b.free -= n
	return n
}

func (b *byteBudget) give(n int64) {
	b.mu.Lock()
	b.free += n
	b.mu.Unlock()
	b.more.Broadcast()
}

// readCost is what reading path ahead may hold: the log read whole and
// every value of its sidecar.
func readCost(path string, info logformat.PathInfo, ro RunOptions) int64 {
	cost := logformat.SmallLogBytes()
	if path == "-" || info.Err != nil || info.NoSidecar || ro.Read.NoSidecar {
		return cost
	}
	if st, err := os.Stat(logformat.SidecarPath(path)); err == nil && st.Mode().IsRegular() {
		cost += st.Size()
	}
	return cost
}

type readAheadResult struct {
	data  []byte // RunOptions.KeepData
	calls []logformat.Call
	sum   *logformat.Summary
	err   error
	nanos int64
}

// aheadJob is one log handed to the readers; out yields it read whole, or
// nil when the caller is to stream it.
type aheadJob struct {
	path string
	info logformat.PathInfo
	cost int64 // taken from the budget, for the caller to give back
	out  chan *readAheadResult
}

// readAhead hands out the logs next gives, in order, each as a job the
// readers are already reading, once its cost is taken from budget.
func readAhead(next func() (string, logformat.PathInfo, bool), ro RunOptions, jobs int, budget *byteBudget) <-chan *aheadJob {
	window := readAheadLogs(jobs)
	queue := make(chan *aheadJob, window)
	feed := make(chan *aheadJob, window)
	reader := func() {
		var buf []byte // reused: what is read from it is copied out
		for j := range feed {
			var r *readAheadResult
			r, buf = readSmall(j.path, j.info, ro, buf)
			j.out <- r
		}
	}
	go func() {
		defer close(queue)
		defer close(feed)
		started := 0
		for {
			path, info, ok := next()
			if !ok {
				return
			}
			j := &aheadJob{path: path, info: info, out: make(chan *readAheadResult, 1)}
			j.cost = budget.take(readCost(path, info, ro))
			// A reader per log up to readAheadReaders: a few logs start a few.
			if started < readAheadReaders(jobs) {
				started++
				go reader()
			}
			queue <- j
			feed <- j
		}
	}()
	return queue
}

// readSmall reads a small regular file's calls (nil when it is not one)
// into buf, returning the buffer to read the next one into.
func readSmall(path string, info logformat.PathInfo, ro RunOptions, buf []byte) (*readAheadResult, []byte) {
	if info.Err != nil || path == "-" {
		return nil, buf // reported without being opened, or streamed
	}
	start := time.Now()
	if ro.KeepData {
		buf = nil // the sink keeps the bytes
	}
	data, ok := logformat.ReadSmallFileInto(path, buf)
	if !ok {
		return nil, buf
	}
	if !ro.KeepData {
		buf = data[:cap(data)]
	}
	return decodeSmall(path, info, ro, data, start), buf
}

// decodeSmall decodes a small log read whole (its calls are copies: data
// may be read into again).
func decodeSmall(path string, info logformat.PathInfo, ro RunOptions, data []byte, start time.Time) *readAheadResult {
	r := &readAheadResult{}
	if ro.KeepData {
		r.data = data
	}
	r.sum, r.err = readCallsBytes(path, info, data, ro, func(c *logformat.Call) error {
		if InShard(c.File, c.CallID, ro.ShardK, ro.ShardN) {
			r.calls = append(r.calls, *c)
		}
		return nil
	})
	r.nanos = time.Since(start).Nanoseconds()
	return r
}

// readCallsBytes is logformat.ReadCallsBytes with panics contained.
func readCallsBytes(path string, info logformat.PathInfo, data []byte, ro RunOptions, fn func(*logformat.Call) error) (sum *logformat.Summary, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &internalError{msg: fmt.Sprintf("internal error reading the log (this is a bug, please report it): %v", r), stack: string(debug.Stack())}
		}
	}()
	opts := ro.readOptions(info)
	return logformat.ReadCallsBytes(path, data, opts, fn)
}

// readOptions are the read options for a path: verification reads every
// value, so it is decoded once, in the reader's workers.
func (ro RunOptions) readOptions(info logformat.PathInfo) logformat.Options {
	opts := ro.Read
	opts.DecodeValues = true
	if info.NoSidecar {
		opts.NoSidecar = true
	}
	return opts
}

// readCalls is logformat.ReadCalls with panics contained.
func readCalls(path string, info logformat.PathInfo, ro RunOptions, fn func(*logformat.Call) error) (sum *logformat.Summary, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &internalError{msg: fmt.Sprintf("internal error reading the log (this is a bug, please report it): %v", r), stack: string(debug.Stack())}
		}
	}()
	if e := info.Err; e != nil {
		return &logformat.Summary{File: path}, e
	}
	opts := ro.readOptions(info)
	if path == "-" && ro.Stdin != nil {
		return logformat.ReadCallsFrom("-", ro.Stdin, opts, fn)
	}
	return logformat.ReadCalls(path, opts, fn)
}

type internalError struct{ msg, stack string }

func (e *internalError) Error() string { return e.msg }

// logResult turns the reader's outcome into log-level findings. Notices
// belong to one shard (by log path) so a CI matrix reports each once; a
// fatal error is reported by every shard, none of which could verify.
func (e *Engine) logResult(path string, walked bool, sum *logformat.Summary, err error, ro RunOptions) *LogResult {
	lr := &LogResult{File: path, Summary: sum}
	warn := Warning
	if e.opts.Strict {
		warn = Failure
	}
	if sum != nil && InShard(path, "", ro.ShardK, ro.ShardN) {
		for _, n := range sum.Notices {
			f := Finding{File: path, Line: n.Line, Projector: "log", Sev: warn, Message: n.Msg}
			if n.File != "" {
				f.File = n.File
			}
			switch n.Kind {
			case string(UnknownEvent):
				f.Class = UnknownEvent
			case string(CallsWithoutRecords):
				f.Class = CallsWithoutRecords
			case logformat.ZstdFraming:
				f.Class = ZstdFraming
			default:
				f.Class, f.SubKind = LogCorrupt, n.Kind
			}
			if f.Message == "" {
				f.Message = n.Kind
			}
			lr.Findings = append(lr.Findings, f)
		}
	}
	if err != nil && logformat.IsNotASessionLog(err) {
		lr.NotALog = true
		f := Finding{Class: NotASessionLog, Sev: Fatal, File: path, Projector: "log", Message: err.Error()}
		var le *logformat.Error
		if errors.As(err, &le) {
			f.Line, f.Message = le.Line, le.Msg
		}
		if walked {
			f.Sev = warn
			f.Message += " (skipped: found in a directory; --exclude it to silence this)"
			if !InShard(path, "", ro.ShardK, ro.ShardN) {
				return lr
			}
		}
		lr.Findings = append(lr.Findings, f)
		return lr
	}
	if err != nil {
		f := Finding{Class: LogCorrupt, Sev: Fatal, File: path, Projector: "log", Message: err.Error()}
		var le *logformat.Error
		var ie *internalError
		switch {
		case errors.As(err, &le):
			f.Line, f.Message = le.Line, le.Msg
			if le.File != "" {
				f.File = le.File
			}
			switch le.Kind {
			case logformat.Unreadable:
				f.Class = Unreadable
			case logformat.ZstdWindowTooLarge:
				f.Class = ZstdWindow
			}
		case errors.As(err, &ie):
			f.Class = InternalError
			f.Diff = strings.Split(strings.TrimSpace(ie.stack), "\n")
		}
		lr.Findings = append(lr.Findings, f)
	}
	return lr
}

// verifyContained is VerifyCall with a last-resort recover, so a bug can
// never take the process down from a worker goroutine.
func (e *Engine) verifyContained(c *logformat.Call) (rs []CallResult) {
	defer func() {
		if r := recover(); r != nil {
			res := CallResult{File: c.File, Line: c.Line, CallID: c.CallID, Tool: c.Name, Status: Diverged}
			res.Findings = []Finding{{Class: InternalError, Sev: Fatal, File: c.File, Line: c.Line, CallID: c.CallID, Tool: c.Name,
				Projector: "-", Message: fmt.Sprintf("internal error (this is a bug, please report it): %v", r)}}
			rs = []CallResult{res}
		}
	}()
	return e.VerifyCall(c)
}
