package logformat

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
)

// TestReadDirMatchesOS: the walk's listing gives the names and types
// os.ReadDir gives, for every kind of entry and for a directory too large
// for one read of the kernel's entries.
func TestReadDirMatchesOS(t *testing.T) {
	dir := t.TempDir()
	for i := range 400 { // ~20 KB of records: several getdents calls
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("session-%03d-with-a-long-name.jsonl", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	must(os.Mkdir(filepath.Join(dir, ".."+"x"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "."+"hidden.jsonl"), nil, 0o644))
	must(os.Symlink("sub", filepath.Join(dir, "link-to-dir")))
	must(os.Symlink("missing", filepath.Join(dir, "dangling.jsonl")))
	must(os.WriteFile(filepath.Join(dir, "naïve ünïcode.jsonl"), nil, 0o644))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.jsonl"), 0o644); err != nil {
		t.Log("no FIFO:", err)
	}
	if l, err := net.Listen("unix", filepath.Join(dir, "sock.jsonl")); err == nil {
		defer l.Close()
	}

	want, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := readDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(got, func(i, j int) bool { return got[i].name < got[j].name })
	if len(got) != len(want) {
		t.Fatalf("%d entries, os.ReadDir %d", len(got), len(want))
	}
	for i := range want {
		if got[i].name != want[i].Name() || got[i].typ != want[i].Type() {
			t.Errorf("entry %d: %q %v, os.ReadDir %q %v", i, got[i].name, got[i].typ, want[i].Name(), want[i].Type())
		}
	}
	if len(want) < 405 {
		t.Fatalf("only %d entries made", len(want))
	}

	if _, err := readDir(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("missing directory: %v, want not-exist", err)
	}
	if _, err := readDir(filepath.Join(dir, "session-000-with-a-long-name.jsonl")); err == nil {
		t.Error("a file listed as a directory")
	}
}

// FuzzParseDirents: any bytes in the listing buffer end the parse cleanly.
func FuzzParseDirents(f *testing.F) {
	f.Add([]byte{})
	rec := make([]byte, 24)
	rec[16], rec[18] = 24, syscall.DT_REG
	copy(rec[19:], "a.jsonl")
	f.Add(rec)
	f.Add(append(append([]byte(nil), rec...), rec[:20]...))
	f.Fuzz(func(t *testing.T, b []byte) {
		ents := parseDirents(b, nil)
		if len(ents) > len(b)/19 {
			t.Fatalf("%d entries from %d bytes", len(ents), len(b))
		}
	})
}
