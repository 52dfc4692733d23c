package cmd

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// nodeMajor is the major version of the node on PATH, 0 when there is none.
func nodeMajor() int {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return 0
	}
	major, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(string(out)), "v"), ".")
	n, _ := strconv.Atoi(major)
	return n
}

// TestRecorderPackage packs the recorder as npm would publish it, checks
// what the tarball holds, installs it into a real profile of each prepared
// host tree as recorder/README.md says (scripts/recorder-profile.sh), runs
// a session through the host's CLI and verifies the call with its value.
func TestRecorderPackage(t *testing.T) {
	dshTree := os.Getenv("DSH_REPLAY_UPSTREAM")
	if dshTree == "" {
		t.Skip("skipped: DSH_REPLAY_UPSTREAM names no prepared DSH tree")
	}
	if n := nodeMajor(); n < 22 {
		t.Skipf("skipped: the hosts need node 22 on PATH (found major %d)", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	dir := t.TempDir()
	cmd := exec.CommandContext(ctx, "bash", "../scripts/recorder-pack.sh", dir)
	cmd.Env = append(os.Environ(), "VERSION=v1.2.3")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("recorder-pack.sh: %v", err)
	}
	tarball := strings.TrimSpace(string(out))
	if filepath.Base(tarball) != "dsh-replay-recorder-1.2.3.tgz" {
		t.Fatalf("packed %s, want dsh-replay-recorder-1.2.3.tgz (dsh-replay's version)", tarball)
	}
	files, pkg := tarballFiles(t, tarball)
	if got, want := strings.Join(files, " "), "package/LICENSE package/README.md package/dist/index.d.ts package/dist/index.js package/package.json"; got != want {
		t.Errorf("the tarball holds %s, want %s", got, want)
	}
	var manifest struct {
		Name    string
		Version string
		Exports struct {
			Dot map[string]string `json:"."`
		}
	}
	if err := json.Unmarshal(pkg, &manifest); err != nil {
		t.Fatal(err)
	}
	if manifest.Name != "dsh-replay-recorder" || manifest.Version != "1.2.3" || manifest.Exports.Dot["import"] != "./dist/index.js" || manifest.Exports.Dot["types"] != "./dist/index.d.ts" {
		t.Errorf("package.json: %+v", manifest)
	}

	hosts := []struct{ host, tree string }{{"dsh", dshTree}, {"lasmex", os.Getenv("DSH_REPLAY_UPSTREAM_LASMEX")}}
	for _, h := range hosts {
		t.Run(h.host, func(t *testing.T) {
			if h.tree == "" {
				t.Skipf("skipped: no prepared %s tree (DSH_REPLAY_UPSTREAM_LASMEX)", h.host)
			}
			if !fileExists(filepath.Join(h.tree, "packages", "goal", "goal", "lib", "typert.host.js")) {
				t.Fatalf("%s: the tree's host libraries are not built: nothing to boot", h.tree)
			}
			sessions := t.TempDir()
			cmd := exec.CommandContext(ctx, "bash", "../scripts/recorder-profile.sh", h.host, sessions)
			cmd.Env = append(os.Environ(), "RECORDER_TARBALL="+tarball)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("recorder-profile.sh: %v (%v)\n%s", err, ctx.Err(), b)
			}
			stdout, errOut, code := verifyCLI(t, "", "--strict", "--format", "json", "--deterministic", sessions)
			if code != cmdutil.ExitOK {
				t.Fatalf("verify exit %d\n%s%s", code, stdout, errOut)
			}
			if s := parseNDJSON(t, stdout).summary; s["calls"].(float64) != 1 || s["checkedWithValues"].(float64) != 1 {
				t.Errorf("want the read call checked with its value: %v", s["verdict"])
			}
		})
	}
}

// tarballFiles lists an npm tarball's regular files, sorted, and returns
// its package.json.
func tarballFiles(t *testing.T, path string) ([]string, []byte) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var names []string
	var pkg []byte
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		names = append(names, h.Name)
		if h.Name == "package/package.json" {
			if pkg, err = io.ReadAll(tr); err != nil {
				t.Fatal(err)
			}
		}
	}
	sort.Strings(names)
	return names, pkg
}
