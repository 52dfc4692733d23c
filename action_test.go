package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeRunner is the part of a GitHub runner the action's script sees: the
// files behind GITHUB_OUTPUT, GITHUB_PATH and GITHUB_STEP_SUMMARY, a temp
// and a tool-cache directory, and a release server on 127.0.0.1.
type fakeRunner struct {
	dir, output, path, summary string
	env                        []string
}

func newFakeRunner(t *testing.T, dir, server string) *fakeRunner {
	r := &fakeRunner{dir: dir, output: filepath.Join(dir, "output"), path: filepath.Join(dir, "path"), summary: filepath.Join(dir, "summary.md")}
	for _, d := range []string{"temp", "toolcache"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	osName := map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}[runtime.GOOS]
	archName := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	r.env = []string{
		"GITHUB_OUTPUT=" + r.output, "GITHUB_PATH=" + r.path, "GITHUB_STEP_SUMMARY=" + r.summary,
		"RUNNER_TEMP=" + filepath.Join(dir, "temp"), "RUNNER_TOOL_CACHE=" + filepath.Join(dir, "toolcache"),
		"RUNNER_OS=" + osName, "RUNNER_ARCH=" + archName, "GITHUB_TOKEN=",
		"DSH_REPLAY_DOWNLOAD_URL=" + server + "/download", "DSH_REPLAY_API_URL=" + server + "/api",
		"NO_COLOR=1", "CI=true",
	}
	return r
}

// step runs one subcommand of scripts/action.sh as the action does: with
// the directories earlier steps added to GITHUB_PATH in front of PATH.
func (r *fakeRunner) step(t *testing.T, sub string, env ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "scripts/action.sh", sub)
	path := os.Getenv("PATH")
	if b, err := os.ReadFile(r.path); err == nil {
		for _, d := range strings.Fields(string(b)) {
			path = d + string(os.PathListSeparator) + path
		}
	}
	cmd.Env = append(append(append(os.Environ(), r.env...), "PATH="+path), env...)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok && ctx.Err() == nil {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("action.sh %s: %v (%v)\n%s", sub, err, ctx.Err(), out)
	}
	return string(out), 0
}

// outputs reads GITHUB_OUTPUT (the last value of a key wins, as on GitHub).
func (r *fakeRunner) outputs(t *testing.T) map[string]string {
	b, _ := os.ReadFile(r.output)
	m := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			m[k] = v
		}
	}
	return m
}

// releaseServer serves rel as GitHub serves a release (…/download/TAG/NAME)
// and the API's latest release; tamper replaces checksums.txt's content.
func releaseServer(t *testing.T, rel string, tamper bool) string {
	mux := http.NewServeMux()
	mux.HandleFunc("/api/repos/dsh-replay/dsh-replay/releases/latest", func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte(`{"url":"x","tag_name":"` + releaseVersion + `","name":"` + releaseVersion + `"}`))
	})
	mux.HandleFunc("/download/"+releaseVersion+"/", func(w http.ResponseWriter, req *http.Request) {
		name := strings.TrimPrefix(req.URL.Path, "/download/"+releaseVersion+"/")
		if strings.Contains(name, "/") {
			http.NotFound(w, req)
			return
		}
		if tamper && name == "checksums.txt" {
			w.Write([]byte(strings.Repeat("0", 64) + "  " + hostArchive() + "\n"))
			return
		}
		http.ServeFile(w, req, filepath.Join(rel, name))
	})
	srv := httptest.NewServer(mux) // on 127.0.0.1
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("the release server listens on %s, want 127.0.0.1", srv.URL)
	}
	return srv.URL
}

var annotationRE = regexp.MustCompile(`(?m)^::(error|warning|notice)( [^:]*)?::`)

