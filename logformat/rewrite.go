package logformat

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Rewriting a log in place re-records the content and meta of some calls
// while keeping every other byte: only the byte spans of the result's
// content blocks (data.message.content[0].content, format 4's
// data.message.content, the legacy data.content, or a code-dispatch's or
// ptc-dispatch's data.content) and of data.meta inside
// the settling lines change; every other line, and every zstd frame that
// holds no edited line, is copied verbatim.

// Edit re-records the fields of one call's settling event.
type Edit struct {
	// Line is the 1-based physical line of the settling event (Call.Line:
	// the append-origin tool/result, or the tool/code-dispatch of a sub-call).
	Line int
	// CallID is checked against the event on that line (subCallId for a
	// sub-call), so a stale line number can never edit the wrong call.
	CallID  string
	SubCall bool
	// Content, when defined, replaces the result's content blocks.
	Content jsonv.Value
	// SetMeta re-records the meta field: it becomes Meta, or is removed
	// when Meta is undefined (null is a value and is written).
	SetMeta bool
	Meta    jsonv.Value
}

// Rewrite applies edits to the bytes of a log (plain JSONL or chained zstd
// frames) and returns the new bytes: RewriteStream over the bytes, the edits
// sorted by line. name is used in errors. A log with
// no edits comes back unchanged (the same slice).
func Rewrite(name string, data []byte, edits []Edit) ([]byte, error) {
	if len(edits) == 0 {
		return data, nil
	}
	es := append([]Edit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Line < es[j].Line })
	i := 0
	next := func() (Edit, bool, error) {
		if i == len(es) {
			return Edit{}, false, nil
		}
		i++
		return es[i-1], true, nil
	}
	var out bytes.Buffer
	out.Grow(len(data))
	if err := RewriteStream(name, bytes.NewReader(data), &out, next); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// rewriteText applies the edits that fall on lines of text, whose first
// line is line number first. format is the log's line format (nil: take it
// from line 1, which must then be in text). It returns the new text and
// how many edits it applied (edits are sorted by line; those beyond text
// are left to the caller).
func rewriteText(name string, text []byte, es []Edit, first int, format *lineFormat) ([]byte, int, error) {
	var out []byte
	copied, done := 0, 0
	line, pos := first, 0
	var f lineFormat
	if format != nil {
		f = *format
	}
	for pos < len(text) && done < len(es) {
		end := bytes.IndexByte(text[pos:], '\n')
		if end < 0 {
			// A final line without a newline is a torn write: never edited.
			break
		}
		end += pos
		if line == 1 && format == nil {
			var err error
			if f, err = sniffFormat(text[pos:end]); err != nil {
				return nil, 0, &Error{File: name, Line: 1, Msg: "rewrite: " + err.Error()}
			}
		}
		if es[done].Line == line {
			nl, err := editLine(text[pos:end], f, es[done])
			if err != nil {
				return nil, 0, &Error{File: name, Line: line, Msg: "rewrite: " + err.Error()}
			}
			if out == nil {
				out = make([]byte, 0, len(text)+len(nl)-(end-pos)+64)
			}
			out = append(out, text[copied:pos]...)
			out = append(out, nl...)
			copied = end // the newline is copied with what follows
			done++
		}
		pos = end + 1
		line++
	}
	if out == nil {
		return text, done, nil
	}
	return append(out, text[copied:]...), done, nil
}

// sniffFormat recognises the log format from its first line, as the reader
// does: a session header, a stream-json or a notifications stream.
func sniffFormat(first []byte) (lineFormat, error) {
	v, err := jsonv.Parse(bytes.TrimRight(first, " \t\r"))
	if err != nil || !v.IsObject() {
		return fmtLog, errors.New("the first line is not a session header")
	}
	switch {
	case v.Get("type").Str() == "session":
		return fmtLog, nil
	case v.Get("type").Str() == "session_event" && v.Has("event"):
		return fmtStreamJSON, nil
	case v.Get("method").IsString() && (strings.HasPrefix(v.Get("method").Str(), "session.") || strings.HasPrefix(v.Get("method").Str(), "subagent.")):
		return fmtNotifications, nil
	}
	return fmtLog, errors.New("the first line is not a session header")
}

// member is one object member's byte spans.
type member struct {
	key                string
	keyStart, valStart int
	valEnd             int
}

