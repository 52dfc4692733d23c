package logformat

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

func addTestdataSeeds(f *testing.F, suffix string) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "logformat", "*"+suffix))
	// The logs of formats 1-4 (and the v5 this build refuses).
	more, _ := filepath.Glob(filepath.Join("..", "testdata", "logformat", "formats", "*"+suffix))
	files = append(files, more...)
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && len(b) < 1<<16 {
			f.Add(b)
		}
	}
}

// readBytes reads a log from memory with the given number of workers and
// renders what came out, so runs can be compared.
func readBytes(t *testing.T, b []byte, jobs int) (string, error) {
	var out strings.Builder
	sum, err := ReadCallsFrom("fuzz", bytes.NewReader(b), Options{Jobs: jobs, MaxRecordBytes: 1 << 20}, func(c *Call) error {
		out.WriteString(callJSON(c))
		out.WriteByte('\n')
		return nil
	})
	if sum == nil {
		t.Fatal("nil summary")
	}
	if err != nil {
		var le *Error
		if !errors.As(err, &le) || le.File != "fuzz" || le.Msg == "" {
			t.Fatalf("error is not a *logformat.Error naming the file: %#v", err)
		}
	}
	for _, n := range sum.Notices {
		if n.Kind == "" || n.Msg == "" {
			t.Fatalf("empty notice %+v", n)
		}
	}
	return out.String(), err
}

// FuzzReadLog: the line scanner, record decoder and pairing never panic,
// always fail with a *Error naming the file, and do not depend on the
// number of decoding workers.
func FuzzReadLog(f *testing.F) {
	addTestdataSeeds(f, ".jsonl")
	f.Add([]byte("{\"type\":\"session\"}\n{\"type\":\"text-chunks\",\"seq0\":0,\"time0\":0,\"data\":{\"turn\":1,\"step\":1,\"index\":0,\"dt\":[],\"texts\":[\"a\"]}}\n"))
	f.Add([]byte("{\"type\":\"session\"}\n\n\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, errA := readBytes(t, b, 1)
		c, errC := readBytes(t, b, 3)
		if a != c || (errA == nil) != (errC == nil) || (errA != nil && errA.Error() != errC.Error()) {
			t.Fatalf("jobs=1 and jobs=3 differ:\n%s\n%v\n---\n%s\n%v", a, errA, c, errC)
		}
	})
}

// FuzzShapesOnly: reading in the shapes-only mode (calls --summary) and
// in the default one yield the same summary, error and calls but for what
// the payloads hold.
func FuzzShapesOnly(f *testing.F) {
	addTestdataSeeds(f, ".jsonl")
	f.Add([]byte("{\"type\":\"session\"}\n{\"type\":\"tool/result\",\"seq\":1,\"time\":0,\"data\":{\"value\":[1,{\"a\":tru}]}}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		read := func(opts Options) string {
			var out strings.Builder
			opts.NoSidecar, opts.MaxRecordBytes = true, 1<<20
			sum, err := ReadCallsBytes("fuzz.jsonl", b, opts, func(c *Call) error {
				out.WriteString(callShape(c))
				out.WriteByte('\n')
				return nil
			})
			fmt.Fprintf(&out, "%s\n%v", summaryText(sum), err)
			return out.String()
		}
		if lazy, shapes := read(Options{}), read(Options{ShapesOnly: true}); lazy != shapes {
			t.Fatalf("lazy and shapes-only reads differ:\n%s\n---\n%s", lazy, shapes)
		}
	})
}

