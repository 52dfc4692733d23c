package logformat

import (
	"sync"

	"github.com/dsh-replay/dsh-replay/internal/termquote"
	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Call is one tool call paired from the log, with provenance.
type Call struct {
	File string // path as given by the user
	// Line is the 1-based physical line (decoded text for zstd) of the event
	// that settled the call: the append-origin tool/result, the
	// tool/code-dispatch of a sub-call, or else the tool/call / request.
	Line int
	// CallLine is the line of tool/call (or tool/code-dispatch-start), 0 if none.
	CallLine int
	// Seq is the seq of the settling event (-1 when there is none).
	Seq        int64
	Turn, Step int
	CallID     string // callId, or subCallId for a sub-call
	Name       string // tool name as recorded

	// RawArguments is the arguments text exactly as recorded: the tool/call
	// string, or the requested block's string when the call never started.
	// For a sub-call it is the compact JSON of the recorded (parsed) value.
	RawArguments string
	// Arguments is JSON.parse(RawArguments) (strict, as presenters see it);
	// undefined with ArgumentsError set when that fails.
	Arguments      jsonv.Value
	ArgumentsError string

	Requested bool // advertised by an append-origin assistant/message block
	Started   bool // a tool/call (or tool/code-dispatch-start) was recorded

	HasResult bool
	Content   jsonv.Value // the result's content block array
	IsError   bool        // block.isError === true
	Error     jsonv.Value // {name, code} when recorded, else undefined
	Meta      jsonv.Value // undefined when absent; null is a value

	// The dsh-replay value extension (inline in the event or from the sidecar).
	Value           jsonv.Value // undefined when absent
	ContentReplaced bool
	// Host is the harness that wrote the log as far as it says ("dsh",
	// "lasmex"), from the default identity line of the last system prompt
	// before the call; "" when unknown.
	Host string
	// Team: the calling agent is a DSH Agent Teams member (the latest
	// request header's system prompt carries tool-agent-team's policy), so
	// the team's scoped tools (send_message, list_agents, ...) shadow
	// global ones of the same name.
	Team bool
	// Request is the newest request header before the call: the tool
	// definitions the model was given (nil when the log has none, and
	// under Options.ShapesOnly). Shared between calls.
	Request *RequestHeader
	// Format is the session log format version the log was written in (0-4).
	Format int
	// Release is the oldest DSH release the log's format implies ("0.1.5"
	// for format 3); "" for format 0, which the ports' release wrote.
	Release string
	// ValueUnrecordable is why the recorder wrote no value for a successful
	// call (a sidecar line {"callId", "unrecordable": "NaN at /x"}); the call
	// is checked by its presenters only.
	ValueUnrecordable string

	// Synthetic names a result the harness wrote without running the tool:
	// "aborted", "aborted-before-dispatch", "outcome-unknown", "not-started".
	Synthetic string
	// Interrupted is set for a call that never got any result.
	Interrupted bool

	// Views are later replacement copies of the result (compaction pruning),
	// kept as views of this call, never as a second execution.
	Views []ResultView

	// Code Mode: a sub-call has IsSubCall, RootCallID and ParentCallID; a
	// root run_code call lists its sub-calls in submission order.
	IsSubCall    bool
	RootCallID   string
	ParentCallID string
	SubCalls     []*Call
}

// ResultView is a replacement copy of a call's result.
type ResultView struct {
	Line    int
	Seq     int64
	Content jsonv.Value
}

// Header is the session header line.
type Header struct {
	Raw           jsonv.Value
	ID            string
	Version       int // -1 when absent
	CreatedAt     float64
	Cwd           string
	ParentSession string
	Origin        string
}

// Notice is a non-fatal finding of the reader (torn tail, unknown event,
// orphan sidecar entry). Kind uses the stable divergence class names where
// one applies ("log-corrupt" is never a notice: it is an *Error).
type Notice struct {
	File string
	Line int
	// Offset is the byte offset where the good part of the file ends, for a
	// torn tail (in the decoded text for zstd, plus the compressed offset in Msg).
	Offset int64
	Kind   string // "torn-tail", "unknown-event", "orphan-value", "unpaired-result", ...
	Msg    string
}

// Summary counts what one log held.
type Summary struct {
	File            string
	Host            string // see Call.Host: the first one the log shows
	Events          int    // logical events after expanding packed rows
	Records         int    // physical records (lines after the header)
	Calls           int    // top-level calls
	Results         int    // append-origin tool/result events
	ResultsWithMeta int
	ResultsWithErr  int // results carrying an error {name, code}
	ErrorResults    int // results with isError true
	SubCalls        int
	UnknownEvents   int
	TornTails       int
	Values          int // calls carrying a value (inline or sidecar)
	Notices         []Notice

	// Added by the reader.
	Format         string  // "session-log", "zstd session-log", "stream-json", "notifications", ...
	Header         *Header // nil for wrapped event streams
	IgnoredEvents  int     // unknown events marked ignorable (skipped)
	NoticesDropped int     // notices beyond MaxNoticesPerKind of one kind
	Workers        int     // decoding goroutines started (0: decoded on the reading one)
}

// Error is a failure to read a log: unreadable, corrupt before the last
// turn/end, not a session log. It maps to exit code 3.
type Error struct {
	File string
	Line int // 0 when not line-specific
	Msg  string
	// Kind is NotASessionLog for a file that is JSON lines of another kind;
	// empty for every other failure.
	Kind string
}

// Error names the file quoted when it holds what a terminal must not get
// raw (see termquote.QuoteName).
func (e *Error) Error() string {
	if e.Line > 0 {
		return termquote.QuoteName(e.File) + ":" + itoa(e.Line) + ": " + e.Msg
	}
	return termquote.QuoteName(e.File) + ": " + e.Msg
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}

// RequestHeader is one request/header event's data, parsed on first use: a call
// that verifies never needs it; a diverging one compares the definition
// the host declared with the port's.
type RequestHeader struct {
	Line int // the event's line
	raw  []byte
	once sync.Once
	defs map[string]jsonv.Value
}

// NewRequestHeader is the header whose request/header event data is data
// (the caller keeps data unchanged), at line.
func NewRequestHeader(line int, data []byte) *RequestHeader {
	return &RequestHeader{Line: line, raw: data}
}

// Tool is the definition the header declares for name ({name, description,
// parameters, ...}), if it declares one.
func (h *RequestHeader) Tool(name string) (jsonv.Value, bool) {
	if h == nil {
		return jsonv.Value{}, false
	}
	h.once.Do(func() {
		h.defs = map[string]jsonv.Value{}
		v, err := jsonv.Parse(h.raw)
		if err != nil {
			return
		}
		for _, t := range v.Get("header").Get("tools").Elems() {
			if n := t.Get("name"); n.IsString() {
				if _, dup := h.defs[n.Str()]; !dup {
					h.defs[n.Str()] = t
				}
			}
		}
	})
	t, ok := h.defs[name]
	return t, ok
}

// Variants are the definitions of tool this header declares where they
// differ from the pinned ones (VariantAskTimed, VariantPlanDetails): the
// registry's definition in that scope replays a call of tool. The header
// is parsed only for a tool that has variants.
func (h *RequestHeader) Variants(tool string) []string {
	var out []string
	for _, hv := range headerVariants {
		if hv.tool != tool {
			continue
		}
		if def, ok := h.Tool(tool); ok {
			if props := def.Get("parameters").Get("properties"); props.IsObject() && props.Has(hv.param) {
				out = append(out, hv.variant)
			}
		}
	}
	return out
}

// Variants are the definitions of the call's tool its request header
// declares (RequestHeader.Variants; nil without a header).
func (c *Call) Variants() []string { return c.Request.Variants(c.Name) }
