package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/report"
)

// runShards writes the blobs of n shards of verify over paths into dir.
func runShards(t *testing.T, dir string, n int, extra []string, paths ...string) []string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var blobs []string
	for k := 1; k <= n; k++ {
		b := filepath.Join(dir, "shard-"+strconv.Itoa(k)+".blob")
		args := append([]string{"--deterministic", "--format", "json", "--shard", strconv.Itoa(k) + "/" + strconv.Itoa(n), "--report", "blob=" + b}, extra...)
		_, errOut, code := verifyCLI(t, "", append(args, paths...)...)
		if code == cmdutil.ExitUsage || code < 0 {
			t.Fatalf("shard %d/%d: exit %d %s", k, n, code, errOut)
		}
		blobs = append(blobs, b)
	}
	return blobs
}

// TestMergeReportsIdentical: three shards' blobs merge into the HTML,
// JUnit, NDJSON and github reports of the unsharded run over testdata/,
// byte for byte, with its exit code; each shard verified only its logs.
func TestMergeReportsIdentical(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	kinds := []string{"html", "junit", "json", "github"}
	reports := func(prefix string) []string {
		var args []string
		for _, k := range kinds[:3] {
			args = append(args, "--report", k+"="+filepath.Join(dir, prefix+"."+k))
		}
		return append(args, "--format", "github")
	}
	want, errOut, wantCode := verifyCLI(t, "", append(append([]string{"--deterministic"}, reports("whole")...), "../testdata")...)
	if wantCode != cmdutil.ExitCannot { // testdata holds corrupt logs
		t.Fatalf("unsharded: exit %d %s", wantCode, errOut)
	}
	blobs := runShards(t, dir, 3, nil, "../testdata")
	got, errOut, code := cli(t, nil, append(append([]string{"merge-reports", "--deterministic"}, reports("merged")...), blobs...)...)
	if code != wantCode {
		t.Errorf("merge-reports: exit %d, the unsharded run %d: %s", code, wantCode, errOut)
	}
	if got != want {
		t.Errorf("github output differs from the unsharded run's:\n%s", firstDiff(want, got))
	}
	for _, k := range kinds[:3] {
		w, _ := os.ReadFile(filepath.Join(dir, "whole."+k))
		g, err := os.ReadFile(filepath.Join(dir, "merged."+k))
		if err != nil || len(w) == 0 || !bytes.Equal(w, g) {
			t.Errorf("%s report differs from the unsharded run's (%v):\n%s", k, err, firstDiff(string(w), string(g)))
		}
	}

	// Each log was verified by exactly one shard.
	seen := map[string]int{}
	for _, b := range blobs {
		f, err := os.Open(b)
		if err != nil {
			t.Fatal(err)
		}
		r, err := report.OpenBlob(b, f)
		if err != nil {
			t.Fatal(err)
		}
		for {
			u, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			if u == nil {
				break
			}
			seen[u.File]++
		}
		f.Close()
	}
	if len(seen) < 100 {
		t.Errorf("the blobs hold %d logs; testdata has more", len(seen))
	}
	for f, n := range seen {
		if n != 1 {
			t.Errorf("%s verified by %d shards", f, n)
		}
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + strconv.Itoa(i+1) + ":\n- " + x + "\n+ " + y
		}
	}
	return "(same lines)"
}

// TestMergeReportsRefuses: blobs that are not one run's shards, each once,
// are refused with a message naming the blobs and the cause.
func TestMergeReportsRefuses(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(verifyData, "clean")
	blobs := runShards(t, dir, 3, nil, log)
	strict := runShards(t, filepath.Join(dir, "strict"), 3, []string{"--strict"}, log)
	two := runShards(t, filepath.Join(dir, "two"), 2, nil, log)
	other := runShards(t, filepath.Join(dir, "other"), 3, nil, filepath.Join(log, "bash.jsonl"), log)
	data, _ := os.ReadFile(blobs[2])
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	version := write("version.blob", strings.Replace(string(data), `"version":"`, `"version":"v9.9.9-`, 1))
	lines := strings.SplitAfter(string(data), "\n")
	cut := write("cut.blob", strings.Join(lines[:len(lines)-2], ""))
	torn := write("torn.blob", string(data[:len(data)-10]))
	junk := write("junk.blob", "{\"a\":1}\n")
	tests := []struct {
		name  string
		blobs []string
		want  string
	}{
		{"missing shard", blobs[:2], "shard 3/3 missing"},
		{"twice", []string{blobs[0], blobs[0], blobs[1], blobs[2]}, "both shard 1/3"},
		{"shard counts", []string{blobs[0], two[1]}, "split differently"},
		{"configs", []string{blobs[0], strict[1], blobs[2]}, "different configurations"},
		{"inputs", []string{blobs[0], other[1], blobs[2]}, "different inputs"},
		{"versions", []string{blobs[0], blobs[1], version}, "was written by dsh-replay"},
		{"cut short", []string{blobs[0], blobs[1], cut}, "cut short"},
		{"torn line", []string{blobs[0], blobs[1], torn}, "cut short"},
		{"not a blob", []string{junk}, "not a dsh-replay blob"},
		{"no such file", []string{filepath.Join(dir, "nope.blob")}, "nope.blob"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, tt.name+".xml")
			_, errOut, code := cli(t, nil, append([]string{"merge-reports", "--report", "junit=" + out}, tt.blobs...)...)
			if code != cmdutil.ExitCannot || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 3 and %q", code, errOut, tt.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a refused merge wrote %s", out)
			}
		})
	}
	// Usage errors.
	for _, args := range [][]string{{"merge-reports"}, {"merge-reports", "--report", "blob=x", blobs[0]}, {"merge-reports", "--format", "nope", blobs[0]}} {
		if _, _, code := cli(t, nil, args...); code != cmdutil.ExitUsage {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