// FuzzZstdFrames: the frame walker and decoder never panic on any bytes,
// and a stream of complete frames reads exactly like its plaintext.
func FuzzZstdFrames(f *testing.F) {
	addTestdataSeeds(f, ".zstd")
	f.Add([]byte{0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00, 0x01, 0x00, 0x00})
	f.Add([]byte{0x28, 0xB5, 0x2F, 0xFD, 0xFF})
	// A 2 GiB window (refused by name), a single segment with a one-byte
	// content size.
	f.Add([]byte{0x28, 0xB5, 0x2F, 0xFD, 0x00, 0xA8, 0x01, 0x00, 0x00})
	f.Add([]byte{0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x05, 0x29, 0x00, 0x00, 'a', 'b', 'c', 'd', '\n'})
	f.Fuzz(func(t *testing.T, b []byte) {
		readBytes(t, b, 2)
		if len(b) == 0 || isZstdMagic(b) {
			return
		}
		// Treat the input as plaintext: split it into frames (the header line
		// alone first, as the writer does) and compare.
		var batches []string
		s := string(b)
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			batches = append(batches, s[:i+1])
			rest := s[i+1:]
			for len(rest) > 0 {
				j := strings.LastIndexByte(rest[:min(len(rest), 200)], '\n')
				if j < 0 {
					j = min(len(rest), 200) - 1
					if k := strings.IndexByte(rest, '\n'); k >= 0 {
						j = k
					} else {
						j = len(rest) - 1
					}
				}
				batches = append(batches, rest[:j+1])
				rest = rest[j+1:]
			}
		} else {
			return
		}
		z := frames(t, batches...)
		plain, errP := readBytes(t, b, 2)
		zst, errZ := readBytes(t, z, 2)
		if !strings.HasSuffix(s, "\n") {
			// The plaintext ends in a fragment: in zstd that is a complete
			// frame ending inside a record, which is corruption.
			if errZ == nil {
				t.Fatalf("zstd with a torn record in a complete frame read without error")
			}
			return
		}
		if plain != zst || (errP == nil) != (errZ == nil) {
			t.Fatalf("zstd differs from plaintext:\n%s\n%v\n---\n%s\n%v", plain, errP, zst, errZ)
		}
		// A cut anywhere never panics and never yields more calls.
		for _, cut := range []int{len(z) - 1, len(z) / 2, 5} {
			if cut > 0 && cut < len(z) {
				out, _ := readBytes(t, z[:cut], 2)
				if strings.Count(out, "\n") > strings.Count(zst, "\n") {
					t.Fatalf("cut stream yields more calls")
				}
			}
		}
	})
}

// recordText renders every field of a decoded record, its data as JSON.
func recordText(rec *record) string {
	r := *rec
	data := "undefined"
	if !r.data.IsUndefined() {
		data = jsonv.Encode(r.data)
	}
	r.data = jsonv.Value{}
	return fmt.Sprintf("%+v data=%s", r, data)
}

// wrappedSeeds are event stream lines in the layouts decodeWrapped reads
// in place and in those it leaves to decodeWrappedRaw.
var wrappedSeeds = []string{
	`{"type":"session_event","event":{"type":"turn/end","seq":3,"time":0,"data":{}}}`,
	`{"event":{"type":"turn/end","seq":3,"time":0,"data":{}},"type":"session_event"}`,
	`{"type":"x","event":{"type":"turn/end","seq":3,"time":0,"data":{}},"type":"session_event"}`,
	`{"type":"session_event","event":{"type":"turn/end","seq":3,"time":0,"data":{}},"type":"x"}`,
	`{"type":"session_event","event":{"type":"turn/end","seq":3,"time":0,"data":{}},"event":5}`,
	`{"type":"session_event","event":5,"event":{"type":"step/end","seq":1,"time":0,"data":{}}}`,
	`{"type":"session_event","event":{"type":"turn/end","seq":3,"time":0,"data":{}}`,
	`{"type":"session_event","event":{"type":"turn/end","seq":3,"time":0,"data":{]}}`,
	`{"type":"session_event","event":{"type":"text-chunks","seq0":0,"time0":0,"data":{"turn":1}}}`,
	`{"type":"session_event","event":{"type":"tool/result","seq":4,"time":1,"data":{"callId":"c","value":{"a":[1,2]},"content":[{"type":"text","text":"x"}]}}}`,
	`{"type":"session_event","event":{"type":"turn/end","seq":3,"time":0,"data":{}}} x`,
	`{"method":"session.event","params":{"sessionId":"s","event":{"type":"assistant/chunk","seq":8,"time":0,"data":{"chunk":{"type":"tool-call-delta","id":"c1"}}}}}`,
	`{"method":"session.event","params":{"event":{"type":"turn/end","seq":1,"time":0,"data":{}}},"params":5}`,
	`{"method":"session.event","params":{"event":5}}`,
	`{"method":"session.event","params":{"event":{"type":"turn/end","seq":1,"time":0,"data":{}},"event":{"type":"step/end","seq":2,"time":0,"data":{}}}}`,
	`{"method":"session.event","params":{"event":{"type":"turn/end","seq":1,"time":0,"data":{}},"x":tru}}`,
	`{"params":{"event":{"type":"turn/end","seq":1,"time":0,"data":{}}},"method":"session.event"}`,
	"{\"method\":\"session.event\",\"params\":{\"event\":{\"type\":\"user/message\",\"seq\":1,\"time\":0,\"data\":\"\xff\"}}}",
	`[1]`, `"x"`, `{`, ``,
}

