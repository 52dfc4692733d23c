package logformat

import (
	"bytes"
	"fmt"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Pairing events into calls:
// requested calls come from append-origin assistant/message tool-call
// blocks, started calls from tool/call, results from append-origin
// tool/result only (replacement copies are views of the same call), and Code
// Mode sub-calls from tool/code-dispatch-start / tool/code-dispatch keyed by
// subCallId under their root call.

// event dispatches one applied event.
func (rd *reader) event(rec *record, line int, seq int64) error {
	typ := rec.typ
	if !knownIn(typ, rd.version) {
		if rec.ignorable {
			rd.sum.IgnoredEvents++
			return nil
		}
		rd.sum.UnknownEvents++
		rd.notice(Notice{Line: line, Kind: "unknown-event", Msg: fmt.Sprintf("unknown event type %s is not marked ignorable", jsonv.Quote(typ))})
		return nil
	}
	if rd.version == formatAny {
		rd.streamEvidence(rec)
	}
	if rd.version >= 3 && !rec.surface && isSurfaceType(typ) {
		// Upstream's v3 edge: every surface event carries its surfaceOp.
		return rd.errorf(line, "corrupt session log: format %d %s without surfaceOp", rd.version, typ)
	}
	switch typ {
	case "assistant/attempt":
		rd.attemptCalls(rec.data, line)
	case "session/end-seed":
		if rec.data.Get("inherited").True() {
			rd.inheritedSeed = true
		}
	case "request/header", "system/message":
		if rec.migrated && rd.opts.Release == "" && rd.version > 2 {
			rd.release = FormatRelease(2)
		}
		// Team membership is durable: once shown, the session is a member's.
		rd.team = rd.team || rec.team
		if typ == "request/header" {
			if rd.opts.decodeMode() != decodeShapes && (rd.reqHeader == nil || !bytes.Equal(rd.reqHeader.raw, rec.header)) {
				rd.reqHeader = &RequestHeader{Line: line, raw: bytes.Clone(rec.header)}
			}
		}
		if rec.host != "" {
			rd.host = rec.host
			if rd.sum.Host == "" {
				rd.sum.Host = rec.host
			}
		}
	case "turn/start", "turn/end":
		if rd.format == fmtLog {
			rd.closeTurn()
		}
	case "assistant/message":
		if rec.replace {
			return nil
		}
		return rd.request(rec.data, line)
	case "tool/call":
		return rd.started(rec.data, line)
	case "tool/result":
		return rd.result(rec, line, seq)
	case "tool/code-dispatch-start", "tool/ptc-dispatch-start":
		return rd.subStart(rec.data, typ, line)
	case "tool/code-dispatch", "tool/ptc-dispatch":
		return rd.subSettle(rec.data, typ, line, seq)
	}
	return nil
}

func (rd *reader) newCall(id string) *Call {
	c := &Call{File: rd.file, CallID: id, Seq: -1, Host: rd.host, Format: max(rd.version, 0), Release: rd.release, Team: rd.team, Request: rd.reqHeader}
	rd.calls[id] = c
	if rd.chunkCalls != nil {
		delete(rd.chunkCalls, id)
	}
	rd.queue = append(rd.queue, c)
	return c
}

func intOf(v jsonv.Value) int {
	if v.IsInteger() {
		return int(v.Num())
	}
	return 0
}

// request records the tool-call blocks of an assistant/message.
func (rd *reader) request(d jsonv.Value, line int) error {
	msg := d.Get("message")
	content := msg.Get("content")
	if !msg.IsDefined() && d.Has("content") {
		content = d.Get("content") // legacy shape: content beside turn and step
	}
	if !content.IsArray() {
		return rd.errorf(line, "corrupt session log: assistant/message has invalid content")
	}
	turn, step := intOf(d.Get("turn")), intOf(d.Get("step"))
	for _, b := range content.Elems() {
		if b.Get("type").Str() != "tool-call" {
			continue
		}
		id := b.Get("id")
		if !id.IsString() {
			rd.notice(Notice{Line: line, Kind: "malformed-event", Msg: "assistant/message tool-call block without a string id"})
			continue
		}
		if _, dup := rd.calls[id.Str()]; dup {
			continue
		}
		c := rd.newCall(id.Str())
		c.Requested = true
		c.Name = b.Get("name").Str()
		c.RawArguments = b.Get("arguments").Str()
		c.Turn, c.Step = turn, step
		c.Line = line
	}
	return nil
}

// started records a tool/call.
func (rd *reader) started(d jsonv.Value, line int) error {
	id := d.Get("callId")
	if !id.IsString() {
		rd.notice(Notice{Line: line, Kind: "malformed-event", Msg: "tool/call without a string callId"})
		return nil
	}
	c := rd.calls[id.Str()]
	if c == nil {
		c = rd.newCall(id.Str())
	} else if c.Started {
		rd.notice(Notice{Line: line, Kind: "duplicate-call", Msg: fmt.Sprintf("second tool/call for call %s", jsonv.Quote(id.Str()))})
		return nil
	}
	c.Started = true
	c.CallLine = line
	if name := d.Get("name"); name.IsString() {
		c.Name = name.Str()
	}
	if args := d.Get("arguments"); args.IsString() {
		c.RawArguments = args.Str()
	}
	c.Turn, c.Step = intOf(d.Get("turn")), intOf(d.Get("step"))
	if !c.HasResult {
		c.Line = line
	}
	return nil
}

// synthetic names a harness-written result (an abort, or crash repair closing
// a call left pending) by its error code.
func synthetic(errv jsonv.Value) string {
	switch errv.Get("code").Str() {
	case "ABORTED":
		return "aborted"
	case "ABORTED_BEFORE_DISPATCH":
		return "aborted-before-dispatch"
	case "TOOL_OUTCOME_UNKNOWN":
		return "outcome-unknown"
	case "TOOL_NOT_STARTED":
		return "not-started"
	}
	return ""
}

// result records a tool/result: the settling result of an append-origin
// event, or a view for a replacement copy.
func (rd *reader) result(rec *record, line int, seq int64) error {
	d := rec.data
	var id string
	var content jsonv.Value
	var isError bool
	if msg := d.Get("message"); !msg.IsDefined() && d.Has("callId") && d.Has("content") && d.Has("isError") {
		// Legacy shape (logs before 2026-07-28; upstream's loader still
		// upgrades it): {turn, step, callId, content, isError, error?, meta?}.
		if !d.Get("callId").IsString() {
			return rd.errorf(line, "corrupt session log: legacy tool/result without a string callId")
		}
		id = d.Get("callId").Str()
		content = d.Get("content")
		isError = d.Get("isError").True()
	} else if rd.version >= 4 || rd.version == formatAny && msg.Get("role").Str() == "tool" {
		// Format 4: a tool-role message (upstream's assertV4ToolResultMessage).
		var err error
		if id, content, isError, err = rd.toolRoleResult(d, msg, line); err != nil {
			return err
		}
	} else {
		// The loader's assertMessageEventShape.
		if !d.IsObject() || !msg.IsObject() {
			return rd.errorf(line, "corrupt session log: tool/result lacks an identified message")
		}
		src := msg.Get("source")
		if src.Get("kind").Str() != "tool" || !src.Get("callId").IsString() || src.Get("callId").Str() == "" {
			return rd.errorf(line, "corrupt session log: tool/result message must have tool source")
		}
		blocks := msg.Get("content")
		block := blocks.At(0)
		if !blocks.IsArray() || blocks.Len() != 1 || block.Get("type").Str() != "tool-result" || !block.Get("content").IsArray() {
			return rd.errorf(line, "corrupt session log: tool/result message must contain one tool-result block")
		}
		id = src.Get("callId").Str()
		if !block.Get("toolCallId").IsString() || block.Get("toolCallId").Str() != id {
			return rd.errorf(line, "corrupt session log: tool/result message has mismatched tool call ids")
		}
		content = block.Get("content")
		isError = block.Get("isError").True()
		if rd.version == 3 && d.Has("error") && !isError {
			// Upstream's v2→v3 edge requires it of every error result.
			return rd.errorf(line, "corrupt session log: tool/result carries an error but isError is not true")
		}
	}

	c := rd.calls[id]
	if rec.replace {
		switch {
		case c != nil:
			c.Views = append(c.Views, ResultView{Line: line, Seq: seq, Content: content})
		case rd.done[id] || rd.views == nil:
			rd.notice(Notice{Line: line, Kind: "late-view", Msg: fmt.Sprintf("replacement copy of the result of call %s comes after the call was delivered (or the call is unknown)", jsonv.Quote(id))})
		default:
			rd.notice(Notice{Line: line, Kind: "unpaired-result", Msg: fmt.Sprintf("replacement tool/result for unknown call %s", jsonv.Quote(id))})
		}
		return nil
	}

	rd.sum.Results++
	if d.Has("meta") {
		rd.sum.ResultsWithMeta++
	}
	if d.Has("error") {
		rd.sum.ResultsWithErr++
	}
	if isError {
		rd.sum.ErrorResults++
	}
	if c == nil {
		rd.notice(Notice{Line: line, Kind: "unpaired-result", Msg: fmt.Sprintf("tool/result for call %s, which was neither requested nor started", jsonv.Quote(id))})
		c = rd.newCall(id)
		c.Turn, c.Step = intOf(d.Get("turn")), intOf(d.Get("step"))
	} else if c.HasResult {
		rd.notice(Notice{Line: line, Kind: "duplicate-result", Msg: fmt.Sprintf("second append-origin tool/result for call %s kept as a view", jsonv.Quote(id))})
		c.Views = append(c.Views, ResultView{Line: line, Seq: seq, Content: content})
		return nil
	}
	c.HasResult = true
	c.Line = line
	c.Seq = seq
	c.Content = content
	c.IsError = isError
	c.Error = d.Get("error")
	c.Meta = d.Get("meta")
	c.Value = d.Get("value")
	c.ContentReplaced = d.Get("contentReplaced").True()
	c.Synthetic = synthetic(c.Error)
	return nil
}

// streamEvidence raises the format a wrapped event stream (which has no
// header) shows by its events: format 2's assistant/attempt, format 3's
// system/message and ptc-dispatch, format 4's tool-role result,
// developer/message and agent/harness. Calls take it when delivered.
func (rd *reader) streamEvidence(rec *record) {
	f := 0
	switch rec.typ {
	case "assistant/attempt":
		f = 2
	case "system/message", "tool/ptc-dispatch", "tool/ptc-dispatch-start":
		f = 3
	case "developer/message", "agent/harness":
		f = 4
	case "tool/result":
		if rec.data.Get("message").Get("role").Str() == "tool" {
			f = 4
		}
	}
	if f > rd.streamFormat {
		rd.streamFormat = f
	}
	if rec.migrated {
		rd.streamMigrated = true
	}
}

// isSurfaceType names the events that put a message on the model's surface.
func isSurfaceType(typ string) bool {
	switch typ {
	case "user/message", "assistant/message", "tool/result", "system/message", "developer/message":
		return true
	}
	return false
}

// attemptCalls notes the tool calls a failed attempt streamed (format 2
// on: its stream is in assistant/attempt, as a retried response's chunks
// were top-level assistant/chunk events before): named by nothing later,
// they are calls without records.
func (rd *reader) attemptCalls(d jsonv.Value, line int) {
	for _, s := range d.Get("stream").Elems() {
		id := ""
		switch s.Get("type").Str() {
		case "tool-call-chunks":
			id = s.Get("id").Str()
		case "chunk":
			switch ch := s.Get("chunk"); ch.Get("type").Str() {
			case "tool-call-delta":
				id = ch.Get("id").Str()
			case "block-end":
				if b := ch.Get("block"); b.Get("type").Str() == "tool-call" {
					id = b.Get("id").Str()
				}
			}
		}
		if id != "" {
			rd.streamedCall(id, line)
		}
	}
}

// toolRoleResult reads a format 4 tool/result: its message has role
// "tool", a tool source, toolCallId equal to the source's callId, its own
// content blocks and isError (a boolean when present).
func (rd *reader) toolRoleResult(d, msg jsonv.Value, line int) (id string, content jsonv.Value, isError bool, err error) {
	if !d.IsObject() || !msg.IsObject() {
		return "", content, false, rd.errorf(line, "corrupt session log: tool/result lacks an identified message")
	}
	if msg.Get("role").Str() != "tool" {
		return "", content, false, rd.errorf(line, "corrupt session log: format 4 tool/result message must have role \"tool\"")
	}
	src := msg.Get("source")
	if src.Get("kind").Str() != "tool" || !src.Get("callId").IsString() || src.Get("callId").Str() == "" {
		return "", content, false, rd.errorf(line, "corrupt session log: tool/result message must have tool source")
	}
	id = src.Get("callId").Str()
	if tc := msg.Get("toolCallId"); !tc.IsString() || tc.Str() != id {
		return "", content, false, rd.errorf(line, "corrupt session log: tool/result message has mismatched tool call ids")
	}
	content = msg.Get("content")
	if !content.IsArray() {
		return "", content, false, rd.errorf(line, "corrupt session log: tool/result message content must be an array")
	}
	ie := msg.Get("isError")
	if ie.IsDefined() && !ie.IsBool() {
		return "", content, false, rd.errorf(line, "corrupt session log: tool/result isError must be a boolean")
	}
	if d.Has("error") && !ie.True() {
		return "", content, false, rd.errorf(line, "corrupt session log: tool/result carries an error but isError is not true")
	}
	return id, content, ie.True(), nil
}

// subStart records a tool/code-dispatch-start (tool/ptc-dispatch-start).
func (rd *reader) subStart(d jsonv.Value, typ string, line int) error {
	id := d.Get("subCallId")
	if !id.IsString() {
		rd.notice(Notice{Line: line, Kind: "malformed-event", Msg: typ + " without a string subCallId"})
		return nil
	}
	s := rd.subs[id.Str()]
	if s == nil {
		s = rd.newSub(d, id.Str(), line)
		if s == nil {
			return nil
		}
	}
	s.Started = true
	s.CallLine = line
	if !s.HasResult {
		s.Line = line
	}
	return nil
}

func (rd *reader) newSub(d jsonv.Value, id string, line int) *Call {
	rootID := d.Get("rootCallId").Str()
	root := rd.calls[rootID]
	if root == nil {
		rd.notice(Notice{Line: line, Kind: "orphan-subcall", Msg: fmt.Sprintf("Code Mode sub-call %s names root call %s, which is not open", jsonv.Quote(id), jsonv.Quote(rootID))})
		return nil
	}
	s := &Call{
		File: rd.file, CallID: id, Seq: -1, IsSubCall: true,
		RootCallID: rootID, ParentCallID: d.Get("parentCallId").Str(),
		Name: d.Get("name").Str(), Turn: root.Turn, Step: root.Step, Host: root.Host,
		Format: root.Format, Release: root.Release, Team: root.Team, Request: root.Request,
	}
	if args := d.Get("arguments"); args.IsDefined() {
		s.RawArguments = jsonv.Encode(args)
		s.Arguments = args
	}
	root.SubCalls = append(root.SubCalls, s)
	rd.subs[id] = s
	return s
}

// subSettle records a tool/code-dispatch (tool/ptc-dispatch): the
// sub-call's result.
func (rd *reader) subSettle(d jsonv.Value, typ string, line int, seq int64) error {
	id := d.Get("subCallId")
	if !id.IsString() {
		rd.notice(Notice{Line: line, Kind: "malformed-event", Msg: typ + " without a string subCallId"})
		return nil
	}
	s := rd.subs[id.Str()]
	if s == nil {
		s = rd.newSub(d, id.Str(), line)
		if s == nil {
			return nil
		}
	}
	if s.HasResult {
		rd.notice(Notice{Line: line, Kind: "duplicate-result", Msg: fmt.Sprintf("second %s for sub-call %s", typ, jsonv.Quote(id.Str()))})
		return nil
	}
	s.HasResult = true
	s.Line = line
	s.Seq = seq
	s.Content = d.Get("content")
	s.IsError = d.Get("isError").True()
	s.Error = d.Get("error")
	s.Meta = d.Get("meta")
	s.Value = d.Get("value")
	s.ContentReplaced = d.Get("contentReplaced").True()
	s.Synthetic = synthetic(s.Error)
	return nil
}

// closeTurn marks every open call without a result as final: a turn
// boundary means it will not get one (upstream's repair resets its pending
// set at turn/start).
func (rd *reader) closeTurn() {
	for i := rd.head; i < len(rd.queue); i++ {
		if c := rd.queue[i]; !c.HasResult {
			rd.final[c] = true
		}
	}
}

// complete reports whether the call at the head can be delivered.
func (rd *reader) complete(c *Call) bool {
	if rd.final[c] {
		return true
	}
	if !c.HasResult {
		return false
	}
	if rd.views != nil && rd.views[c.CallID] > len(c.Views) {
		return false
	}
	return true
}

// flush delivers the calls at the head of the queue that are complete.
func (rd *reader) flush() error {
	for rd.head < len(rd.queue) {
		c := rd.queue[rd.head]
		if !rd.complete(c) {
			break
		}
		rd.queue[rd.head] = nil
		rd.head++
		delete(rd.calls, c.CallID)
		delete(rd.final, c)
		if err := rd.deliver(c); err != nil {
			rd.stopErr = err
			return err
		}
	}
	if rd.head > 64 && rd.head*2 > len(rd.queue) {
		n := copy(rd.queue, rd.queue[rd.head:])
		clear(rd.queue[n:])
		rd.queue = rd.queue[:n]
		rd.head = 0
	}
	return nil
}

func (rd *reader) finalize(c *Call) {
	if !c.HasResult {
		c.Interrupted = true
	}
	if !c.IsSubCall {
		if args, err := jsonv.ParseString(c.RawArguments); err != nil {
			c.ArgumentsError = err.Error()
		} else {
			c.Arguments = args
		}
	} else if !c.Arguments.IsDefined() {
		c.ArgumentsError = "sub-call has no recorded arguments"
	}
	if rd.side != nil {
		if sv, ok := rd.side.claim(c.CallID); ok && !c.Value.IsDefined() {
			c.Value = sv.value
			c.ValueUnrecordable = sv.unrecordable
			if sv.contentReplaced {
				c.ContentReplaced = true
			}
		}
	}
	if rd.version == formatAny {
		c.Format = rd.streamFormat
		if rd.opts.Release == "" {
			c.Release = FormatRelease(c.Format)
			if rd.streamMigrated && c.Format > 2 {
				c.Release = FormatRelease(2)
			}
		}
	}
	if c.Value.IsDefined() {
		rd.sum.Values++
	}
}

func (rd *reader) deliver(c *Call) error {
	rd.finalize(c)
	for _, s := range c.SubCalls {
		delete(rd.subs, s.CallID)
		rd.finalize(s)
	}
	rd.sum.Calls++
	rd.sum.SubCalls += len(c.SubCalls)
	if rd.views != nil && rd.views[c.CallID] > len(c.Views) {
		if rd.done == nil {
			rd.done = map[string]bool{}
		}
		rd.done[c.CallID] = true
	}
	return rd.fn(c)
}
