package logformat

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"sync"
	"unsafe"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// lineFormat is the kind of line-oriented file being read.
type lineFormat uint8

const (
	fmtLog           lineFormat = iota // a session log: header line, then storage records
	fmtStreamJSON                      // headless --output stream-json: {"type":"session_event","event":{...}}
	fmtNotifications                   // JSON-RPC: {"method":"session.event","params":{"event":{...}}}
)

func (f lineFormat) String() string {
	switch f {
	case fmtStreamJSON:
		return "stream-json"
	case fmtNotifications:
		return "notifications"
	}
	return "session-log"
}

type recKind uint8

const (
	recEvent  recKind = iota // one session event
	recPacked                // a packed chunk row standing for n assistant/chunk events
	recSkip                  // a wrapper line that carries no event
)

// record is what one physical line decodes to. Decoding is pure (workers run
// it in parallel); the reader applies records in order.
type record struct {
	kind recKind
	// mode: what decoding keeps of result payloads.
	mode decodeMode
	// bad: the line does not parse, or is a malformed packed row. Upstream's
	// scanner treats it as the start of a droppable tail, or as corruption when
	// a later record ends a turn.
	bad string
	// invalid: the record parses but its envelope or payload is not a valid
	// event; upstream's loader refuses the whole session.
	invalid   string
	typ       string
	seq       int64
	hasSeq    bool
	n         int // events: 1, or the members of a packed row
	turnEnd   bool
	ignorable bool
	replace   bool // surfaceOp is a replace op
	appendOp  bool // surfaceOp is "append"
	surface   bool // the envelope has a surfaceOp
	data      jsonv.Value
	// host is the harness a request/header's system prompt names.
	host string
	// migrated: a system/message upstream's v2→v3 edge made (its id), so
	// the log was first written in format 2 or older.
	migrated bool
	team     bool   // request/header: IsTeamMember
	header   []byte // request/header: its data, in the line's buffer
	// toolChunk is the call id of a streamed tool-call chunk (a delta, a
	// tool-call block end, or a packed tool-call-chunks row).
	toolChunk string
	// walked: a chunk's data was read where it lies, in the pass that
	// checks it; after a syntax error the line is decoded again with slow
	// set (each value checked whole first), which words errors as always.
	walked, slow bool
}

// Event types whose data the pairing needs in full.
func needsData(typ string) bool {
	switch typ {
	case "assistant/message", "tool/call", "tool/result", "tool/code-dispatch-start", "tool/code-dispatch",
		"tool/ptc-dispatch-start", "tool/ptc-dispatch", "assistant/attempt", "session/end-seed":
		return true
	}
	return false
}

func isPackedTag(typ string) bool {
	return typ == "text-chunks" || typ == "reasoning-chunks" || typ == "tool-call-chunks"
}

// intern lists the strings internString shares: first the event types of
// DSH (a superset of LasmeX's) plus the legacy steering/message that the
// loader upgrades to user/message (the first knownTypeCount entries), then
// common keys and values. A literal of constants, so it costs no init.
var intern = []string{
	"agent-preset/selected", "agent/inbox/spliced", "approval/asked", "approval/decided",
	"approval/policy", "assistant/chunk", "assistant/message", "command/done", "command/run",
	"compaction/end", "compaction/prune", "compaction/start", "compaction/summary", "feedback/record",
	"goal/change", "hook/invoked", "hook/result", "llm/retry", "llm/retry-started",
	"permission/preset", "plan/mode", "request/context", "request/header", "sandbox/mode",
	"schedule/change", "session/end-seed", "session/title", "session/title-llm-request", "step/end",
	"step/start", "subagent/descriptor", "team/member", "team/message/delivered",
	"team/message/queued", "team/task", "todo/write", "tool-workflow/agent-end",
	"tool-workflow/agent-start", "tool-workflow/run-end", "tool-workflow/run-start", "tool/call",
	"tool/code-dispatch", "tool/code-dispatch-start", "tool/result", "turn/end", "turn/start",
	"user/message", "web/deepseek-search-llm-request", "steering/message",
	"text-chunks", "reasoning-chunks", "tool-call-chunks", "session", "session_event", "result",
	"turn", "step", "message", "content", "meta", "value", "error", "contentReplaced", "callId",
	"name", "arguments", "id", "role", "source", "kind", "type", "toolCallId", "isError", "text",
	"rootCallId", "parentCallId", "subCallId", "usage", "provenance", "tool-result", "tool-call",
	"tool", "model", "append", "session.event", "block-start", "block-end", "finish",
	"tool-call-delta", "text-delta", "reasoning-delta",
	// Event types of later formats (knownIn says which): interned, not v0's.
	"system/message", "tool/ptc-dispatch", "tool/ptc-dispatch-start", "assistant/attempt",
	"developer/message", "agent/harness", "subagent/catalog",
}