// objectAt lists the members of the object whose '{' is at b[i]; close is
// the index of its '}'.
func objectAt(b []byte, i int) (ms []member, close int, err error) {
	if i >= len(b) || b[i] != '{' {
		return nil, 0, errors.New("not an object")
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return nil, i, nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, 0, errors.New("malformed object")
		}
		ke, err := jsonv.SkipValue(b, i, false)
		if err != nil {
			return nil, 0, err
		}
		key, err := decodeKey(b[i:ke])
		if err != nil {
			return nil, 0, err
		}
		j := skipSpace(b, ke)
		if j >= len(b) || b[j] != ':' {
			return nil, 0, errors.New("malformed object")
		}
		vs := skipSpace(b, j+1)
		ve, err := jsonv.SkipValue(b, vs, false)
		if err != nil {
			return nil, 0, err
		}
		ms = append(ms, member{key: key, keyStart: i, valStart: vs, valEnd: ve})
		i = skipSpace(b, ve)
		if i >= len(b) {
			return nil, 0, errors.New("unterminated object")
		}
		switch b[i] {
		case '}':
			return ms, i, nil
		case ',':
			i = skipSpace(b, i+1)
		default:
			return nil, 0, errors.New("malformed object")
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func decodeKey(raw []byte) (string, error) {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), nil
	}
	v, err := jsonv.Parse(raw)
	if err != nil {
		return "", err
	}
	return v.Str(), nil
}

// last is the member JSON.parse keeps for key (the last one), or nil.
func last(ms []member, key string) *member {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].key == key {
			return &ms[i]
		}
	}
	return nil
}

// splice is one byte replacement in a line.
type splice struct {
	start, end int
	text       string
}

// editLine applies one edit to the bytes of one line (without its newline).
func editLine(line []byte, f lineFormat, e Edit) ([]byte, error) {
	evStart := skipSpace(line, 0)
	// Wrapped streams carry the event inside the record.
	switch f {
	case fmtStreamJSON, fmtNotifications:
		outer, inner := "event", ""
		if f == fmtNotifications {
			outer, inner = "params", "event"
		}
		ms, _, err := objectAt(line, evStart)
		if err != nil {
			return nil, err
		}
		m := last(ms, outer)
		if m == nil {
			return nil, errors.New("the record holds no event")
		}
		evStart = m.valStart
		if inner != "" {
			ms, _, err := objectAt(line, evStart)
			if err != nil {
				return nil, err
			}
			if m = last(ms, inner); m == nil {
				return nil, errors.New("the record holds no event")
			}
			evStart = m.valStart
		}
	}
	ev, _, err := objectAt(line, evStart)
	if err != nil {
		return nil, err
	}
	var typ string
	if m := last(ev, "type"); m != nil {
		if v, err := jsonv.Parse(line[m.valStart:m.valEnd]); err == nil {
			typ = v.Str()
		}
	}
	want := "tool/result"
	if e.SubCall {
		want = "tool/code-dispatch"
		if typ == "tool/ptc-dispatch" { // format 3 on
			want = typ
		}
	}
	if typ != want {
		return nil, fmt.Errorf("expected a %s event for call %s, found %s", want, jsonv.Quote(e.CallID), jsonv.Quote(typ))
	}
	dm := last(ev, "data")
	if dm == nil {
		return nil, errors.New("the event has no data object")
	}
	data, dclose, err := objectAt(line, dm.valStart)
	if err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	dv, err := jsonv.Parse(line[dm.valStart:dm.valEnd])
	if err != nil {
		return nil, err
	}

	// Locate the content array the reader took, checking the call id.
	var content *member
	var id string
	switch {
	case e.SubCall:
		id = dv.Get("subCallId").Str()
		content = last(data, "content")
	case !dv.Get("message").IsDefined() && dv.Has("callId") && dv.Has("content") && dv.Has("isError"):
		id = dv.Get("callId").Str()
		content = last(data, "content")
	default:
		id = dv.Path("message", "source", "callId").Str()
		mm := last(data, "message")
		if mm == nil {
			return nil, errors.New("the result has no message")
		}
		msg, _, err := objectAt(line, mm.valStart)
		if err != nil {
			return nil, fmt.Errorf("message: %w", err)
		}
		bm := last(msg, "content")
		if bm == nil || line[bm.valStart] != '[' {
			return nil, errors.New("the result message has no content blocks")
		}
		if dv.Path("message", "role").Str() == "tool" {
			// Format 4: the message's own blocks are the content (it is
			// re-recorded in place, never as a format 3 wrapper).
			content = bm
			break
		}
		b0 := skipSpace(line, bm.valStart+1)
		block, _, err := objectAt(line, b0)
		if err != nil {
			return nil, fmt.Errorf("tool-result block: %w", err)
		}
		content = last(block, "content")
	}
	if id != e.CallID {
		return nil, fmt.Errorf("the event is for call %s, not %s", jsonv.Quote(id), jsonv.Quote(e.CallID))
	}

	var sp []splice
	if e.Content.IsDefined() {
		if content == nil {
			return nil, errors.New("the result has no content to re-record")
		}
		sp = append(sp, splice{content.valStart, content.valEnd, jsonv.Stringify(e.Content)})
	}
	if e.SetMeta {
		sp = append(sp, metaSplices(line, data, dclose, e.Meta)...)
	}
	sort.Slice(sp, func(i, j int) bool { return sp[i].start < sp[j].start })
	out := make([]byte, 0, len(line)+256)
	pos := 0
	for _, s := range sp {
		if s.start < pos {
			return nil, errors.New("overlapping edits")
		}
		out = append(out, line[pos:s.start]...)
		out = append(out, s.text...)
		pos = s.end
	}
	out = append(out, line[pos:]...)
	if err := checkEdited(out, f, e); err != nil {
		return nil, err
	}
	return out, nil
}

