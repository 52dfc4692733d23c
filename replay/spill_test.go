package replay

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
)

func TestHeadTail(t *testing.T) {
	for _, tc := range []struct {
		text       string
		head, tail int
		kept       string
		omitted    int
	}{
		{"abcdef", 2, 2, "abef", 2},
		{"abcdef", 3, 3, "abcdef", 0},
		{"abcdef", 10, 10, "abcdef", 0},
		{"héllo wörld", 2, 2, "hld", 10}, // é cut after its lead byte is dropped
		{"ab😀cd😀", 4, 3, "ab", 10},       // the emoji cut on both sides
		{"ab😀cd😀", 6, 4, "ab😀😀", 2},
		{"abcdef", 0, 0, "", 6},
		{"abc", 0, 2, "bc", 1},
	} {
		kept, omitted := headTail(tc.text, tc.head, tc.tail)
		if kept != tc.kept || omitted != tc.omitted {
			t.Errorf("headTail(%q, %d, %d) = %q, %d; want %q, %d", tc.text, tc.head, tc.tail, kept, omitted, tc.kept, tc.omitted)
		}
	}
}

func TestSpillReplacement(t *testing.T) {
	loc := "/tmp/lasmex-spill-abc/session-0123456789ab/0123456789ab-bash.txt"
	full := "SPILL_START-" + strings.Repeat("x", 2000) + "-SPILL_END"
	got, ok := SpillReplacement(full, 800, loc)
	if !ok || len(got) > 800 || !strings.HasPrefix(got, "SPILL_START-") || !strings.Contains(got, "(Omitted ") {
		t.Fatalf("replacement %v %d %q", ok, len(got), got)
	}
	if _, ok := SpillReplacement(full, 5000, loc); ok {
		t.Error("text within the cap must not spill")
	}
	if _, ok := SpillReplacement(full, 100, loc); ok {
		t.Error("a notice over the cap keeps the original")
	}
	// Budget zero: the notice alone.
	n := len(spillNotice(len(full), loc)) + 2
	if got, ok := SpillReplacement(full, n, loc); !ok || !strings.HasPrefix(got, "(Omitted 2022 bytes.") {
		t.Errorf("notice-only replacement %v %q", ok, got)
	}
}

// TestSpillFixture checks the port against the upstream snapshot
// bash-spill: 2022 bytes of output under maxInlineBytes 800.
func TestSpillFixture(t *testing.T) {
	path := sharedtest.Dir(t, "fixtures", "lasmex", "examples", "acp-agent", "tests", "snapshots", "bash-spill", "session.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	var rec jsonv.Value
	for sc.Scan() {
		ev, err := jsonv.Parse(sc.Bytes())
		if err == nil && ev.Get("type").Str() == "tool/result" {
			rec = ev.Path("data", "message", "content").At(0).Get("content")
		}
	}
	if rec.IsUndefined() {
		t.Fatal("no tool/result in the fixture")
	}
	full := "SPILL_START-" + strings.Repeat("x", 2000) + "-SPILL_END"
	rendered := jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", jsonv.Str(full))))
	for _, cap := range []int{800, -1} {
		if isSpill, ok := checkSpill(rec, rendered, cap); !isSpill || !ok {
			t.Errorf("cap %d: spill=%v match=%v", cap, isSpill, ok)
		}
	}
	if _, ok := checkSpill(rec, rendered, 801); ok {
		t.Error("cap 801 must not reproduce the recorded preview")
	}
}

// FuzzSpill: every genuine replacement is recognised with the cap unknown,
// and nothing panics on arbitrary recorded text.
func FuzzSpill(f *testing.F) {
	f.Add("SPILL_START-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx-END", 300, "/tmp/x/a-bash.txt")
	f.Add("héllo😀wörld\r\n\x00"+strings.Repeat("é", 300), 320, "/p q/(Omitted 3 bytes.)")
	f.Add("\xed\xa0\x80"+strings.Repeat("z", 400), 250, "/l")
	f.Fuzz(func(t *testing.T, text string, cap int, loc string) {
		if cap < 0 || cap > 1<<16 || len(text) > 1<<16 || strings.Contains(loc, "\n") {
			return
		}
		rendered := jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", jsonv.Str(text))))
		// Arbitrary recorded text: no panic.
		checkSpill(rendered, rendered, -1)
		got, ok := SpillReplacement(text, cap, loc)
		if !ok {
			return
		}
		if len(got) > cap {
			t.Fatalf("replacement of %d bytes over cap %d", len(got), cap)
		}
		rec := jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", jsonv.Str(got))))
		if isSpill, match := checkSpill(rec, rendered, cap); !isSpill || !match {
			t.Fatalf("known cap %d: spill=%v match=%v for %q", cap, isSpill, match, got)
		}
		if isSpill, match := checkSpill(rec, rendered, -1); !isSpill || !match {
			t.Fatalf("inferred cap: spill=%v match=%v for %q", isSpill, match, got)
		}
	})
}
