package testtree

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Copy copies a directory of test data into a fresh temporary directory
// and returns the copy's path (named like src).
func Copy(t testing.TB, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// Snapshot reads every file of a tree, by path relative to dir.
func Snapshot(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			m[rel], _ = os.ReadFile(p)
		}
		return nil
	})
	return m
}

// MustContain fails t for each of wants that got lacks.
func MustContain(t testing.TB, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

// Strip blanks a log line's content and drops its meta, so lines compare
// equal when only the re-recorded fields differ.
func Strip(t testing.TB, line []byte) string {
	t.Helper()
	v, err := jsonv.Parse(line)
	if err != nil {
		t.Fatalf("line does not parse: %v", err)
	}
	var ms []jsonv.Member
	for _, m := range v.Members() {
		if m.Key == "data" {
			var dm []jsonv.Member
			for _, d := range m.Value.Members() {
				switch d.Key {
				case "meta":
					continue
				case "content":
					d.Value = jsonv.NullValue()
				case "message":
					msg := d.Value
					blk := msg.Get("content").At(0).With("content", jsonv.NullValue())
					d.Value = msg.With("content", jsonv.Arr(blk))
				}
				dm = append(dm, d)
			}
			m.Value = jsonv.Obj(dm...)
		}
		ms = append(ms, m)
	}
	return jsonv.Encode(jsonv.Obj(ms...))
}
