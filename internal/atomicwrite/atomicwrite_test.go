//go:build unix

package atomicwrite

import (
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
)

// TestRemoveStaleTemps: only this file's temporary files whose writer is
// gone are removed; a live write, other names, FIFOs and symlinks stay.
func TestRemoveStaleTemps(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.jsonl")
	write := func(name string) string {
		q := filepath.Join(dir, name)
		if err := os.WriteFile(q, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
		return q
	}
	stale := write(TempPrefix + "f.jsonl-123")
	live := write(TempPrefix + "f.jsonl-456")
	keep := []string{
		live,
		write(TempPrefix + "f.jsonl-12a"),   // not our naming
		write(TempPrefix + "f.jsonl.new-7"), // another file's
		write(TempPrefix + "f.jsonl-"),
		write("f.jsonl-9"),
	}
	fifo := filepath.Join(dir, TempPrefix+"f.jsonl-77")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, TempPrefix+"f.jsonl-88")
	if err := os.Symlink(stale, link); err != nil {
		t.Fatal(err)
	}
	keep = append(keep, fifo, link)
	f, err := os.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	if err := lockFile(f); err != nil {
		t.Fatal(err)
	}
	got := RemoveStaleTemps(p)
	f.Close()
	if len(got) != 1 || got[0] != stale {
		t.Errorf("removed %v, want only %s", got, stale)
	}
	for _, k := range keep {
		if _, err := os.Lstat(k); err != nil {
			t.Errorf("%s was removed", filepath.Base(k))
		}
	}
}

// TestWriteFileSweeps: a write removes what an earlier, killed write
// of the same file left, and nothing else.
func TestWriteFileSweeps(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "g.jsonl")
	os.WriteFile(filepath.Join(dir, TempPrefix+"g.jsonl-1"), []byte("x"), 0o600)
	os.WriteFile(filepath.Join(dir, TempPrefix+"h.jsonl-1"), []byte("x"), 0o600)
	if err := WriteFile(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	if len(names) != 2 || names[0] != TempPrefix+"h.jsonl-1" || names[1] != "g.jsonl" {
		t.Errorf("left %v", names)
	}
}
