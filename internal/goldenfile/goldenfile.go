package goldenfile

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// Update reports whether the run rewrites its golden files (go test -update).
func Update() bool { return *update }

// Check compares got with the golden file at path; under -update it writes
// got there instead (creating its directory). A difference is shown as a
// diff with how to regenerate.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (regenerate: go test -run '%s' -update)", err, t.Name())
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs from the output (-want +got; regenerate: go test -run '%s' -update):\n%s", path, t.Name(), d)
	}
}
