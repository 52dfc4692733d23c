package logformat

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestLongSidecarEntries: entries longer than the sidecar's line buffer
// (a spilled output's value) are indexed, claimed and reported as short
// ones are: same values, same notices on the same lines, same limit.
func TestLongSidecarEntries(t *testing.T) {
	log, err := os.ReadFile(td("sidecar/session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat(`out \"q\"\t`, sidecarHold/10+10)
	long := `{"callId":"call_s1","value":{"kind":"foreground","exitCode":0,"stdout":"` + text + `"},"contentReplaced":true}`
	s2 := `{"callId":"call_s2","value":{"kind":"foreground","fromSidecar":true}}`
	gone := `{"callId":"call_gone","value":1}`
	tests := []struct {
		name, sidecar string
		maxRecord     int
		value         bool   // call_s1 gets the long value
		notices       string // kind@line, in order
		err           string
	}{
		{"long first", long + "\n" + s2 + "\n" + gone + "\n", 0, true, "orphan-value@3", ""},
		{"long last without newline", s2 + "\n" + gone + "\n" + long, 0, true, "orphan-value@2", ""},
		{"long invalid", long[:len(long)-1] + "\n" + gone + "\n", 0, false, "sidecar-invalid@1,orphan-value@2", ""},
		{"long over the limit", gone + "\n" + long + "\n", sidecarHold + 100, false, "", "values.jsonl:2: record longer than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "session.jsonl")
			if err := os.WriteFile(p, log, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "session.values.jsonl"), []byte(tc.sidecar), 0o644); err != nil {
				t.Fatal(err)
			}
			calls, sum, err := readAll(t, p, Options{MaxRecordBytes: tc.maxRecord})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var c *Call
			for _, x := range calls {
				if x.CallID == "call_s1" {
					c = x
				}
			}
			got := c.Value.Get("stdout").Str()
			if tc.value != (got == strings.ReplaceAll(strings.ReplaceAll(text, `\"`, `"`), `\t`, "\t")) || tc.value != c.ContentReplaced {
				t.Errorf("call_s1: value of %d bytes, contentReplaced %v; want the long value %v", len(got), c.ContentReplaced, tc.value)
			}
			var ns []string
			for _, n := range sum.Notices {
				ns = append(ns, n.Kind+"@"+itoa(n.Line))
			}
			if strings.Join(ns, ",") != tc.notices {
				t.Errorf("notices %v, want %s", ns, tc.notices)
			}
		})
	}
}

// TestLongSidecarEntryAllocations: reading a log whose sidecar holds one
// long entry allocates about the entry once (indexed, kept for its claim,
// decoded in place), not a doubling line buffer, a copy for the claim, a
// copy for the parser and a doubling string buffer (about 7 times before).
func TestLongSidecarEntryAllocations(t *testing.T) {
	log, err := os.ReadFile(td("sidecar/session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat(`out \"q\"\t`, 4*sidecarHold/10)
	long := `{"callId":"call_s1","value":{"kind":"foreground","exitCode":0,"stdout":"` + text + `"}}` + "\n"
	dir := t.TempDir()
	p := filepath.Join(dir, "session.jsonl")
	if err := os.WriteFile(p, log, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "session.values.jsonl"), []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	_, err = ReadCalls(p, Options{}, func(c *Call) error { n += len(c.Value.Get("stdout").Str()); return nil })
	runtime.ReadMemStats(&after)
	if err != nil || n == 0 {
		t.Fatalf("read: %v, %d bytes of value", err, n)
	}
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(len(long))*3/2+4<<20; got > limit {
		t.Errorf("allocated %d bytes for a %d-byte entry, want at most %d", got, len(long), limit)
	}
}
