package cmd

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestHelpTopics: `help exit-codes` gives every exit code, and `help
// environment` names every DSH_REPLAY_* variable the program, its scripts
// and its tests read (found in the sources, so a new one cannot go
// unlisted).
func TestHelpTopics(t *testing.T) {
	t.Parallel()
	out, _, code := cli(t, nil, "help", "exit-codes")
	if code != ExitOK {
		t.Fatalf("help exit-codes: exit %d", code)
	}
	for _, want := range []string{"\n  0 ", "\n  1 ", "\n  2 ", "\n  3 ", "\n  130 "} {
		if !strings.Contains(out, want) {
			t.Errorf("help exit-codes lacks %q:\n%s", want, out)
		}
	}
	env, _, code := cli(t, nil, "help", "environment")
	if code != ExitOK {
		t.Fatalf("help environment: exit %d", code)
	}
	re := regexp.MustCompile(`DSH_REPLAY_[A-Z0-9_]*[A-Z0-9]`)
	seen := map[string]bool{}
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(p) {
		case ".go", ".sh", ".ts", ".mjs", ".yml":
		default:
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, v := range re.FindAllString(string(b), -1) {
			seen[v] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 10 {
		t.Fatalf("found %d DSH_REPLAY_ variables in the sources: is the walk looking in the right place?", len(seen))
	}
	for v := range seen {
		if !strings.Contains(env, v) && !(strings.HasSuffix(v, "_PROBE") && strings.Contains(env, "*_PROBE")) {
			t.Errorf("help environment does not name %s", v)
		}
	}
}
