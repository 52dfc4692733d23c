package cards

import (
	"testing"
)

func TestGoldenHeader(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{TextGolden, JSONGolden} {
		g := &Golden{Kind: kind, Log: "a \"b\".jsonl", Body: []byte("body\n")}
		data := g.Bytes("v1.2.3")
		h := ParseHeader(kind, data)
		if want := (GoldenHeader{OK: true, Format: GoldenFormat, Version: "v1.2.3", Log: g.Log}); h != want {
			t.Errorf("%s: header %+v, want %+v", kind, h, want)
		}
		if !g.Matches(g.Bytes("another")) {
			t.Errorf("%s: a golden written by another version does not match", kind)
		}
		if g.Matches(append(g.Bytes("v"), 'x')) {
			t.Errorf("%s: a golden with another body matches", kind)
		}
		other := TextGolden
		if kind == TextGolden {
			other = JSONGolden
		}
		if ParseHeader(other, data).OK {
			t.Errorf("%s: its header reads as a %s header", kind, other)
		}
	}
	if h := ParseHeader(TextGolden, []byte("# dsh-replay cards golden · format 2 · version x\n")); !h.OK || h.Format != 2 || h.Version != "x" {
		t.Errorf("a newer text header: %+v", h)
	}
}

func TestLogBase(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"d/session.jsonl.zstd": "d/session",
		"d/session.jsonl":      "d/session",
		"d/session.txt":        "d/session.txt",
	} {
		if got := LogBase(in); got != want {
			t.Errorf("LogBase(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzGoldenHeader: a header never panics on arbitrary files, and a golden
// always matches its own bytes.
func FuzzGoldenHeader(f *testing.F) {
	f.Add([]byte("# dsh-replay cards golden · format 9x"), []byte(`{"golden":"dsh-replay cards","format":"1"}`))
	f.Add([]byte(`{"golden":"dsh-replay cards","format":1,"version":"v","log":"x"}`+"\n"), []byte("x"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		for _, kind := range []string{TextGolden, JSONGolden} {
			h := ParseHeader(kind, a)
			g := &Golden{Kind: kind, Log: h.Log, Body: b}
			if !g.Matches(g.Bytes(h.Version)) {
				t.Fatal("a golden does not match its own bytes")
			}
			g.Matches(a)
		}
	})
}
