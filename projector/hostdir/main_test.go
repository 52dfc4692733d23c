package hostdir_test

import (
	"os"
	"testing"
)

// TestMain keeps the tests' bundles out of the user's cache directory.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hostdir-cache")
	if err == nil {
		os.Setenv("DSH_REPLAY_CACHE_DIR", dir)
	}
	code := m.Run()
	if err == nil {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}
