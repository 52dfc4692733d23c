package atomicwrite

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFile: the file is replaced, its mode kept, no temporary file
// left; a missing directory is an error.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.jsonl")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	st, _ := os.Stat(p)
	if string(b) != "new" || st.Mode().Perm() != 0o600 {
		t.Errorf("got %q mode %v", b, st.Mode().Perm())
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("temporary file left behind: %v", ents)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x"), nil, 0o644); err == nil {
		t.Error("want an error for a missing directory")
	}
}

// TestTemp: a streamed write replaces the file on Commit (mode kept, read
// back before and after), and leaves it untouched, with no temporary file,
// when the check fails or the write is discarded.
func TestTemp(t *testing.T) {
	for _, tt := range []struct {
		name    string
		check   func() error
		discard bool
		want    string
	}{
		{"commit", nil, false, "new content"},
		{"check passes", func() error { return nil }, false, "new content"},
		{"check fails", func() error { return os.ErrExist }, false, "old"},
		{"discarded", nil, true, "old"},
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, "f.jsonl")
		if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		w, err := Create(p, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, "new ")
		io.WriteString(w, "content")
		r, err := w.Reader()
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := io.ReadAll(r); string(b) != "new content" || w.Size() != 11 {
			t.Errorf("%s: read back %q (size %d)", tt.name, b, w.Size())
		}
		if tt.discard {
			w.Discard()
		} else if err := w.Commit(tt.check); (err != nil) != (tt.want == "old") {
			t.Errorf("%s: commit: %v", tt.name, err)
		}
		w.Discard() // after Commit: closes only
		b, _ := os.ReadFile(p)
		st, _ := os.Stat(p)
		if string(b) != tt.want || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: got %q mode %v, want %q", tt.name, b, st.Mode().Perm(), tt.want)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Errorf("%s: temporary file left behind: %v", tt.name, ents)
		}
	}
}
