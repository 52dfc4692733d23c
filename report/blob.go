package report

// A blob (verify --report blob=FILE) is one shard's run in full: every
// result verify handed its reports, in order, cards included, after a
// header naming the dsh-replay version, the hash of the configuration, the
// input list and the shard. merge-reports reads the blobs of every shard
// and replays them, in the unsharded run's log order, into the same
// report sinks, so the merged reports are the unsharded run's.
//
// The format is JSON lines: a header, then per log a "log" line (its
// index in the whole input list), its "call" lines and an "end" line, then
// a closing "totals" line (a blob without one was cut short).

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/replay"
)

// BlobFormat is the version of the blob format.
const BlobFormat = 1

// BlobHeader says which run wrote a blob: blobs merge only when everything
// but Shard agrees.
type BlobHeader struct {
	Type   string `json:"type"` // "dsh-replay-blob"
	Format int    `json:"format"`
	// Version is the dsh-replay version that wrote it.
	Version string `json:"version"`
	// Config hashes every option that changes results (--config and its
	// content, --plugin, --strict, --shake, --kaptinlin, --golden, ...).
	Config string `json:"config"`
	// Inputs hashes the whole input list (every shard's logs).
	Inputs string `json:"inputs"`
	// ShardK of ShardN (1/1 when unsharded).
	ShardK        int      `json:"shardK"`
	ShardN        int      `json:"shardN"`
	Deterministic bool     `json:"deterministic"`
	Strict        bool     `json:"strict"`
	ShowArgs      []string `json:"showArgs,omitempty"`
	PluginTools   []string `json:"pluginTools,omitempty"`
}

// blobLine is one line after the header.
type blobLine struct {
	T     string       `json:"t"` // log, call, end, totals
	Index int          `json:"i,omitempty"`
	File  string       `json:"file,omitempty"`
	Call  *blobCall    `json:"call,omitempty"`
	Log   *blobLog     `json:"log,omitempty"`
	Nanos int64        `json:"nanos,omitempty"`
	Count *blobCounter `json:"count,omitempty"`
}

type blobCounter struct {
	Logs, Calls int
}

// blobCall is a CallResult with its card encoded.
type blobCall struct {
	*replay.CallResult
	Entry *blobEntry `json:",omitempty"`
}

// blobLog is a LogResult without the log's bytes and header value, which
// no report reads.
type blobLog struct {
	*replay.LogResult
}

type blobEntry struct {
	Tool, CallID, Location string
	Args                   *string `json:",omitempty"` // jsonv.Encode; nil: undefined
	RawArgs                string
	CallView               *string `json:",omitempty"`
	CallFailure            string
	HasResult              bool
	Content                *string `json:",omitempty"`
	IsError                bool
	ErrorName, ErrorCode   string
	Synthetic              string
	ResultView             *string `json:",omitempty"`
	ResultFailure          string
	Subs                   []*blobEntry `json:",omitempty"`
}

func encodeValue(v jsonv.Value) *string {
	if v.IsUndefined() {
		return nil
	}
	s := jsonv.Encode(v)
	return &s
}

func decodeValue(s *string) (jsonv.Value, error) {
	if s == nil {
		return jsonv.Value{}, nil
	}
	return jsonv.ParseString(*s)
}

func encodeEntry(e *cards.Entry) *blobEntry {
	if e == nil {
		return nil
	}
	b := &blobEntry{Tool: e.Tool, CallID: e.CallID, Location: e.Location, Args: encodeValue(e.Args), RawArgs: e.RawArgs,
		CallFailure: e.CallFailure, HasResult: e.HasResult, Content: encodeValue(e.Content), IsError: e.IsError,
		ErrorName: e.ErrorName, ErrorCode: e.ErrorCode, Synthetic: e.Synthetic, ResultFailure: e.ResultFailure}
	if e.CallView != nil {
		b.CallView = encodeValue(cards.EncodeCallView(e.CallView))
	}
	if e.ResultView != nil {
		b.ResultView = encodeValue(cards.EncodeResultView(e.ResultView))
	}
	for _, s := range e.Subs {
		b.Subs = append(b.Subs, encodeEntry(s))
	}
	return b
}

func decodeEntry(b *blobEntry) (*cards.Entry, error) {
	if b == nil {
		return nil, nil
	}
	e := &cards.Entry{Tool: b.Tool, CallID: b.CallID, Location: b.Location, RawArgs: b.RawArgs,
		CallFailure: b.CallFailure, HasResult: b.HasResult, IsError: b.IsError,
		ErrorName: b.ErrorName, ErrorCode: b.ErrorCode, Synthetic: b.Synthetic, ResultFailure: b.ResultFailure}
	var err error
	if e.Args, err = decodeValue(b.Args); err != nil {
		return nil, fmt.Errorf("card args: %w", err)
	}
	if e.Content, err = decodeValue(b.Content); err != nil {
		return nil, fmt.Errorf("card content: %w", err)
	}
	if b.CallView != nil {
		v, err := decodeValue(b.CallView)
		if err != nil {
			return nil, fmt.Errorf("call view: %w", err)
		}
		e.CallView = cards.DecodeCallView(v)
	}
	if b.ResultView != nil {
		v, err := decodeValue(b.ResultView)
		if err != nil {
			return nil, fmt.Errorf("result view: %w", err)
		}
		e.ResultView = cards.DecodeResultView(v)
	}
	for _, s := range b.Subs {
		d, err := decodeEntry(s)
		if err != nil {
			return nil, err
		}
		e.Subs = append(e.Subs, d)
	}
	return e, nil
}