// testActionScript installs the release in rel into a fake runner through
// scripts/action.sh and verifies logs with it.
func testActionScript(t *testing.T, rel, dir string) {
	r := newFakeRunner(t, dir, releaseServer(t, rel, false))
	out, code := r.step(t, "resolve", "INPUT_VERSION=latest")
	o := r.outputs(t)
	if code != 0 || o["version"] != releaseVersion || !strings.HasPrefix(o["dir"], filepath.Join(dir, "toolcache")) {
		t.Fatalf("resolve: exit %d, outputs %v\n%s", code, o, out)
	}
	// version-file wins over version; comments and blank lines are skipped.
	vf := filepath.Join(dir, "dsh-replay-version")
	if err := os.WriteFile(vf, []byte("# pinned\n\n"+strings.TrimPrefix(releaseVersion, "v")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := r.step(t, "resolve", "INPUT_VERSION=v9.9.9", "INPUT_VERSION_FILE="+vf); code != 0 || r.outputs(t)["version"] != releaseVersion {
		t.Errorf("resolve with version-file: exit %d, version %q\n%s", code, r.outputs(t)["version"], out)
	}
	if out, code := r.step(t, "resolve", "INPUT_INSTALL_MODE=docker"); code == 0 || !strings.Contains(out, "install-mode must be binary or go-install") {
		t.Errorf("resolve with install-mode docker: exit %d\n%s", code, out)
	}
	install := []string{"VERSION=" + o["version"], "DIR=" + o["dir"]}
	out, code = r.step(t, "install", install...)
	o = r.outputs(t)
	if code != 0 || !strings.Contains(out, "checked against checksums.txt") || !fileExists(o["path"]) {
		t.Fatalf("install: exit %d, outputs %v\n%s", code, o, out)
	}
	if p, _ := os.ReadFile(r.path); strings.TrimSpace(string(p)) != filepath.Dir(o["path"]) {
		t.Errorf("GITHUB_PATH holds %q, want %s", p, filepath.Dir(o["path"]))
	}
	// The cache restored the directory: nothing is downloaded again.
	if out, code = r.step(t, "install", install...); code != 0 || !strings.Contains(out, "from the cache") {
		t.Errorf("second install: exit %d\n%s", code, out)
	}

	// The example verifies: exit 0, every report written.
	out, code = r.step(t, "verify", "INPUT_PATHS=testdata/example")
	o = r.outputs(t)
	if code != 0 || o["exit-code"] != "0" || !strings.Contains(out, "OK:") {
		t.Errorf("verify testdata/example: exit %d, outputs %v\n%s", code, o, out)
	}
	for _, k := range []string{"junit", "ndjson", "html"} {
		if st, err := os.Stat(o[k]); err != nil || st.Size() == 0 {
			t.Errorf("report %s (%s): %v", k, o[k], err)
		}
	}
	// Mutated logs (divergent, some corrupt): verify's exit code, annotations within GitHub's limits, the rest
	// counted in one notice, a summary with <details> under 1 MiB.
	os.Remove(r.summary)
	out, code = r.step(t, "verify", "INPUT_PATHS=testdata/verify/mutated", "INPUT_REPORT_DIR="+filepath.Join(dir, "reports"))
	o = r.outputs(t)
	if code == 0 || o["exit-code"] != strconv.Itoa(code) {
		t.Errorf("verify testdata/verify/mutated: exit %d, outputs %v\n%s", code, o, out)
	}
	perKind := map[string]int{}
	total := 0
	for _, m := range annotationRE.FindAllStringSubmatch(out, -1) {
		perKind[m[1]]++
		total++
	}
	if perKind["error"] != 10 || perKind["notice"] < 1 || total > 50 {
		t.Errorf("annotations per kind %v (total %d): want 10 errors (the cap), a notice counting the rest, at most 50", perKind, total)
	}
	for k, n := range perKind {
		if n > 10 {
			t.Errorf("%d %s annotations: GitHub shows at most 10 per kind and step", n, k)
		}
	}
	if !strings.Contains(out, "more not annotated") {
		t.Errorf("no notice counts the findings left out:\n%s", out)
	}
	sum, err := os.ReadFile(r.summary)
	if err != nil || len(sum) >= 1<<20 || !strings.Contains(string(sum), "<details>") || !strings.Contains(string(sum), "## dsh-replay verify") {
		t.Errorf("job summary: %d bytes, %v\n%.2000s", len(sum), err, sum)
	}
	if !strings.HasPrefix(o["html"], filepath.Join(dir, "reports")) || !fileExists(o["html"]) {
		t.Errorf("the HTML report to upload: %q", o["html"])
	}

	// A checksum that does not match installs nothing.
	bad := newFakeRunner(t, filepath.Join(dir, "tampered"), releaseServer(t, rel, true))
	badDir := filepath.Join(dir, "tampered", "toolcache", "x")
	out, code = bad.step(t, "install", "VERSION="+releaseVersion, "DIR="+badDir)
	if code == 0 || !strings.Contains(out, "checksums.txt says") || fileExists(badDir) {
		t.Errorf("install with a wrong checksum: exit %d, %s exists %v\n%s", code, badDir, fileExists(badDir), out)
	}
	if p, _ := os.ReadFile(bad.path); len(p) != 0 {
		t.Errorf("a failed install added %q to GITHUB_PATH", p)
	}
}