const knownTypeCount = 49

// The intern table is built on first use, so commands that read no log do
// not pay for it. The table is a slot's first string and
// the next string of each (1 + an index into intern; 0 ends the chain):
// 1.1 KB, where slices of strings took 24 KB of pages to touch.
var (
	internHead [1 << 10]uint8
	internNext [128]uint8
	internOnce sync.Once
)

// isKnownType looks typ up in the intern table, whose first
// knownTypeCount strings are the event types (no map hash per event).
func isKnownType(typ string) bool {
	internOnce.Do(buildIntern)
	for i := internHead[internSlot(unsafe.Slice(unsafe.StringData(typ), len(typ)))]; i != 0; i = internNext[i-1] {
		if intern[i-1] == typ {
			return i-1 < knownTypeCount
		}
	}
	return false
}

func buildIntern() {
	if len(intern) > len(internNext) {
		panic("logformat: the intern list outgrew its table")
	}
	for i := len(intern) - 1; i >= 0; i-- {
		h := internSlot([]byte(intern[i]))
		internNext[i] = internHead[h]
		internHead[h] = uint8(i + 1)
	}
}

// internSlot hashes a key by its length and outer bytes: cheaper than a map
// lookup for the handful of short keys every line has.
func internSlot(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	return (len(b)*131 + int(b[0])*31 + int(b[len(b)-1])*7 + int(b[len(b)/2])) & (len(internHead) - 1)
}

// internString returns a shared copy of common strings (no allocation).
func internString(b []byte) string {
	internOnce.Do(buildIntern)
	for i := internHead[internSlot(b)]; i != 0; i = internNext[i-1] {
		if s := intern[i-1]; s == string(b) {
			return s
		}
	}
	return string(b)
}