// BlobSink writes a blob; Index maps a log's path to its place in the
// whole input list (a block verify adds after a log, such as its card
// goldens, takes the log's place).
type BlobSink struct {
	w     *bufio.Writer
	enc   *json.Encoder
	index map[string]int
	last  int
	count blobCounter
	err   error
}

// NewBlob starts a blob with its header.
func NewBlob(w io.Writer, h BlobHeader, index map[string]int) *BlobSink {
	h.Type, h.Format = blobType, BlobFormat
	bw := bufio.NewWriterSize(w, 64<<10)
	s := &BlobSink{w: bw, enc: json.NewEncoder(bw), index: index}
	s.put(h)
	return s
}

const blobType = "dsh-replay-blob"

func (s *BlobSink) put(v any) {
	if s.err == nil {
		s.err = s.enc.Encode(v)
	}
}

func (s *BlobSink) BeginLog(file string) {
	if i, ok := s.index[file]; ok {
		s.last = i
	}
	s.put(blobLine{T: "log", Index: s.last, File: file})
}

func (s *BlobSink) Call(r *replay.CallResult) {
	s.count.Calls++
	resolveDiffs(r.Findings) // encoded by reflection
	s.put(blobLine{T: "call", Call: &blobCall{CallResult: r, Entry: encodeEntry(cardOf(r))}})
}

func (s *BlobSink) EndLog(l *replay.LogResult) {
	s.count.Logs++
	resolveDiffs(l.Findings)
	c := *l
	c.Data = nil
	if c.Summary != nil {
		sum := *c.Summary
		sum.Header = nil
		c.Summary = &sum
	}
	s.put(blobLine{T: "end", Log: &blobLog{&c}})
}

// Close writes the closing line with the run's duration.
func (s *BlobSink) Close(t *Totals) error {
	s.put(blobLine{T: "totals", Nanos: int64(t.Duration), Count: &s.count})
	if s.err != nil {
		return s.err
	}
	return s.w.Flush()
}

// BlobReader reads a blob back.
type BlobReader struct {
	Name   string
	Header BlobHeader
	dec    *json.Decoder
	line   int
	// Nanos is the run's duration, known at the closing line.
	Nanos int64
	done  bool
}

// OpenBlob reads a blob's header; name is used in errors.
func OpenBlob(name string, r io.Reader) (*BlobReader, error) {
	b := &BlobReader{Name: name, dec: json.NewDecoder(bufio.NewReaderSize(r, 64<<10))}
	b.line = 1
	if err := b.dec.Decode(&b.Header); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty, not a dsh-replay blob (verify --report blob=FILE)", name)
		}
		return nil, fmt.Errorf("%s:1: not a dsh-replay blob (verify --report blob=FILE): %v", name, err)
	}
	if b.Header.Type != blobType {
		return nil, fmt.Errorf("%s:1: not a dsh-replay blob (verify --report blob=FILE)", name)
	}
	if b.Header.Format != BlobFormat {
		return nil, fmt.Errorf("%s: blob format %d, this dsh-replay reads format %d", name, b.Header.Format, BlobFormat)
	}
	return b, nil
}

// BlobUnit is one log of a blob: its index in the whole input list and
// the results to hand the sinks.
type BlobUnit struct {
	Index int
	File  string
	Calls []replay.CallResult
	Log   *replay.LogResult
}

// Next reads the next log; nil at the end of a complete blob, an error
// (with the blob's name and line) for a damaged or cut-short one.
func (b *BlobReader) Next() (*BlobUnit, error) {
	var u *BlobUnit
	for {
		var l blobLine
		b.line++
		if err := b.dec.Decode(&l); err != nil {
			if errors.Is(err, io.EOF) {
				if u != nil || !b.done {
					return nil, fmt.Errorf("%s: cut short at line %d (no closing totals line): was the shard's verify interrupted?", b.Name, b.line)
				}
				return nil, nil
			}
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, fmt.Errorf("%s:%d: cut short in the middle of a line: was the shard's verify interrupted?", b.Name, b.line)
			}
			return nil, fmt.Errorf("%s:%d: %v", b.Name, b.line, err)
		}
		if b.done {
			return nil, fmt.Errorf("%s:%d: data after the closing totals line", b.Name, b.line)
		}
		switch {
		case l.T == "log" && u == nil:
			u = &BlobUnit{Index: l.Index, File: l.File}
		case l.T == "call" && u != nil && l.Call != nil && l.Call.CallResult != nil:
			r := *l.Call.CallResult
			e, err := decodeEntry(l.Call.Entry)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", b.Name, b.line, err)
			}
			if e != nil {
				r.View = &replay.View{Card: e}
			}
			u.Calls = append(u.Calls, r)
		case l.T == "end" && u != nil && l.Log != nil && l.Log.LogResult != nil:
			u.Log = l.Log.LogResult
			return u, nil
		case l.T == "totals" && u == nil:
			b.Nanos, b.done = l.Nanos, true
		default:
			return nil, fmt.Errorf("%s:%d: unexpected %q line", b.Name, b.line, l.T)
		}
	}
}

// Replay hands a unit to a sink as the run did.
func (u *BlobUnit) Replay(s replay.Sink) {
	s.BeginLog(u.File)
	for i := range u.Calls {
		s.Call(&u.Calls[i])
	}
	s.EndLog(u.Log)
}

func resolveDiffs(fs []replay.Finding) {
	for i := range fs {
		fs[i].ResolveDiff()
	}
}