// FuzzDecodeWrapped: decoding an event stream line in place gives the
// record that checking it whole and decoding the event's raw bytes gives.
func FuzzDecodeWrapped(f *testing.F) {
	for _, s := range wrappedSeeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, line []byte, notifications bool) {
		tagKey, tagValue, outer, inner := "type", "session_event", "event", ""
		if notifications {
			tagKey, tagValue, outer, inner = "method", "session.event", "params", "event"
		}
		for _, mode := range []decodeMode{decodeLazy, decodeEager, decodeShapes} {
			var got, want record
			got.mode, want.mode = mode, mode
			decodeWrapped(line, &got, tagKey, tagValue, outer, inner)
			decodeWrappedRaw(line, &want, tagKey, tagValue, outer, inner)
			if g, w := recordText(&got), recordText(&want); g != w {
				t.Fatalf("%q (mode %d):\nin place %s\nraw      %s", line, mode, g, w)
			}
		}
	})
}

// chunkSeeds are assistant/chunk records that toolChunkAt reads in place
// and the layouts around it (tag outside data, escapes, duplicates, errors).
var chunkSeeds = []string{
	`{"type":"assistant/chunk","seq":1,"time":0,"data":{"turn":1,"step":1,"chunk":{"type":"tool-call-delta","index":0,"id":"c1","name":"bash","argumentsDelta":"{\"a\":1}"}}}`,
	`{"type":"assistant/chunk","seq":1,"time":0,"data":{"turn":1,"step":1,"chunk":{"type":"block-end","index":0,"block":{"type":"tool-call","id":"c2","name":"x","arguments":"{}"}}}}`,
	`{"type":"assistant/chunk","seq":1,"time":0,"data":{"turn":1,"step":1,"chunk":{"type":"text-delta","index":0,"text":"\"tool-call"}}}`,
	`{"type":"assistant/chunk","seq":1,"time":0,"data":{"chunk":{"type":"tool\u002dcall-delta","id":"c3"}}}`,
	`{"type":"assistant/chunk","seq":1,"time":0,"data":{"chunk":{"type":"text-delta","id":"c4"},"chunk":{"type":"tool-call-delta","id":"c5"}}}`,
	`{"type":"assistant/chunk","seq":1,"time":0,"data":{"chunk":5,"chunk":{"type":"tool-call-delta","id":"c6"}}}`,
	`{"type":"assistant/chunk","seq":1,"time":0,"data":{"chunk":{"type":"tool-call-delta","id":"c7","type":"text-delta"}}}`,
	`{"type":"assistant/chunk","seq":1,"time":0,"data":{"chunk":{"type":"tool-call-delta","id":"c8"}},"x":"tool-call"}`,
	`{"type":"assistant/chunk","seq":1,"time":0,"data":{"chunk":{"type":"tool-call-delta","id":"c9"},"z":tru}}`,
	`{"type":"assistant/chunk","seq":1,"time":0,"data":{"chunk":{"type":"tool-call-delta","id":"c9"} "z":1}}`,
	`{"type":"assistant/chunk","seq":1,"time":0,"data":[{"chunk":{"type":"tool-call-delta","id":"c10"}}]}`,
	`{"type":"assistant/chunk","seq":1,"time":0,"data":{"chunk":{"type":"tool-call-delta","id":7}}}`,
	"{\"type\":\"assistant/chunk\",\"seq\":1,\"time\":0,\"data\":{\"chunk\":{\"type\":\"tool-call-delta\",\"id\":\"\xff\"}}}",
	`{"type":"assistant/chunk","seq":1,"time":0,"data":{"chunk":{"type":"tool-call-delta","id":"c11"}}} `,
	`{"data":{"chunk":{"type":"tool-call-delta","id":"c12"}},"type":"assistant/chunk","seq":1,"time":0}`,
	`{"type":"assistant/chunk","seq":1,"time":0,"data":{"chunk":{"type":"tool\u002dcall-delta","id":"c13"}},"x":"tool-call"}`,
}

// FuzzDecodeChunk: an assistant/chunk record whose data is read in place
// decodes as it does with every value checked whole first (rec.slow), error
// messages included.
func FuzzDecodeChunk(f *testing.F) {
	for _, s := range chunkSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		for _, mode := range []decodeMode{decodeLazy, decodeEager, decodeShapes} {
			got, want := record{mode: mode}, record{mode: mode, slow: true}
			decodeLine(fmtLog, mode, line, &got)
			decodeEvent(line, &want)
			got.walked, want.walked, want.slow = false, false, false
			if g, w := recordText(&got), recordText(&want); g != w {
				t.Fatalf("%q (mode %d):\nin place %s\nchecked  %s", line, mode, g, w)
			}
		}
	})
}
