package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Root is the module root (the directory holding go.mod), found from the
// working directory of the test.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test directory")
		}
		dir = parent
	}
}

// Dir returns ../shared/<elem...> beside the module root, skipping the test
// when it does not exist. DSH_REPLAY_SHARED overrides the location.
func Dir(t testing.TB, elem ...string) string {
	t.Helper()
	base := os.Getenv("DSH_REPLAY_SHARED")
	if base == "" {
		base = filepath.Join(Root(t), "..", "shared")
	}
	p := filepath.Join(append([]string{base}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("reference data not available (%s): %v", filepath.Join(elem...), err)
	}
	return p
}
