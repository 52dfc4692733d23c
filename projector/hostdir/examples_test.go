package hostdir

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestReadExamples(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte("{\"tool\":\"read\",\"args\":{}}\n\n{\"kind\":\"glob\"}\n{\"tool\":\"grep\"}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.jsonl"), []byte(`{"tool":"bash"}`), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not read"), 0o644)
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte("{\"tool\":\"x\"}\n{\"tool\":\n"), 0o644)
	for _, c := range []struct {
		name  string
		paths []string
		want  string // tool@file:line, comma-separated
		err   string
	}{
		{"a directory: its *.jsonl in name order, lines without a tool skipped", []string{dir}, "read@a.jsonl:1,grep@a.jsonl:4,bash@b.jsonl:1", ""},
		{"a file", []string{filepath.Join(dir, "b.jsonl")}, "bash@b.jsonl:1", ""},
		{"not JSON: file and line", []string{bad}, "", bad + ":2:"},
		{"missing", []string{filepath.Join(dir, "nope.jsonl")}, "", "no such file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ex, err := ReadExamples(c.paths)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range ex {
				got = append(got, e.V.Get("tool").Str()+"@"+filepath.Base(e.File)+":"+strconv.Itoa(e.Line))
			}
			if strings.Join(got, ",") != c.want {
				t.Errorf("got %s, want %s", strings.Join(got, ","), c.want)
			}
		})
	}
}

// FuzzReadExamples: any file reads as examples or fails with its name and
// a line number; never a panic.
func FuzzReadExamples(f *testing.F) {
	f.Add([]byte("{\"tool\":\"read\",\"args\":{\"path\":\"a\"},\"value\":null}\n"))
	f.Add([]byte("{\"tool\":1}\n[]\n\"x\"\n"))
	f.Add([]byte("{\"tool\":\"a\"}\r\n{\"tool\":\"b\"\n"))
	f.Add([]byte("\xff\xfe"))
	at := regexp.MustCompile(`\.jsonl:[0-9]+: `)
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "x.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ex, err := ReadExamples([]string{p})
		if err != nil {
			if !at.MatchString(err.Error()) {
				t.Fatalf("error without file and line: %v", err)
			}
			return
		}
		for _, e := range ex {
			if !e.V.Get("tool").IsString() || e.Line < 1 {
				t.Fatalf("example %d: %v", e.Line, e.V)
			}
		}
	})
}
