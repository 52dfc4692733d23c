package logformat

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

// A plain log large enough to be scanned in two halves counts the same
// replacement records as one sequential scan, wherever they fall: near the
// start, around the split point, at the end.
func TestPrepassSplitCountsAll(t *testing.T) {
	raw, err := os.ReadFile(td("pruned.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	header, replacement := lines[0], lines[15]
	if !strings.Contains(replacement, `"op":"replace"`) {
		t.Fatalf("fixture line 16 is not a replacement: %.80s", replacement)
	}
	filler := `{"type":"step/end","seq":0,"time":1786000000005,"data":{"turn":1,"step":1,"pad":"` + strings.Repeat("x", 900) + `"}}`
	n := (prepassSplitBytes + 4<<20) / (len(filler) + 1)
	var b bytes.Buffer
	b.Grow(len(header) + n*(len(filler)+1) + 8*(len(replacement)+1))
	b.WriteString(header + "\n")
	want := map[string]int{}
	at := map[int]string{1: "call_a", 2: "call_a", n / 2: "call_mid", n/2 + 1: "call_mid2", n - 1: "call_end"}
	for i := 0; i < n; i++ {
		if id, ok := at[i]; ok {
			b.WriteString(strings.ReplaceAll(replacement, "call_big", id) + "\n")
			want[id]++
		}
		b.WriteString(filler + "\n")
	}
	path := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := scanReplacements(path, DefaultMaxRecordBytes)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("split prepass counts %v, want %v", got, want)
	}
	// The split falls on a line boundary.
	f, _ := os.Open(path)
	defer f.Close()
	st, _ := f.Stat()
	mid, ok := lineBoundary(f, st.Size()/2, st.Size(), DefaultMaxRecordBytes)
	if !ok || mid <= 0 || b.Bytes()[mid-1] != '\n' {
		t.Fatalf("line boundary %d %v", mid, ok)
	}
}

func TestInternString(t *testing.T) {
	worst := 0
	for _, s := range intern {
		if got := internString([]byte(s)); got != s || unsafe.StringData(got) != unsafe.StringData(s) {
			t.Errorf("internString(%q) is not the shared copy", s)
		}
		chain := 0
		for i := internHead[internSlot([]byte(s))]; i != 0; i = internNext[i-1] {
			chain++
		}
		worst = max(worst, chain)
	}
	if worst > 3 {
		t.Errorf("an intern slot holds %d strings; the hash should spread them", worst)
	}
	if got := internString([]byte("no-such-key")); got != "no-such-key" {
		t.Errorf("unknown key %q", got)
	}
}

// isKnownType is true of the event types at the head of the intern list
// and of nothing else in it or outside it.
func TestIsKnownType(t *testing.T) {
	for i, s := range intern {
		if got, want := isKnownType(s), i < knownTypeCount; got != want {
			t.Errorf("isKnownType(%q) = %v, want %v", s, got, want)
		}
	}
	for _, s := range []string{"", "tool/calls", "Tool/call", "turn/en", "session", "x"} {
		if isKnownType(s) {
			t.Errorf("isKnownType(%q) = true", s)
		}
	}
	if intern[knownTypeCount-1] != "steering/message" {
		t.Errorf("the event types end at %q, not the legacy steering/message", intern[knownTypeCount-1])
	}
}