// metaSplices sets or removes data.meta. A new meta goes before the
// dsh-replay extension fields (value, contentReplaced) where upstream's
// writer would have put it, else at the end of data; duplicate meta keys
// are all removed so that JSON.parse's last-wins sees exactly the new one.
func metaSplices(line []byte, data []member, dclose int, meta jsonv.Value) []splice {
	var sp []splice
	idx := -1
	for i := len(data) - 1; i >= 0; i-- {
		if data[i].key == "meta" {
			idx = i
			break
		}
	}
	if meta.IsDefined() && idx >= 0 {
		m := data[idx]
		sp = append(sp, splice{m.valStart, m.valEnd, jsonv.Stringify(meta)})
	}
	// Remove every other meta member (all of them when meta goes away).
	for i, m := range data {
		if m.key != "meta" || (meta.IsDefined() && i == idx) {
			continue
		}
		switch {
		case i > 0:
			sp = append(sp, splice{data[i-1].valEnd, m.valEnd, ""})
		case len(data) > 1:
			sp = append(sp, splice{m.keyStart, data[1].keyStart, ""})
		default:
			sp = append(sp, splice{m.keyStart, m.valEnd, ""})
		}
	}
	if meta.IsDefined() && idx < 0 {
		text := `"meta":` + jsonv.Stringify(meta)
		at := -1
		for i, m := range data {
			if m.key == "value" || m.key == "contentReplaced" {
				at = i
				break
			}
		}
		switch {
		case at >= 0:
			sp = append(sp, splice{data[at].keyStart, data[at].keyStart, text + ","})
		case len(data) > 0:
			end := data[len(data)-1].valEnd
			sp = append(sp, splice{end, end, "," + text})
		default:
			sp = append(sp, splice{dclose, dclose, text})
		}
	}
	return mergeRemovals(sp)
}

// mergeRemovals drops overlapping removals of adjacent duplicate members
// (a removal that starts inside an earlier one is widened into it).
func mergeRemovals(sp []splice) []splice {
	sort.SliceStable(sp, func(i, j int) bool { return sp[i].start < sp[j].start })
	var out []splice
	for _, s := range sp {
		if n := len(out); n > 0 && s.start < out[n-1].end {
			p := &out[n-1]
			if s.end > p.end {
				p.end = s.end
			}
			p.text += s.text
			continue
		}
		out = append(out, s)
	}
	return out
}

// checkEdited re-reads the edited line as the log reader would and checks
// that it now holds exactly the edit.
func checkEdited(line []byte, f lineFormat, e Edit) error {
	v, err := jsonv.Parse(line)
	if err != nil {
		return fmt.Errorf("the edited line is not valid JSON (this is a bug): %v", err)
	}
	switch f {
	case fmtStreamJSON:
		v = v.Get("event")
	case fmtNotifications:
		v = v.Path("params", "event")
	}
	d := v.Get("data")
	var content jsonv.Value
	switch {
	case e.SubCall:
		content = d.Get("content")
	case !d.Get("message").IsDefined() && d.Has("callId") && d.Has("content") && d.Has("isError"):
		content = d.Get("content")
	case d.Get("message").Get("role").Str() == "tool":
		content = d.Get("message").Get("content")
	default:
		content = d.Get("message").Get("content").At(0).Get("content")
	}
	if e.Content.IsDefined() && !jsonv.Equal(content, e.Content) {
		return errors.New("the edited line does not hold the new content (this is a bug)")
	}
	if e.SetMeta {
		m := d.Get("meta")
		if m.IsDefined() != e.Meta.IsDefined() || (m.IsDefined() && !jsonv.Equal(m, e.Meta)) {
			return errors.New("the edited line does not hold the new meta (this is a bug)")
		}
	}
	return nil
}

// zframe is one zstd frame of a chained-frame log.
type zframe struct {
	start, end int    // compressed span
	text       []byte // decoded text (complete frames only)
	torn       bool
}