// stringValue reads the current value as a string; ok is false when it is not one.
func stringValue(r *jsonv.ObjectReader) (string, bool) {
	if r.First() != '"' {
		r.Skip()
		return "", false
	}
	raw := r.RawValue()
	if raw == nil {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	for _, c := range inner {
		if c == '\\' {
			v, err := jsonv.Parse(raw)
			if err != nil {
				return "", false
			}
			return v.Str(), true
		}
	}
	return internString(inner), true
}

const maxSafe = 1<<53 - 1

// safeInt reads a raw JSON value as Number.isSafeInteger would see it.
func safeInt(raw []byte) (int64, bool) {
	if len(raw) == 0 {
		return 0, false
	}
	c := raw[0]
	if c != '-' && (c < '0' || c > '9') {
		return 0, false
	}
	if len(raw) <= 16 {
		simple := true
		var n int64
		digits := raw
		neg := c == '-'
		if neg {
			digits = raw[1:]
		}
		for _, c := range digits {
			d := c - '0'
			if d > 9 {
				simple = false
				break
			}
			n = n*10 + int64(d)
		}
		if simple && n <= maxSafe {
			if neg {
				n = -n
			}
			return n, true
		}
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	if f != math.Trunc(f) || math.Abs(f) > maxSafe || math.IsInf(f, 0) {
		return 0, false
	}
	return int64(f), true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func isNumber(first byte) bool { return first == '-' || (first >= '0' && first <= '9') }

// decodeMode is what decoding keeps of a result's payloads (its value,
// meta and content).
type decodeMode uint8

const (
	// decodeLazy checks them and decodes them on first use.
	decodeLazy decodeMode = iota
	// decodeEager decodes values now, in the decoding workers, rather than
	// again on first use: for consumers that read every value, such as
	// verify (Options.DecodeValues).
	decodeEager
	// decodeShapes checks them and keeps only their kind (an empty value
	// of it): for consumers that count and never read them, such as
	// calls --summary (Options.ShapesOnly). The line is not copied.
	decodeShapes
)

// decodeMode is the Options' payload mode.
func (o Options) decodeMode() decodeMode {
	switch {
	case o.ShapesOnly:
		return decodeShapes
	case o.DecodeValues:
		return decodeEager
	}
	return decodeLazy
}

// decodeLine decodes one body line of a file of the given format.
func decodeLine(format lineFormat, mode decodeMode, line []byte, rec *record) {
	*rec = record{mode: mode}
	switch format {
	case fmtStreamJSON:
		decodeWrapped(line, rec, "type", "session_event", "event", "")
	case fmtNotifications:
		decodeWrapped(line, rec, "method", "session.event", "params", "event")
	default:
		decodeEvent(line, rec)
	}
}

// decodeWrapped unwraps an event stream line: {tagKey: tagValue, outer: event}
// or {tagKey: tagValue, outer: {inner: event}}. The event object is decoded
// where it lies, in the pass that checks the line; on any error, or an event
// that is not an object, decodeWrappedRaw does it again as it always did
// (the wrapper checked whole, then the event decoded from its raw bytes),
// so that results and error messages are its own.
func decodeWrapped(line []byte, rec *record, tagKey, tagValue, outer, inner string) {
	mode := rec.mode
	r := jsonv.NewObjectReader(line, true)
	if !r.IsObject() {
		decodeWrappedRaw(line, rec, tagKey, tagValue, outer, inner)
		return
	}
	var tag string
	decoded := false // rec holds the latest event
	raw := false     // a layout left to decodeWrappedRaw
	for !raw && r.Next() {
		switch string(r.Key()) {
		case tagKey:
			tag, _ = stringValue(&r)
		case outer:
			// Decoded whatever the tag so far: the last tag decides.
			decoded = false
			switch {
			case inner == "":
				decoded = decodeEventAt(&r, rec)
				raw = !decoded
			default:
				p, ok := r.EnterObject()
				if !ok {
					r.Skip()
					continue
				}
				for !raw && p.Next() {
					if string(p.Key()) == inner {
						decoded = decodeEventAt(&p, rec)
						raw = !decoded
					} else {
						p.Skip()
					}
				}
				if !raw {
					r.LeaveObject(&p)
				}
			}
		default:
			r.Skip()
		}
	}
	switch {
	case raw || r.Err() != nil || (decoded && rec.bad != ""):
		decodeWrappedRaw(line, rec, tagKey, tagValue, outer, inner)
	case tag != tagValue || !decoded:
		*rec = record{mode: mode, kind: recSkip}
	}
}

// decodeEventAt decodes the event at r's current value where it lies; false,
// having read nothing, when it is not an object.
func decodeEventAt(r *jsonv.ObjectReader, rec *record) bool {
	sub, ok := r.EnterObject()
	if !ok {
		return false
	}
	*rec = record{mode: rec.mode}
	decodeEventMembers(&sub, rec)
	r.LeaveObject(&sub)
	return true
}

// decodeWrappedRaw is decodeWrapped by the raw bytes: the wrapper is
// checked whole, then the event is decoded on its own.
func decodeWrappedRaw(line []byte, rec *record, tagKey, tagValue, outer, inner string) {
	*rec = record{mode: rec.mode}
	r := jsonv.NewObjectReader(line, true)
	if !r.IsObject() {
		if err := jsonv.ValidStrict(line); err != nil {
			rec.bad = "unparsable record: " + err.Error()
			return
		}
		rec.bad = "record is not a JSON object"
		return
	}
	var tag string
	var ev []byte
	for r.Next() {
		switch string(r.Key()) {
		case tagKey:
			tag, _ = stringValue(&r)
		case outer:
			ev = r.RawValue()
		default:
			r.Skip()
		}
	}
	if err := r.Err(); err != nil {
		rec.bad = "unparsable record: " + err.Error()
		return
	}
	if tag != tagValue || ev == nil {
		rec.kind = recSkip
		return
	}
	if inner != "" {
		p := jsonv.NewObjectReader(ev, true)
		ev = nil
		for p.Next() {
			if string(p.Key()) == inner {
				ev = p.RawValue()
			} else {
				p.Skip()
			}
		}
		if ev == nil {
			rec.kind = recSkip
			return
		}
	}
	decodeEvent(ev, rec)
}

// decodeEvent decodes one storage record: an event or a packed chunk row.
func decodeEvent(line []byte, rec *record) {
	r := jsonv.NewObjectReader(line, true)
	if !r.IsObject() {
		if err := jsonv.ValidStrict(line); err != nil {
			rec.bad = "unparsable record: " + err.Error()
			return
		}
		// JSON.parse succeeds but no event can be read from it.
		rec.bad = "record is not a JSON object"
		return
	}
	decodeEventMembers(&r, rec)
	if rec.walked && rec.bad != "" {
		*rec = record{mode: rec.mode, slow: true}
		r = jsonv.NewObjectReader(line, true)
		decodeEventMembers(&r, rec)
		rec.slow = false
	}
}

// decodeEventMembers decodes the members of an event object from r.
func decodeEventMembers(r *jsonv.ObjectReader, rec *record) {
	rec.n = 1
	var (
		typeSeen, dataSeen bool
		dataRaw            []byte
		extra              string
		timeBad            bool
		time0              int64
		seqKey             string
		packed             packedInfo
	)
	for r.Next() {
		key := r.Key()
		switch string(key) {
		case "type":
			s, ok := stringValue(r)
			if !ok {
				rec.invalid = "event type is not a string"
			}
			rec.typ = s
			typeSeen = true
			if isPackedTag(s) {
				rec.kind = recPacked
			}
		case "seq", "seq0":
			seqKey = "seq" // the key as a constant, not a copy per line
			if len(key) == 4 {
				seqKey = "seq0"
			}
			raw := r.RawValue()
			if n, ok := safeInt(raw); ok && n >= 0 {
				rec.seq, rec.hasSeq = n, true
			} else {
				rec.seq, rec.hasSeq = -1, true
			}
		case "time", "time0":
			n, ok := safeInt(r.RawValue())
			time0 = n
			if !ok {
				timeBad = true
			}
		case "data":
			dataSeen = true
			switch {
			case !typeSeen:
				dataRaw = r.RawValue()
			case rec.kind == recPacked:
				decodePacked(r, rec, &packed)
			case rec.typ == "turn/end":
				rec.turnEnd = true
				r.Skip()
			case rec.typ == "assistant/chunk":
				if rec.slow || !hasToolCallTag(r.Rest()) {
					rec.toolChunk = toolChunkID(r.RawValue())
					break
				}
				rec.toolChunk, rec.walked = toolChunkAt(r), true
			case rec.typ == "request/header" || rec.typ == "system/message":
				// v3 on: the system prompt is a system/message.
				raw := r.RawValue()
				rec.host = HostOfSystemPrompt(raw)
				rec.team = IsTeamMember(raw)
				if rec.typ == "request/header" {
					rec.header = raw
				}
				rec.migrated = rec.typ == "system/message" && bytes.Contains(raw, migratedSystemID)
			case needsData(rec.typ):
				rec.data = decodeData(r, rec.typ, rec.mode, &rec.bad)
			default:
				r.Skip()
			}
		case "surfaceOp":
			rec.surface = true
			if r.First() == '"' {
				s, _ := stringValue(r)
				rec.appendOp = s == "append"
			} else {
				v := r.Parse()
				rec.replace = v.IsObject() && v.Get("op").Str() == "replace"
			}
		case "sourceEventSeqs":
			r.Skip()
		case "ignorable":
			raw := r.RawValue()
			if string(raw) == "true" {
				rec.ignorable = true
			} else if raw != nil {
				rec.invalid = "event envelope has ignorable other than true"
			}
		default:
			if extra == "" {
				extra = string(key)
			}
			r.Skip()
		}
	}
	if err := r.Err(); err != nil {
		rec.bad = "unparsable record: " + err.Error()
		return
	}
	if rec.kind == recPacked {
		if dataRaw != nil && rec.bad == "" {
			// data came before type: decode it now.
			p := jsonv.NewObjectReader(append(append([]byte(`{"data":`), dataRaw...), '}'), true)
			if p.Next() {
				decodePacked(&p, rec, &packed)
			}
		}
		if rec.bad != "" {
			return
		}
		// Upstream's validateRow: the envelope is exactly {type, seq0, time0, data}
		// (a projected row may lack seq0 and time0; they are filled in as upstream's
		// replay parser does).
		bad := ""
		switch {
		case extra != "" || (seqKey != "" && seqKey != "seq0"):
			bad = "envelope must be exactly {type, seq0, time0, data}"
		case rec.hasSeq && rec.seq < 0:
			bad = "seq0 must be a non-negative safe integer"
		case timeBad:
			bad = "time0 must be a safe integer"
		case !dataSeen:
			bad = "data must be an object"
		case rec.hasSeq && rec.seq+int64(packed.members)-1 > maxSafe:
			bad = "member seqs must stay safe integers"
		case time0+packed.minSum < -maxSafe || time0+packed.maxSum > maxSafe:
			bad = "member times must stay safe integers"
		}
		if bad != "" {
			rec.bad = "malformed " + rec.typ + " storage row: " + bad
			return
		}
		rec.n = packed.members
		return
	}
	if !typeSeen {
		rec.invalid = "event has no type"
	}
	if dataRaw != nil && typeSeen {
		switch {
		case rec.typ == "turn/end":
			rec.turnEnd = true
		case needsData(rec.typ):
			p := jsonv.NewObjectReader(append(append([]byte(`{"data":`), dataRaw...), '}'), true)
			if p.Next() {
				rec.data = decodeData(&p, rec.typ, rec.mode, &rec.bad)
			}
		}
	}
	if rec.invalid == "" {
		switch {
		case extra != "":
			rec.invalid = "invalid event envelope: unexpected key " + strconv.Quote(extra)
		case seqKey == "seq0":
			rec.invalid = "invalid event envelope: unexpected key \"seq0\""
		case !dataSeen:
			rec.invalid = "invalid event envelope: data is missing"
		case timeBad:
			rec.invalid = "invalid event envelope: time must be a safe integer"
		}
	}
}

// packedInfo is what decodePacked learns about a row's data.
type packedInfo struct {
	members        int
	minSum, maxSum int64 // extremes of the running dt sums (for the time bound)
}

// decodePacked validates a packed row's data (upstream validateRow, strict)
// without building it.
func decodePacked(r *jsonv.ObjectReader, rec *record, info *packedInfo) {
	tag := rec.typ
	malformed := func(why string) {
		if rec.bad == "" {
			rec.bad = "malformed " + tag + " storage row: " + why
		}
	}
	sub, ok := r.EnterObject()
	if !ok {
		r.Skip()
		malformed("data must be an object")
		return
	}
	const (
		kTurn = 1 << iota
		kStep
		kIndex
		kDt
		kPayload
		kID
		kName
	)
	payloadKey := "texts"
	if tag == "tool-call-chunks" {
		payloadKey = "args"
	}
	var (
		seen, dup           int
		extra               bool
		numsOK, idOK        = true, true
		payloadOK, dtOK     = true, true
		members, dtLen      = -1, -1
		sum, minSum, maxSum int64
		sumOverflow         bool
	)
	for sub.Next() {
		k := sub.Key()
		bit := 0
		switch string(k) {
		case "turn":
			bit = kTurn
		case "step":
			bit = kStep
		case "index":
			bit = kIndex
		case "dt":
			bit = kDt
		case payloadKey:
			bit = kPayload
		case "id":
			if tag == "tool-call-chunks" {
				bit = kID
			}
		case "name":
			if tag == "tool-call-chunks" {
				bit = kName
			}
		}
		if bit == 0 {
			extra = true
			sub.Skip()
			continue
		}
		dup |= seen & bit
		seen |= bit
		switch bit {
		case kTurn, kStep, kIndex:
			if !isNumber(sub.First()) {
				numsOK = false
			}
			sub.Skip()
		case kID, kName:
			if sub.First() != '"' {
				idOK = false
				sub.Skip()
			} else if bit == kID {
				if v, err := jsonv.Parse(sub.RawValue()); err == nil {
					rec.toolChunk = v.Str()
				}
			} else {
				sub.Skip()
			}
		case kPayload:
			arr, ok := sub.EnterArray()
			if !ok {
				payloadOK = false
				sub.Skip()
				continue
			}
			members = 0
			for arr.Next() {
				if arr.First() != '"' {
					payloadOK = false
				}
				arr.Skip()
				members++
			}
			sub.LeaveArray(&arr)
		case kDt:
			arr, ok := sub.EnterArray()
			if !ok {
				dtOK = false
				sub.Skip()
				continue
			}
			dtLen = 0
			sum, minSum, maxSum = 0, 0, 0
			for arr.Next() {
				n, ok := safeInt(arr.RawValue())
				if !ok {
					dtOK = false
				}
				sum += n
				if sum > 2*maxSafe || sum < -2*maxSafe {
					sumOverflow = true
				}
				minSum, maxSum = min(minSum, sum), max(maxSum, sum)
				dtLen++
			}
			sub.LeaveArray(&arr)
		}
	}
	r.LeaveObject(&sub)
	if r.Err() != nil {
		return
	}
	want := kTurn | kStep | kIndex | kDt | kPayload
	if tag == "tool-call-chunks" {
		want |= kID
	}
	exact := !extra && dup == 0 && seen&want == want
	switch {
	case !exact && tag == "tool-call-chunks":
		malformed("data must be exactly {turn, step, index, id, name?, dt, args}")
	case !exact:
		malformed("data must be exactly {turn, step, index, dt, texts}")
	case !idOK:
		malformed("id (and name when present) must be strings")
	case !numsOK:
		malformed("turn/step/index must be numbers")
	case !payloadOK || members <= 0:
		malformed(payloadKey + " must be a non-empty string array")
	case !dtOK:
		malformed("dt must be an array of safe integers")
	case dtLen != members-1:
		malformed("dt length " + strconv.Itoa(dtLen) + " does not match " + strconv.Itoa(members) + " members")
	case sumOverflow:
		malformed("member times must stay safe integers")
	}
	info.members, info.minSum, info.maxSum = members, minSum, maxSum
}

// decodeData builds what the pairing needs from a call event's data, in one
// pass that still checks all of it: small members are parsed, a result's
// content, meta and value become lazy values (decoded when a consumer looks
// at them), and an assistant message keeps only its tool-call blocks.
func decodeData(r *jsonv.ObjectReader, typ string, mode decodeMode, bad *string) jsonv.Value {
	if mode != decodeShapes {
		switch typ {
		case "tool/result", "tool/code-dispatch", "tool/ptc-dispatch":
			// Most of the line is kept (content, meta, value): one copy of
			// it is shared by all of them.
			r.ShareSource()
		}
	}
	payload := func(r *jsonv.ObjectReader) jsonv.Value {
		if mode == decodeShapes {
			return shapeOf(r.RawValue())
		}
		return jsonv.Lazy(r.RawValueString(), true)
	}
	value := func(r *jsonv.ObjectReader) jsonv.Value {
		if mode == decodeEager {
			return r.Parse()
		}
		return payload(r)
	}
	switch typ {
	case "tool/result":
		return decodeMembers(r, func(k string, r *jsonv.ObjectReader) (jsonv.Value, bool) {
			switch k {
			case "value":
				return value(r), true
			case "meta":
				return payload(r), true
			case "content": // legacy shape: the result blocks at the top
				return payload(r), true
			case "message":
				return decodeMembers(r, func(k string, r *jsonv.ObjectReader) (jsonv.Value, bool) {
					if k != "content" {
						return r.Parse(), true
					}
					if !startsWithWrapper(r.Rest()) {
						// Format 4: the result's own blocks, kept as the
						// wrapper's content is.
						return payload(r), true
					}
					return decodeElems(r, func(a *jsonv.ArrayReader) (jsonv.Value, bool) {
						sub, ok := a.EnterObject()
						if !ok {
							return a.Parse(), true
						}
						v := collectMembers(&sub, func(k string, r *jsonv.ObjectReader) (jsonv.Value, bool) {
							if k == "content" {
								return payload(r), true
							}
							return r.Parse(), true
						})
						a.LeaveObject(&sub)
						return v, true
					}), true
				}), true
			}
			return r.Parse(), true
		})
	case "tool/code-dispatch", "tool/ptc-dispatch":
		return decodeMembers(r, func(k string, r *jsonv.ObjectReader) (jsonv.Value, bool) {
			switch k {
			case "value":
				return value(r), true
			case "content", "meta":
				return payload(r), true
			}
			return r.Parse(), true
		})
	case "assistant/message":
		blocks := func(r *jsonv.ObjectReader) jsonv.Value {
			return decodeElems(r, func(a *jsonv.ArrayReader) (jsonv.Value, bool) {
				// Only tool-call blocks are kept, each copied on its own: the
				// reasoning and text around them are most of the line. Built
				// now, not lazily: pairing looks inside every one at once.
				raw := a.RawValue()
				if !bytes.Contains(raw, toolCallType) {
					return jsonv.Value{}, false
				}
				v, _ := jsonv.Parse(raw) // checked already
				return v, true
			})
		}
		return decodeMembers(r, func(k string, r *jsonv.ObjectReader) (jsonv.Value, bool) {
			switch k {
			case "message":
				return decodeMembers(r, func(k string, r *jsonv.ObjectReader) (jsonv.Value, bool) {
					if k == "content" {
						return blocks(r), true
					}
					r.Skip()
					return jsonv.Value{}, false
				}), true
			case "content": // legacy shape
				return blocks(r), true
			case "turn", "step", "provenance":
				return r.Parse(), true
			case "stream": // format 2 on
				if why := checkStream(r); why != "" && *bad == "" {
					*bad = "malformed assistant/message stream: " + why
				}
				return jsonv.Value{}, false
			}
			r.Skip()
			return jsonv.Value{}, false
		})
	}
	return r.Parse()
}

var toolCallType = []byte(`"tool-call"`)

// startsWithWrapper reports whether a tool/result message's content may
// hold a tool-result wrapper (formats 0-3), which is decoded block by block;
// any other content (format 4's own blocks: [{"type":"text", ...) is kept
// whole. Only the canonical first bytes of a non-wrapper block decide so:
// anything unusual takes the block-by-block way, which reads every shape.
func startsWithWrapper(rest []byte) bool {
	const head = `[{"type":"`
	if len(rest) < len(head) || string(rest[:len(head)]) != head {
		return true
	}
	rest = rest[len(head):]
	return len(rest) >= len(`tool-result"`) && string(rest[:len(`tool-result"`)]) == `tool-result"`
}

// shapeOf is an empty value of the kind of the checked JSON raw (what
// decodeShapes keeps of a payload); undefined when raw is nil (a syntax
// error, which the reader reports).
func shapeOf(raw []byte) jsonv.Value {
	if len(raw) == 0 {
		return jsonv.Value{}
	}
	switch raw[0] {
	case '{':
		return jsonv.Obj()
	case '[':
		return jsonv.Arr()
	case '"':
		return jsonv.Str("")
	case 't':
		return jsonv.BoolValue(true)
	case 'f':
		return jsonv.BoolValue(false)
	case 'n':
		return jsonv.NullValue()
	}
	return jsonv.Num(0)
}

// decodeMembers reads the current value of r as an object, letting member
// decide each member (keep=false drops it); a non-object is parsed as is.
func decodeMembers(r *jsonv.ObjectReader, member func(string, *jsonv.ObjectReader) (jsonv.Value, bool)) jsonv.Value {
	sub, ok := r.EnterObject()
	if !ok {
		return r.Parse()
	}
	v := collectMembers(&sub, member)
	r.LeaveObject(&sub)
	if r.Err() != nil {
		return jsonv.Value{}
	}
	return v
}

func collectMembers(sub *jsonv.ObjectReader, member func(string, *jsonv.ObjectReader) (jsonv.Value, bool)) jsonv.Value {
	// Built on the stack and copied out at its size: one allocation per object.
	var stack [16]jsonv.Member
	ms := stack[:0]
	for sub.Next() {
		k := internString(sub.Key())
		v, keep := member(k, sub)
		if !keep {
			continue
		}
		dup := false
		for i := range ms {
			if ms[i].Key == k {
				ms[i].Value = v // JSON.parse: last value wins, first position kept
				dup = true
				break
			}
		}
		if !dup {
			ms = append(ms, jsonv.M(k, v))
		}
	}
	return jsonv.Obj(slices.Clone(ms)...)
}

// decodeElems reads the current value of r as an array, letting elem decide
// each element (keep=false drops it); a non-array is parsed as is.
func decodeElems(r *jsonv.ObjectReader, elem func(*jsonv.ArrayReader) (jsonv.Value, bool)) jsonv.Value {
	arr, ok := r.EnterArray()
	if !ok {
		return r.Parse()
	}
	var out []jsonv.Value
	for arr.Next() {
		if v, keep := elem(&arr); keep {
			out = append(out, v)
		}
	}
	r.LeaveArray(&arr)
	if r.Err() != nil {
		return jsonv.Value{}
	}
	return jsonv.Arr(out...)
}

var toolCallTag = []byte(`"tool-call`)

// hasToolCallTag is bytes.Contains(data, toolCallTag).
func hasToolCallTag(data []byte) bool { return containsFrom(data, toolCallTag, len(`"tool`)) }

// containsFrom is bytes.Contains(data, needle), searching for needle[k:]
// first: a quote, the first byte of the needles here, is in every JSON
// line many times over, and bytes.Index falls back to comparing at every
// byte when its first byte is that common (1-2 GB/s, against the vector
// byte search's 10+ for a rarer one).
func containsFrom(data, needle []byte, k int) bool {
	head, tail := needle[:k], needle[k:]
	for i := k; i < len(data); {
		j := bytes.Index(data[i:], tail)
		if j < 0 {
			return false
		}
		if at := i + j; string(data[at-k:at]) == string(head) {
			return true
		}
		i += j + 1
	}
	return false
}

// containsPair is bytes.Contains(data, needle), searching for the pair of
// bytes at needle[k:k+2] (jsonv.IndexPair), one rare in JSON text.
func containsPair(data, needle []byte, k int) bool {
	for i := 0; i < len(data); {
		j := jsonv.IndexPair(data[i:], needle[k], needle[k+1])
		if j < 0 {
			return false
		}
		if at := i + j - k; at >= 0 && at+len(needle) <= len(data) && string(data[at:at+len(needle)]) == string(needle) {
			return true
		}
		i += j + 1
	}
	return false
}

// toolChunkAt is toolChunkID of r's current value, read where it lies (one
// pass that also checks it, where toolChunkID's data was checked first and
// then walked again).
func toolChunkAt(r *jsonv.ObjectReader) string {
	start := r.Offset()
	data, ok := r.EnterObject()
	if !ok {
		r.Skip()
		return ""
	}
	id, decided := "", false
	for data.Next() {
		if decided || string(data.Key()) != "chunk" {
			data.Skip()
			continue
		}
		decided = true // the first chunk member decides, as in toolChunkID
		if ch, ok := data.EnterObject(); ok {
			id = chunkCallID(&ch, "tool-call-delta")
			data.LeaveObject(&ch)
		} else {
			data.Skip()
		}
	}
	r.LeaveObject(&data)
	if id != "" && (r.Err() != nil || !hasToolCallTag(r.Input()[start:r.Offset()])) {
		id = "" // toolChunkID looks only at data that holds the tag
	}
	return id
}

// toolChunkID is the call id of an assistant/chunk's data when the chunk
// streams a tool call (tool-call-delta, or block-end of a tool-call block).
// It walks the raw members instead of parsing: chunk lines are most of a
// log.
func toolChunkID(data []byte) string {
	if !hasToolCallTag(data) {
		return ""
	}
	// Strict, though data is checked already: a lenient reader's Key checks
	// every key's UTF-8 again.
	r := jsonv.NewObjectReader(data, true)
	for r.Next() {
		if string(r.Key()) != "chunk" {
			r.Skip()
			continue
		}
		ch, ok := r.EnterObject()
		if !ok {
			return ""
		}
		return chunkCallID(&ch, "tool-call-delta")
	}
	return ""
}

// chunkCallID reads {type, id} of a chunk (type want), or of the block of a
// block-end chunk (type tool-call).
func chunkCallID(r *jsonv.ObjectReader, want string) string {
	var typ, id string
	for r.Next() {
		switch string(r.Key()) {
		case "type":
			typ, _ = stringValue(r)
		case "id":
			id, _ = stringValue(r)
		case "block":
			if want == "tool-call-delta" {
				if b, ok := r.EnterObject(); ok {
					if bid := chunkCallID(&b, "tool-call"); bid != "" {
						id, typ = bid, "block-end"
					}
					r.LeaveObject(&b)
					continue
				}
			}
			r.Skip()
		default:
			r.Skip()
		}
	}
	switch {
	case typ == want:
		return id
	case want == "tool-call-delta" && typ == "block-end":
		return id
	}
	return ""
}

// The hosts' default identity lines (system-prompt's first section); LasmeX
// lets a deployment replace its own, so its absence proves nothing.
var (
	dshIdentity    = []byte(`You are an AI agent powered by DeepSeek Harness.`)
	lasmexIdentity = []byte(`You are an AI agent powered by LasmeX.`)
)

// teamPolicy opens the system-prompt section tool-agent-team registers in
// every Team member's scope (its POLICY text).
var teamPolicy = []byte(`Agent Teams is available in this session, but create teammates only when the user explicitly asks to use Agent Teams or teammates.`)

// IsTeamMember reports whether a request header's raw JSON is a DSH Agent
// Teams member's (its system prompt has the team policy section).
func IsTeamMember(raw []byte) bool { return bytes.Contains(raw, teamPolicy) }

// Definitions a request header can show that differ from the pinned ones
// and that a log tells apart by what the header declares, not by release
// (their releases are not established): a call is replayed by the
// definition the newest request header before it declared.
const (
	// VariantAskTimed: ask_user_question declares "timeout" (tool-ask-user's
	// opt-in mode: timed; upstream's user-questions fold decides a call's
	// mode the same way).
	VariantAskTimed = "ask-timed"
	// VariantPlanDetails: exit_plan_mode declares "details" (plan-mode's
	// implementation-detail annex).
	VariantPlanDetails = "plan-details"
)

// headerVariants are the variants by tool and the parameter that shows one.
var headerVariants = []struct{ variant, tool, param string }{
	{VariantAskTimed, "ask_user_question", "timeout"},
	{VariantPlanDetails, "exit_plan_mode", "details"},
}

// HeaderVariants lists the variants a request/header's raw data declares.
func HeaderVariants(raw []byte) []string {
	h := &RequestHeader{raw: raw}
	var out []string
	for _, hv := range headerVariants {
		out = append(out, h.Variants(hv.tool)...)
	}
	return out
}

// HostOfSystemPrompt is the host a request header's raw JSON names through
// its default identity line: "dsh", "lasmex" or "".
func HostOfSystemPrompt(raw []byte) string {
	switch {
	case bytes.Contains(raw, dshIdentity):
		return "dsh"
	case bytes.Contains(raw, lasmexIdentity):
		return "lasmex"
	}
	return ""
}
