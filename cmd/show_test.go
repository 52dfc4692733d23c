package cmd

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// -update rewrites the golden files; registered only if another test file of
// the package has not registered it already.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files")
	}
}

func showUpdate() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func showCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

func checkShowGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("..", "testdata", "show", "golden", name)
	if showUpdate() {
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
		t.Fatalf("%v (regenerate: go test ./cmd -run %s -update)", err, t.Name())
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs (-want +got; regenerate: go test ./cmd -run '%s' -update):\n%s", name, t.Name(), d)
	}
}

var showLogs = []string{"terminal.jsonl", "fs.jsonl", "other.jsonl"}

func TestShowGoldens(t *testing.T) {
	useReader(t)
	t.Setenv("NO_COLOR", "")
	for _, log := range showLogs {
		path := "../testdata/show/" + log
		base := strings.TrimSuffix(log, ".jsonl")
		type variant struct {
			name string
			args []string
		}
		var vs []variant
		for _, w := range []int{40, 80, 120} {
			vs = append(vs,
				variant{fmt.Sprintf("%s.w%d.plain.txt", base, w), []string{"--width", fmt.Sprint(w)}},
				variant{fmt.Sprintf("%s.w%d.color.txt", base, w), []string{"--width", fmt.Sprint(w), "--color", "always"}})
		}
		vs = append(vs,
			variant{base + ".full.w80.plain.txt", []string{"--width", "80", "--full"}},
			variant{base + ".compact.w80.plain.txt", []string{"--width", "80", "--compact"}},
			variant{base + ".raw.w80.plain.txt", []string{"--width", "80", "--raw"}},
			variant{base + ".ndjson", []string{"--json"}})
		for _, v := range vs {
			t.Run(v.name, func(t *testing.T) {
				out, errs, code := showCLI(t, append(append([]string{"show", "--no-pager"}, v.args...), path)...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errs)
				}
				checkShowGolden(t, v.name, strings.ReplaceAll(out, "\x1b", "␛"))
			})
		}
	}
}
