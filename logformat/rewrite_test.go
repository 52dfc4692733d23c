package logformat

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/zstd"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

const rwHeader = `{"type":"session","version":0,"id":"s","createdAt":0}`

func textBlocks(s string) jsonv.Value {
	return jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", jsonv.Str(s))))
}

// v4Result is a format 4 tool/result line with dataTail after its message.
func v4Result(dataTail string) string {
	return `{"type":"tool/result","seq":1,"time":0,"data":{"turn":1,"step":1,"message":{"role":"tool","source":{"kind":"tool","callId":"c1"},"toolCallId":"c1","content":[{"type":"text","text":"old"}],"isError":false,"id":"r"}` + dataTail + `},"sourceEventSeqs":[0],"surfaceOp":"append"}`
}

func TestRewriteLine(t *testing.T) {
	newContent := textBlocks("new")
	meta := jsonv.MustParse(`{"a":1}`)
	current := func(dataTail string) string {
		return `{"type":"tool/result","seq":1,"time":0,"data":{"turn":1,"step":1,"message":{"source":{"kind":"tool","callId":"c1"},"content":[{"type":"tool-result","toolCallId":"c1","content":[{"type":"text","text":"old"}],"isError":false}],"role":"user","id":"r"}` + dataTail + `},"surfaceOp":"append"}`
	}
	tests := []struct {
		name   string
		header string
		line   string
		edit   Edit
		want   string
		err    string
	}{
		{name: "content only", line: current(`,"value":1`), edit: Edit{CallID: "c1", Content: newContent},
			want: strings.Replace(current(`,"value":1`), `"text":"old"`, `"text":"new"`, 1)},
		{name: "meta replaced", line: current(`,"meta":{"b":2},"value":1`), edit: Edit{CallID: "c1", SetMeta: true, Meta: meta},
			want: current(`,"meta":{"a":1},"value":1`)},
		{name: "meta inserted before value", line: current(`,"value":1,"contentReplaced":true`), edit: Edit{CallID: "c1", SetMeta: true, Meta: meta},
			want: current(`,"meta":{"a":1},"value":1,"contentReplaced":true`)},
		{name: "meta inserted at the end", line: current(``), edit: Edit{CallID: "c1", SetMeta: true, Meta: jsonv.NullValue()},
			want: current(`,"meta":null`)},
		{name: "meta removed", line: current(`,"meta":null,"value":1`), edit: Edit{CallID: "c1", SetMeta: true},
			want: current(`,"value":1`)},
		{name: "duplicate meta keys all go", line: current(`,"meta":1,"meta":2,"value":1`), edit: Edit{CallID: "c1", SetMeta: true},
			want: current(`,"value":1`)},
		{name: "duplicate meta keys: the last is replaced", line: current(`,"meta":1,"value":1,"meta":2`), edit: Edit{CallID: "c1", SetMeta: true, Meta: meta},
			want: current(`,"value":1,"meta":{"a":1}`)},
		{name: "escaped key names", line: current(`,"m\u0065ta":1`), edit: Edit{CallID: "c1", SetMeta: true},
			want: current(``)},
		{name: "content and meta together", line: current(`,"meta":1`), edit: Edit{CallID: "c1", Content: newContent, SetMeta: true, Meta: meta},
			want: strings.Replace(current(`,"meta":{"a":1}`), `"text":"old"`, `"text":"new"`, 1)},
		{name: "spaced JSON keeps its spacing",
			line: `{ "type" : "tool/code-dispatch" , "data" : { "subCallId" : "c1:code:1" , "meta" : 1 , "content" : [ ] , "value" : 2 } }`,
			edit: Edit{CallID: "c1:code:1", SubCall: true, Content: newContent, SetMeta: true},
			want: `{ "type" : "tool/code-dispatch" , "data" : { "subCallId" : "c1:code:1" , "content" : [{"type":"text","text":"new"}] , "value" : 2 } }`},
		{name: "meta as first member removed",
			line: `{"type":"tool/code-dispatch","data":{"meta":1,"subCallId":"s","content":[]}}`,
			edit: Edit{CallID: "s", SubCall: true, SetMeta: true},
			want: `{"type":"tool/code-dispatch","data":{"subCallId":"s","content":[]}}`},
		{name: "legacy shape",
			line: `{"type":"tool/result","data":{"turn":1,"step":1,"callId":"c1","content":[{"type":"text","text":"old"}],"isError":false,"value":3}}`,
			edit: Edit{CallID: "c1", Content: newContent, SetMeta: true, Meta: meta},
			want: `{"type":"tool/result","data":{"turn":1,"step":1,"callId":"c1","content":[{"type":"text","text":"new"}],"isError":false,"meta":{"a":1},"value":3}}`},
		{name: "stream-json wrapper", header: `{"type":"session_event","event":{"type":"turn/start","data":{}}}`,
			line: `{"type":"session_event","event":{"type":"tool/code-dispatch","data":{"subCallId":"s","content":[]}}}`,
			edit: Edit{CallID: "s", SubCall: true, Content: newContent},
			want: `{"type":"session_event","event":{"type":"tool/code-dispatch","data":{"subCallId":"s","content":[{"type":"text","text":"new"}]}}}`},
		{name: "notifications wrapper", header: `{"method":"session.event","params":{"event":{"type":"turn/start","data":{}}}}`,
			line: `{"method":"session.event","params":{"event":{"type":"tool/code-dispatch","data":{"subCallId":"s","content":[]}}}}`,
			edit: Edit{CallID: "s", SubCall: true, SetMeta: true, Meta: meta},
			want: `{"method":"session.event","params":{"event":{"type":"tool/code-dispatch","data":{"subCallId":"s","content":[],"meta":{"a":1}}}}}`},
		{name: "lone surrogate and number lexemes elsewhere are kept",
			line: `{"type":"tool/code-dispatch","data":{"subCallId":"s","n":1.50,"x":"\ud800","content":[]}}`,
			edit: Edit{CallID: "s", SubCall: true, Content: textBlocks("\u00e9")},
			want: `{"type":"tool/code-dispatch","data":{"subCallId":"s","n":1.50,"x":"\ud800","content":[{"type":"text","text":"é"}]}}`},
		{name: "format 4 tool-role message", header: `{"type":"session","version":4,"id":"s","createdAt":0,"isSeeded":false,"delegationDepth":0}`,
			line: v4Result(`,"meta":{"b":2},"value":1`), edit: Edit{CallID: "c1", Content: newContent, SetMeta: true, Meta: meta},
			want: strings.Replace(v4Result(`,"meta":{"a":1},"value":1`), `"text":"old"`, `"text":"new"`, 1)},
		{name: "format 4 meta inserted", header: `{"type":"session","version":4,"id":"s","createdAt":0,"isSeeded":false,"delegationDepth":0}`,
			line: v4Result(``), edit: Edit{CallID: "c1", SetMeta: true, Meta: meta},
			want: v4Result(`,"meta":{"a":1}`)},
		{name: "format 3 ptc-dispatch",
			line: `{"type":"tool/ptc-dispatch","seq":5,"time":0,"data":{"rootCallId":"c1","parentCallId":"c1","subCallId":"c1:ptc:1","name":"read","arguments":{},"isError":false,"content":[{"type":"text","text":"old"}],"meta":1}}`,
			edit: Edit{CallID: "c1:ptc:1", SubCall: true, Content: newContent, SetMeta: true},
			want: `{"type":"tool/ptc-dispatch","seq":5,"time":0,"data":{"rootCallId":"c1","parentCallId":"c1","subCallId":"c1:ptc:1","name":"read","arguments":{},"isError":false,"content":[{"type":"text","text":"new"}]}}`},
		{name: "wrong call id", line: current(``), edit: Edit{CallID: "c2", Content: newContent}, err: `not "c2"`},
		{name: "wrong event type", line: current(``), edit: Edit{CallID: "c1", SubCall: true, Content: newContent}, err: "expected a tool/code-dispatch"},
		{name: "not JSON", line: `{"type":`, edit: Edit{CallID: "c1", Content: newContent}, err: "rewrite"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.header
			if h == "" {
				h = rwHeader
			}
			tail := "{\"type\":\"turn/end\"}\r\npartial"
			in := h + "\n" + tt.line + "\n" + tail
			tt.edit.Line = 2
			out, err := rewriteBoth(t, "x.jsonl", []byte(in), []Edit{tt.edit})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				var le *Error
				if !errors.As(err, &le) || le.Line != 2 {
					t.Errorf("want an *Error on line 2, got %#v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := h + "\n" + tt.want + "\n" + tail
			if string(out) != want {
				t.Errorf("got\n%s\nwant\n%s", out, want)
			}
		})
	}
}

func TestRewriteNoEditsKeepsBytes(t *testing.T) {
	in := []byte(rwHeader + "\nanything at all\n")
	out, err := Rewrite("x", in, nil)
	if err != nil || &out[0] != &in[0] {
		t.Fatalf("want the same slice back, err %v", err)
	}
}

func TestRewriteRefusals(t *testing.T) {
	in := rwHeader + "\n" + `{"type":"tool/code-dispatch","data":{"subCallId":"s","content":[]}}` + "\n" + `{"type":"tool/code-dispatch","data":{"subCallId":"t","content":[]}}`
	e := Edit{CallID: "s", SubCall: true, Content: textBlocks("x")}
	for name, edits := range map[string][]Edit{
		"header line":      {{Line: 1, CallID: "s", SubCall: true}},
		"same line twice":  {withLine(e, 2), withLine(e, 2)},
		"torn last line":   {{Line: 3, CallID: "t", SubCall: true, Content: textBlocks("x")}},
		"past the end":     {withLine(e, 9)},
		"content to a bad": {{Line: 2, CallID: "s", SubCall: true, Content: textBlocks("x"), SetMeta: true}},
	} {
		_, err := rewriteBoth(t, "x", []byte(in), edits)
		if name == "content to a bad" {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

func withLine(e Edit, line int) Edit { e.Line = line; return e }

// frame compresses one batch of lines as an independent checksummed frame.
func frame(t testing.TB, text string) []byte {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll([]byte(text), nil)
}

func decodeAll(t *testing.T, b []byte) string {
	frames, err := splitZstdFrames("x", b)
	if err != nil {
		t.Fatal(err)
	}
	var s strings.Builder
	for _, f := range frames {
		s.Write(f.text)
	}
	return s.String()
}

func TestRewriteZstd(t *testing.T) {
	l := func(id string) string {
		return `{"type":"tool/code-dispatch","data":{"subCallId":"` + id + `","content":[]}}` + "\n"
	}
	f0 := frame(t, rwHeader+"\n")
	f1 := frame(t, l("a")+l("b"))
	f2 := frame(t, l("c"))
	// A line split across two frames (frame boundaries need not be line boundaries).
	split := l("d")
	f3 := frame(t, split[:20])
	f4 := frame(t, split[20:]+l("e"))
	data := bytes.Join([][]byte{f0, f1, f2, f3, f4}, nil)
	edit := func(line int, id string) Edit {
		return Edit{Line: line, CallID: id, SubCall: true, Content: textBlocks("new " + id)}
	}

	t.Run("untouched frames are copied verbatim", func(t *testing.T) {
		out, err := rewriteBoth(t, "x", data, []Edit{edit(4, "c")})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(out, bytes.Join([][]byte{f0, f1}, nil)) || !bytes.HasSuffix(out, bytes.Join([][]byte{f3, f4}, nil)) {
			t.Error("frames without an edit changed")
		}
		want := rwHeader + "\n" + l("a") + l("b") + strings.Replace(l("c"), "[]", `[{"type":"text","text":"new c"}]`, 1) + split + l("e")
		if got := decodeAll(t, out); got != want {
			t.Errorf("decoded\n%s\nwant\n%s", got, want)
		}
		if frames, _ := splitZstdFrames("x", out); len(frames) != 5 {
			t.Errorf("want 5 frames, got %d", len(frames))
		}
	})
	t.Run("a line across frames re-encodes the group as one frame", func(t *testing.T) {
		out, err := rewriteBoth(t, "x", data, []Edit{edit(5, "d"), edit(6, "e")})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(out, bytes.Join([][]byte{f0, f1, f2}, nil)) {
			t.Error("frames before the edit changed")
		}
		frames, _ := splitZstdFrames("x", out)
		if len(frames) != 4 {
			t.Errorf("want 4 frames, got %d", len(frames))
		}
		if got := decodeAll(t, out); !strings.Contains(got, `"new d"`) || !strings.Contains(got, `"new e"`) {
			t.Errorf("edits missing: %s", got)
		}
	})
	t.Run("torn final frame is kept and never edited", func(t *testing.T) {
		torn := frame(t, l("f"))
		in := append(append([]byte(nil), data...), torn[:len(torn)-6]...)
		out, err := rewriteBoth(t, "x", in, []Edit{edit(2, "a")})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasSuffix(out, torn[:len(torn)-6]) {
			t.Error("torn frame not kept")
		}
		if _, err := rewriteBoth(t, "x", in, []Edit{edit(7, "f")}); err == nil {
			t.Error("an edit in the torn frame must fail")
		}
	})
	t.Run("corrupt frame", func(t *testing.T) {
		bad := append([]byte(nil), data...)
		bad[len(f0)+len(f1)-2] ^= 0xff // the checksum of frame 1
		if _, err := rewriteBoth(t, "x", bad, []Edit{edit(4, "c")}); err == nil {
			t.Error("want a checksum error")
		}
	})
	t.Run("reads back through the reader", func(t *testing.T) {
		out, err := rewriteBoth(t, "x", data, []Edit{edit(3, "b")})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(decodeAll(t, out), `"new b"`) {
			t.Error("edit missing")
		}
	})
}

func FuzzRewrite(f *testing.F) {
	f.Add(`{"type":"tool/result","data":{"message":{"source":{"callId":"c"},"content":[{"content":[]}]},"meta":1}}`, "c", false, true, true)
	f.Add(`{"type":"tool/code-dispatch","data":{"subCallId":"c","content":[],"meta":1,"meta":2}}`, "c", true, false, true)
	f.Add(`{"type":"tool/result","data":{"callId":"c","content":[],"isError":false}}`, "c", false, true, false)
	f.Fuzz(func(t *testing.T, line, id string, sub, content, setMeta bool) {
		e := Edit{Line: 2, CallID: id, SubCall: sub, SetMeta: setMeta}
		if content {
			e.Content = textBlocks("x")
		}
		if setMeta && len(line)%2 == 0 {
			e.Meta = jsonv.MustParse(`{"k":[1,"v"]}`)
		}
		in := rwHeader + "\n" + line + "\n"
		out, err := rewriteBoth(t, "x", []byte(in), []Edit{e})
		if err != nil {
			return
		}
		// Every other byte is kept: the header, the newline.
		if !bytes.HasPrefix(out, []byte(rwHeader+"\n")) || !bytes.HasSuffix(out, []byte("\n")) {
			t.Fatalf("bytes outside the line changed: %q", out)
		}
		if strings.Count(string(out), "\n") != 2 && !strings.Contains(line, "\n") {
			t.Fatalf("line count changed: %q", out)
		}
	})
}

// rewriteBoth is Rewrite, checked against RewriteStream: the same bytes, or
// the same error.
func rewriteBoth(t testing.TB, name string, data []byte, edits []Edit) ([]byte, error) {
	t.Helper()
	out, err := Rewrite(name, data, edits)
	sorted := append([]Edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Line < sorted[j].Line })
	var sb bytes.Buffer
	// Rewrite hands RewriteStream the whole log; here it comes a byte at a
	// time, so every line and frame crosses read boundaries.
	serr := RewriteStream(name, iotest.OneByteReader(bytes.NewReader(data)), &sb, func() (Edit, bool, error) {
		if len(sorted) == 0 {
			return Edit{}, false, nil
		}
		e := sorted[0]
		sorted = sorted[1:]
		return e, true, nil
	})
	switch {
	case (err == nil) != (serr == nil):
		t.Fatalf("Rewrite: %v; RewriteStream: %v", err, serr)
	case err != nil && err.Error() != serr.Error():
		t.Fatalf("Rewrite: %v; RewriteStream: %v", err, serr)
	case err == nil && !bytes.Equal(out, sb.Bytes()):
		t.Fatalf("RewriteStream wrote\n%q\nRewrite returned\n%q", sb.Bytes(), out)
	}
	return out, err
}

// FuzzRewriteStream: over any bytes (plain or chained zstd, torn, corrupt),
// RewriteStream reading a byte at a time writes what Rewrite returns for
// the whole log, or fails as it does.
func FuzzRewriteStream(f *testing.F) {
	res := `{"type":"tool/result","data":{"message":{"source":{"callId":"c"},"content":[{"content":[]}]}}}` + "\n"
	f.Add([]byte(rwHeader+"\n"+res), 2, false)
	f.Add(append(frame(f, rwHeader+"\n"), frame(f, res+res[:20])...), 3, true)
	f.Add(append(append(frame(f, rwHeader+"\n"), frame(f, res)...), frame(f, res)[:9]...), 2, false)
	f.Fuzz(func(t *testing.T, data []byte, line int, two bool) {
		edits := []Edit{{Line: line, CallID: "c", Content: textBlocks("x")}}
		if two {
			edits = append(edits, Edit{Line: line + 1, CallID: "c", SetMeta: true, Meta: jsonv.Int(1)})
		}
		rewriteBoth(t, "x", data, edits)
	})
}

// splitZstdFrames walks the frame structure (as upstream scanZstdFrames
// does) and decodes each complete frame, checksums checked: the tests' view
// of a rewritten chained-zstd log, independent of RewriteStream's reader.
func splitZstdFrames(name string, data []byte) ([]zframe, error) {
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<34))
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	var frames []zframe
	off := 0
	for off < len(data) {
		end, torn, err := frameEnd(data, off)
		if err != nil {
			return nil, &Error{File: name, Msg: fmt.Sprintf("rewrite: corrupt zstd stream at compressed byte %d: %v", off, err)}
		}
		if torn {
			frames = append(frames, zframe{start: off, end: len(data), torn: true})
			break
		}
		text, err := dec.DecodeAll(data[off:end], nil)
		if err != nil {
			return nil, &Error{File: name, Msg: fmt.Sprintf("rewrite: corrupt zstd frame at compressed byte %d: %v", off, err)}
		}
		frames = append(frames, zframe{start: off, end: end, text: text})
		off = end
	}
	return frames, nil
}

// frameEnd returns the end of the frame at data[off]; torn when the data
// ends inside it.
func frameEnd(data []byte, off int) (end int, torn bool, err error) {
	b := data[off:]
	if len(b) < 4 {
		return 0, true, nil
	}
	if binary.LittleEndian.Uint32(b) != zstdMagic {
		return 0, false, errors.New("invalid frame magic")
	}
	if len(b) < 5 {
		return 0, true, nil
	}
	d := b[4]
	if d&0x18 != 0 {
		return 0, false, errors.New("reserved frame-header bit set")
	}
	single := d&0x20 != 0
	fcs := 0
	if f := d >> 6; f != 0 {
		fcs = 1 << f
	} else if single {
		fcs = 1
	}
	win := 1
	if single {
		win = 0
	}
	i := 5 + win + [4]int{0, 1, 2, 4}[d&3] + fcs
	for {
		if i+3 > len(b) {
			return 0, true, nil
		}
		h := uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16
		typ := (h >> 1) & 3
		size := int(h >> 3)
		if typ == 3 {
			return 0, false, errors.New("reserved block type")
		}
		if typ == 1 {
			size = 1
		}
		i += 3 + size
		if h&1 != 0 {
			break
		}
	}
	if d&0x04 != 0 {
		i += 4
	}
	if i > len(b) {
		return 0, true, nil
	}
	return off + i, false, nil
}
