package replay

import (
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// Class is a divergence class name. The names are stable: every report
// format uses exactly these strings.
type Class string

const (
	ContentMismatch Class = "content-mismatch"
	MetaMismatch    Class = "meta-mismatch"
	MetaMissing     Class = "meta-missing"
	MetaUnexpected  Class = "meta-unexpected"
	SchemaInvalid   Class = "schema-invalid"
	RenderFailed    Class = "render-failed"
	MetaFailed      Class = "meta-failed"
	PresenterFailed Class = "presenter-failed"
	Nondeterminism  Class = "nondeterministic"
	CardMismatch    Class = "card-mismatch"
	LogCorrupt      Class = "log-corrupt"
	UnknownEvent    Class = "unknown-event"
	NoProjector     Class = "no-projector"
	// NotASessionLog: a file found in a directory is JSON lines of another
	// kind (a JSON-RPC transcript, say); it is skipped with a notice, and
	// is fatal only when named on the command line.
	NotASessionLog Class = "not-a-session-log"
	// CallsWithoutRecords: tool calls exist only as streamed model chunks,
	// so there is nothing to verify for them.
	CallsWithoutRecords Class = "calls-without-records"
	// ZstdFraming: a .jsonl.zstd log not framed as upstream frames it (the
	// header alone in the first frame); compressed by hand, and read.
	ZstdFraming Class = "zstd-framing"
	// ZstdWindow: a zstd stream whose window is larger than the reader
	// holds in memory (zstd --long=30 or 31): valid, but not read (exit 3).
	ZstdWindow Class = "zstd-window"
	// PresenterDeclined: a presenter's soft validation refused the recorded
	// arguments, so the call gets the generic card (as upstream draws it).
	PresenterDeclined Class = "presenter-declined"
	// ParamsMismatch: the port's parameter schema disagrees with the
	// host's: it accepts arguments the host rejected, rejects them with
	// another message, or rejects arguments the host accepted and ran.
	ParamsMismatch Class = "params-mismatch"
	// Impure: a plugin's JavaScript projector reached for a clock,
	// randomness, timers, the network, the file system or the process.
	Impure Class = "impure"
	// ProjectorTimeout: a plugin's JavaScript projector did not return
	// within the deadline and was stopped.
	ProjectorTimeout Class = "projector-timeout"
	// ProjectorResource: a plugin's JavaScript projector grew the heap
	// past its memory budget and was stopped.
	ProjectorResource Class = "projector-resource"
	// SandboxUnsupported: a plugin's JavaScript projector used something
	// Node has and the sandbox does not (URL, Buffer, a regular expression
	// with \p{...} or named groups): the call is not verified (a warning,
	// a failure under --strict), as with no-projector.
	SandboxUnsupported Class = "sandbox-unsupported"
	// Unreadable: a log, its sidecar or a directory of the walk could not
	// be opened or listed (permission denied, a dangling or looping link).
	// Fatal (exit 3) for that input only; the others are verified.
	Unreadable Class = "unreadable"
	// InternalError is a bug in dsh-replay itself (a panic outside the
	// contained projectors); it maps to exit code 3.
	InternalError Class = "internal-error"
)

// Content mismatch sub-kinds.
const (
	SubWhitespaceOnly  = "whitespace-only"
	SubCRLFOnly        = "crlf-only"
	SubTrailingNewline = "trailing-newline"
	// SubSpillPreview marks a recorded spill preview that does not match the
	// spill transform of the rendered text.
	SubSpillPreview = "spill-preview"
)

// Severity says what a finding does to the exit code.
type Severity int

const (
	// Warning: the call or log is unverified (exit 0; a failure under --strict).
	Warning Severity = iota
	// Failure: a divergence (exit 1).
	Failure
	// Fatal: the log could not be verified (exit 3).
	Fatal
)

func (s Severity) String() string {
	switch s {
	case Failure:
		return "error"
	case Fatal:
		return "fatal"
	}
	return "warning"
}

// Finding is one classified divergence, with provenance.
type Finding struct {
	Class   Class
	SubKind string
	Sev     Severity
	File    string
	Line    int
	CallID  string // empty for log-level findings
	Tool    string
	// Projector is render, presentationMeta, presentCall, presentResult,
	// schema, or log for log-level findings.
	Projector string
	// Message is one stable line; call-specific details stay out of it so
	// identical causes cluster.
	Message string
	// Pointer is the first differing JSON pointer ("" is the whole value).
	Pointer string
	// Diff is a line diff with visible whitespace: "- " recorded, "+ " replayed.
	// The engine's comparisons leave it nil and build it when first asked
	// for: read it with DiffLines.
	Diff []string
	// lazy builds the diff on first use: a large run has many diverging
	// calls of few causes, a text report prints two of each, and the diff
	// was most of what a divergence cost.
	lazy *lazyDiff
}

type lazyDiff struct {
	once  sync.Once
	build func() []string
	lines []string
}

// deferDiff gives f a diff that build makes when first asked for.
func (f *Finding) deferDiff(build func() []string) {
	f.lazy = &lazyDiff{build: build}
}

// DiffLines is the finding's diff, built now if it was deferred (once;
// copies of a finding share it).
func (f *Finding) DiffLines() []string {
	if f.lazy == nil {
		return f.Diff
	}
	return f.lazy.get()
}

func (l *lazyDiff) get() []string {
	l.once.Do(func() {
		l.lines = l.build()
		l.build = nil // let the compared values go
	})
	return l.lines
}

// ResolveDiff builds a deferred diff into Diff, for a consumer that reads
// the field (or encodes the finding by reflection).
func (f *Finding) ResolveDiff() {
	if f.lazy != nil {
		f.Diff = f.DiffLines()
		f.lazy = nil
	}
}

// Signature identifies a cause: findings with equal signatures cluster.
func (f *Finding) Signature() string {
	return string(f.Class) + "\x00" + f.SubKind + "\x00" + f.Tool + "\x00" + f.Projector + "\x00" + f.Pointer + "\x00" + f.Message
}

// Headline is the class with its sub-kind, e.g. "content-mismatch (crlf-only)".
func (f *Finding) Headline() string {
	if f.SubKind == "" {
		return string(f.Class)
	}
	return string(f.Class) + " (" + f.SubKind + ")"
}

// Status is the verdict of one call.
type Status int

const (
	Verified Status = iota
	Diverged
	Unverified
)

func (s Status) String() string {
	switch s {
	case Diverged:
		return "diverged"
	case Unverified:
		return "unverified"
	}
	return "verified"
}

// CallResult is the outcome of one call (a sub-call is its own result).
type CallResult struct {
	File    string
	Line    int
	CallID  string
	Tool    string
	SubCall bool
	Status  Status
	// HasValue: the call carried a canonical value, so the projectors ran.
	HasValue bool
	// Checked lists what was compared or run: content, meta, presentCall, presentResult.
	Checked  []string
	Findings []Finding
	// Nanos is the time spent verifying (zero under --deterministic).
	Nanos int64
	// Fingerprint hashes the outputs (Options.Fingerprint; zero for a call
	// without a port).
	Fingerprint Fingerprint
	// View is what a sink needs to draw the call's card (Options.Views).
	// Not serialised: a blob carries the card it draws (report/blob.go).
	View *View `json:"-"`
}

// View is a call as a card shows it: the recorded call (without its
// sub-calls, each of which has its own result, and without the canonical
// value and replacement views, which no card draws) and what its
// presenters returned. The engine does not draw: sinks build the card
// (cards.FromView).
type View struct {
	Call                 *logformat.Call
	CallView, ResultView jsonv.Value
	// CallFailure and ResultFailure say why a presenter gave no view ("" when
	// it gave one).
	CallFailure, ResultFailure string
	// Card, when set, is the card built already (a merged shard's blob
	// carries cards, not views): sinks draw it as it is. Its type is the
	// sinks' (*cards.Entry); the engine never sets it.
	Card any
}

func newView(c *logformat.Call, callView, resultView jsonv.Value, callErr, resultErr error) *View {
	cc := *c
	cc.SubCalls, cc.Value, cc.Views = nil, jsonv.Value{}, nil
	return &View{Call: &cc, CallView: callView, ResultView: resultView,
		CallFailure: errText(callErr), ResultFailure: errText(resultErr)}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// worst is the highest severity among the findings (-1 when none).
func worst(fs []Finding) Severity {
	w := Severity(-1)
	for i := range fs {
		if fs[i].Sev > w {
			w = fs[i].Sev
		}
	}
	return w
}
