package logformat

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/zstd"
)

// tornLog is the plaintext of testdata's torn.jsonl without its torn tail:
// the header line and ten records.
func tornLog(t *testing.T) (header, body string) {
	t.Helper()
	plain, err := os.ReadFile(td("torn.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(plain), "\n")
	return lines[0], strings.Join(lines[1:11], "")
}

// streamFrame is text as one zstd frame whose header declares a window of
// 2^log bytes, as zstd --long=log on a pipe writes it: the encoder's frame
// with its window descriptor raised, still valid (a larger window only
// allows longer matches).
func streamFrame(t *testing.T, text string, log int) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true), zstd.WithSingleSegment(false))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	out := enc.EncodeAll([]byte(text), nil)
	if out[4]&0x20 != 0 {
		t.Fatal("single-segment frame has no window byte")
	}
	out[5] = byte(log-10) << 3
	if w, ok := frameWindow(out); !ok || w != 1<<log {
		t.Fatalf("frame declares window %d, want %d", w, 1<<log)
	}
	return out
}

func readCallsOf(t *testing.T, name string, data []byte) ([]*Call, *Summary, error) {
	t.Helper()
	var calls []*Call
	s, err := ReadCallsFrom(name, bytes.NewReader(data), Options{}, func(c *Call) error { calls = append(calls, c); return nil })
	return calls, s, err
}

// callIDs are the ids and lines of calls, for comparing two reads.
func callIDs(calls []*Call) []string {
	var out []string
	for _, c := range calls {
		out = append(out, c.CallID+"@"+itoa(c.Line))
	}
	return out
}

// TestZstdLargeWindow: a stream with a 128 MiB window (zstd --long=27)
// reads as the same log in upstream's framing does.
func TestZstdLargeWindow(t *testing.T) {
	header, body := tornLog(t)
	want, _, err := readCallsOf(t, "ref.jsonl.zstd", frames(t, header, body))
	if err != nil || len(want) == 0 {
		t.Fatalf("reference: %v, %d calls", err, len(want))
	}
	data := append(frames(t, header), streamFrame(t, body, 27)...)
	got, s, err := readCallsOf(t, "long.jsonl.zstd", data)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(callIDs(want), callIDs(got)); d != "" || len(s.Notices) != 0 {
		t.Errorf("calls differ (%s) or notices %+v", d, s.Notices)
	}
}

// TestZstdWindowTooLarge: a window past MaxZstdWindow (zstd --long=30 or
// 31 on a stream) is refused by name, never called corrupt.
func TestZstdWindowTooLarge(t *testing.T) {
	header, body := tornLog(t)
	dir := t.TempDir()
	for _, log := range []int{30, 31} {
		frame := streamFrame(t, body, log)
		data := append(frames(t, header), frame...)
		_, _, err := readCallsOf(t, "long.jsonl.zstd", data)
		var le *Error
		want := "needs a window of " + itoa(1<<(log-20)) + " MiB, larger than 512 MiB"
		if !errors.As(err, &le) || le.Kind != ZstdWindowTooLarge || le.Line != 2 || !strings.Contains(le.Msg, want) || strings.Contains(le.Msg, "corrupt") {
			t.Errorf("--long=%d: got %v", log, err)
		}
		// The zstd tool accepts it: valid, only large.
		p := filepath.Join(dir, "long"+itoa(log)+".jsonl.zstd")
		os.WriteFile(p, data, 0o644)
		if _, err := exec.LookPath("zstd"); err == nil {
			if out, err := exec.Command("zstd", "-tq", "--long=31", p).CombinedOutput(); err != nil {
				t.Errorf("zstd -t rejects the test data: %v %s", err, out)
			}
		}
	}
	if _, err := exec.LookPath("zstd"); err != nil {
		t.Log("zstd not installed: the test data was not checked with it")
	}
}

// TestZstdWindowBudget: while a decoder holds a large window's history
// it has room reserved for it (Options.Reserve, which the command maps to
// the soft memory limit): during the read, while the decoder waits for the
// log's next pass, and not after a log that did not need it.
func TestZstdWindowBudget(t *testing.T) {
	const base = 72 << 20
	var mu sync.Mutex
	var reserved int64
	reserve := func(n int64) func() {
		mu.Lock()
		defer mu.Unlock()
		reserved += n
		var once sync.Once
		return func() {
			once.Do(func() {
				mu.Lock()
				defer mu.Unlock()
				reserved -= n
			})
		}
	}
	current := func() int64 {
		mu.Lock()
		defer mu.Unlock()
		return base + reserved
	}
	header, body := tornLog(t)
	small := frames(t, header, body)
	// open decodes into the second frame and checks the limit there.
	open := func(data []byte, want int64, what string) *zstdSource {
		t.Helper()
		zs, err := newZstdSource(bytes.NewReader(data), reserve)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 1<<16)
		for zs.frames < 1 || !zs.inFrame {
			if _, err := zs.Read(buf); err != nil && !errors.Is(err, errFrameEnd) {
				t.Fatalf("%s: %v", what, err)
			}
		}
		if got := current(); got != want {
			t.Errorf("%s: limit %d MiB while decoding, want %d MiB", what, got>>20, want>>20)
		}
		return zs
	}
	limit := func(want int64, what string) {
		t.Helper()
		if got := current(); got != want {
			t.Errorf("%s: limit %d MiB, want %d MiB", what, got>>20, want>>20)
		}
	}
	open(small, base, "2 MiB window").Close()
	limit(base, "after a usual window")
	for _, log := range []int{26, 27} {
		want := base + int64(1)<<log + 2<<20
		data := append(frames(t, header), streamFrame(t, body, log)...)
		what := "2^" + itoa(log) + " window"
		open(data, want, what).Close()
		limit(want, what+", between two passes")
		open(data, want, what+", second pass").Close() // the same ring: no more room
		open(small, want, what+", then a usual log").Close()
		limit(base, what+", after a usual log")
	}
}

// TestZstdOneFrame: a log compressed by hand as one frame (zstd FILE), or
// with more than the header in its first frame, is read with a notice.
func TestZstdOneFrame(t *testing.T) {
	header, body := tornLog(t)
	want, _, err := readCallsOf(t, "ref.jsonl.zstd", frames(t, header, body))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(body, "\n")
	for _, tc := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"one-frame", frames(t, header+body), "the whole log is one zstd frame (as `zstd FILE` makes it)"},
		{"one-frame-long", streamFrame(t, header+body, 27), "the whole log is one zstd frame"},
		{"header-and-one", frames(t, header+lines[0], strings.Join(lines[1:], "")), "the first zstd frame holds the header and 1 more line;"},
		{"header-and-three", frames(t, header+strings.Join(lines[:3], ""), strings.Join(lines[3:], "")), "the first zstd frame holds the header and 3 more lines;"},
	} {
		got, s, err := readCallsOf(t, tc.name+".jsonl.zstd", tc.data)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if d := cmp.Diff(callIDs(want), callIDs(got)); d != "" {
			t.Errorf("%s: calls differ: %s", tc.name, d)
		}
		if len(s.Notices) != 1 || s.Notices[0].Kind != ZstdFraming || s.Notices[0].Line != 1 || !strings.Contains(s.Notices[0].Msg, "not upstream's framing: "+tc.msg) {
			t.Errorf("%s: notices %+v", tc.name, s.Notices)
		}
	}
}
