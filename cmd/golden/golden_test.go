package golden

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/atomicwrite"
	"github.com/dsh-replay/dsh-replay/internal/clitest"
	"github.com/dsh-replay/dsh-replay/internal/filelock"
	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/internal/testtree"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// goldenCLI runs dsh-replay in-process with CI unset (a CI job running these
// tests must not make update refuse).
// Run runs the golden command tree as the CLI does.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	return cmdutil.RunCommands(args, stdin, stdout, stderr, NewCmd(&cmdutil.Factory{}))
}

func goldenCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	clitest.NoCI(t)
	return ciCLI(t, args...)
}

func names(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func goldenData(elem ...string) string {
	return filepath.Join(append([]string{"..", "..", "testdata", "golden"}, elem...)...)
}

// decoded is a log's text (zstd decoded).
func decoded(t *testing.T, b []byte) []byte {
	t.Helper()
	if len(b) < 4 || !bytes.Equal(b[:4], []byte{0x28, 0xb5, 0x2f, 0xfd}) {
		return b
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	out, err := dec.DecodeAll(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestGoldenUpdateMatchesAccepted(t *testing.T) {
	dir := copyTree(t, goldenData("drift"))
	before := snapshot(t, dir)
	out, errOut, code := goldenCLI(t, "golden", "update", dir)
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	mustContain(t, "update output", out, "session.jsonl: 6 calls re-recorded", "frames.jsonl.zstd: 1 call re-recorded", "golden: 3 logs, 3 updated, 0 unchanged")
	got, want := snapshot(t, dir), snapshot(t, goldenData("accepted"))
	if strings.Join(names(got), " ") != strings.Join(names(want), " ") {
		t.Fatalf("files %v, want %v", names(got), names(want))
	}
	for name, w := range want {
		g := got[name]
		if strings.HasSuffix(name, ".zstd") {
			// Re-encoded frames depend on the encoder build; the text must not.
			g, w = decoded(t, g), decoded(t, w)
		}
		if !bytes.Equal(g, w) {
			t.Errorf("%s differs from testdata/golden/accepted", name)
		}
	}
	if !bytes.Equal(got["legacy.values.jsonl"], before["legacy.values.jsonl"]) {
		t.Error("the values sidecar changed")
	}
	// A second update changes nothing; check passes.
	out, _, code = goldenCLI(t, "golden", "update", dir)
	mustContain(t, "second update", out, "0 updated, 3 unchanged")
	if code != cmdutil.ExitOK {
		t.Errorf("second update exit %d", code)
	}
	after := snapshot(t, dir)
	for name := range after {
		if !bytes.Equal(after[name], got[name]) {
			t.Errorf("second update rewrote %s", name)
		}
	}
	if out, _, code := goldenCLI(t, "golden", "check", dir); code != cmdutil.ExitOK {
		t.Errorf("check after update: exit %d\n%s", code, out)
	}
}

// TestGoldenCheckAccepted checks the committed goldens in place (check
// never writes).
func TestGoldenCheckAccepted(t *testing.T) {
	out, errOut, code := goldenCLI(t, "golden", "check", goldenData("accepted"))
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	mustContain(t, "check", out, "golden check: ok: 3 logs, 0 drifted, 0 unreferenced, 0 pending")
}

func TestGoldenUpdateTouchesOnlyReRecordedFields(t *testing.T) {
	dir := copyTree(t, goldenData("drift"))
	before := snapshot(t, dir)
	if out, errOut, code := goldenCLI(t, "golden", "update", dir); code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	after := snapshot(t, dir)
	for _, name := range []string{"session.jsonl", "legacy.jsonl", "frames.jsonl.zstd"} {
		old := bytes.SplitAfter(decoded(t, before[name]), []byte{'\n'})
		new := bytes.SplitAfter(decoded(t, after[name]), []byte{'\n'})
		if len(old) != len(new) {
			t.Fatalf("%s: %d lines became %d", name, len(old), len(new))
		}
		changed := 0
		for i := range old {
			if bytes.Equal(old[i], new[i]) {
				continue
			}
			changed++
			if !bytes.Contains(old[i], []byte(`"type":"tool/result"`)) && !bytes.Contains(old[i], []byte(`"type":"tool/code-dispatch"`)) {
				t.Errorf("%s:%d: a line that settles no call changed", name, i+1)
			}
			if a, b := strip(t, old[i]), strip(t, new[i]); a != b {
				t.Errorf("%s:%d: bytes outside content/meta changed:\n%s\n%s", name, i+1, a, b)
			}
		}
		if changed == 0 {
			t.Errorf("%s: nothing was re-recorded", name)
		}
	}
	// contentReplaced: the content is kept, the meta is re-recorded.
	calls := readAll(t, filepath.Join(dir, "session.jsonl"))
	r := calls["call_read_1"]
	if !r.ContentReplaced || r.Content.At(0).Get("text").Str() != "[redacted by a post-execute hook]" {
		t.Errorf("a contentReplaced content was re-rendered: %s", jsonv.Encode(r.Content))
	}
	if r.Meta.Has("lang") {
		t.Error("the contentReplaced call's meta was not re-recorded")
	}
	if sub := calls["call_run_code_1:code:1"]; sub.Meta.IsDefined() {
		t.Error("a sub-call kept its meta")
	}
	if b := calls["call_bash_1"]; b.Meta.IsDefined() {
		t.Error("bash (no presentationMeta) kept a recorded meta")
	}
	if !bytes.Equal(before["legacy.values.jsonl"], after["legacy.values.jsonl"]) {
		t.Error("sidecar changed")
	}
	// The zstd log keeps its header frame and every frame without an edit.
	oldZ, newZ := before["frames.jsonl.zstd"], after["frames.jsonl.zstd"]
	i := 0
	for i < len(oldZ) && i < len(newZ) && oldZ[i] == newZ[i] {
		i++
	}
	if i < len(oldZ)/3 {
		t.Errorf("zstd log differs from byte %d: the untouched leading frames must be verbatim", i)
	}
}

// readAll reads every call of a log (sub-calls included) by id.
func readAll(t *testing.T, path string) map[string]*logformat.Call {
	t.Helper()
	m := map[string]*logformat.Call{}
	_, err := logformat.ReadCalls(path, logformat.Options{}, func(c *logformat.Call) error {
		m[c.CallID] = c
		for _, s := range c.SubCalls {
			m[s.CallID] = s
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGoldenCheckDrift(t *testing.T) {
	dir := copyTree(t, goldenData("drift"))
	before := snapshot(t, dir)
	out, _, code := goldenCLI(t, "golden", "check", "--config", filepath.Join(t.TempDir(), "none.json"), dir)
	if code != cmdutil.ExitUsage {
		t.Errorf("a missing --config is a usage error, got %d", code)
	}
	out, _, code = goldenCLI(t, "golden", "check", "--max-lines", "3", dir)
	if code != cmdutil.ExitDivergence {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	mustContain(t, "check", out,
		"DRIFT "+filepath.Join(dir, "session.jsonl")+": 6 calls would be re-recorded",
		"call call_edit_1 (edit): content, meta added",
		"sub-call call call_run_code_1:code:1 (read): content, meta removed",
		"call call_bash_1 (bash): meta removed",
		"- The file /abs/a.txt has been updated.",
		"+ The file /abs/a.txt has been updated successfully.",
		"… ", "more lines",
		"MISSING "+filepath.Join(dir, "session.cards.txt"),
		"to regenerate: dsh-replay golden update "+filepath.Join(dir, "frames.jsonl.zstd"),
		"golden check: FAILED: 3 logs, 3 drifted")
	if after := snapshot(t, dir); len(after) != len(before) {
		t.Error("check wrote files")
	}
}

func TestGoldenCardDrift(t *testing.T) {
	dir := copyTree(t, goldenData("accepted"))
	p := filepath.Join(dir, "session.cards.txt")
	b, _ := os.ReadFile(p)
	// Change the body (trailing space, tab), and the version: only the body counts.
	b = bytes.Replace(b, []byte("version dev"), []byte("version v9.9.9"), 1)
	os.WriteFile(p, bytes.Replace(b, []byte("│ a.txt\n"), []byte("│ a.txt \t\n"), 1), 0o644)
	out, _, code := goldenCLI(t, "golden", "check", dir)
	if code != cmdutil.ExitDivergence {
		t.Fatalf("exit %d\n%s", code, out)
	}
	mustContain(t, "check", out, "DRIFT "+p+": the cards differ", "- │ a.txt ␉", "+ │ a.txt")
	// A golden that differs only in the version is not drift and is not rewritten.
	os.WriteFile(p, b, 0o644)
	if out, _, code := goldenCLI(t, "golden", "check", dir); code != cmdutil.ExitOK {
		t.Fatalf("version-only difference: exit %d\n%s", code, out)
	}
	goldenCLI(t, "golden", "update", dir)
	if now, _ := os.ReadFile(p); !bytes.Equal(now, b) {
		t.Error("update rewrote a golden that differs only in the version")
	}
	// An older format is drift, and update migrates it.
	os.WriteFile(p, bytes.Replace(b, []byte("format 1"), []byte("format 0"), 1), 0o644)
	out, _, _ = goldenCLI(t, "golden", "check", dir)
	mustContain(t, "check", out, "golden format 0, this dsh-replay writes format 1")
	out, _, _ = goldenCLI(t, "golden", "update", dir)
	mustContain(t, "update", out, "(golden format 0 → 1)")
}

func TestGoldenDryRun(t *testing.T) {
	dir := copyTree(t, goldenData("drift"))
	before := snapshot(t, dir)
	out, _, code := goldenCLI(t, "golden", "update", "--dry-run", dir)
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d", code)
	}
	mustContain(t, "dry run", out, "would update "+filepath.Join(dir, "session.jsonl")+": 6 calls re-recorded",
		"would write "+filepath.Join(dir, "session.cards.txt")+" (new)", "3 would change")
	after := snapshot(t, dir)
	if len(after) != len(before) {
		t.Fatal("dry run wrote files")
	}
	for k := range before {
		if !bytes.Equal(before[k], after[k]) {
			t.Errorf("dry run changed %s", k)
		}
	}
}

func TestGoldenRefusesInCI(t *testing.T) {
	dir := copyTree(t, goldenData("drift"))
	before := snapshot(t, dir)
	t.Setenv("CI", "true")
	for _, args := range [][]string{{"update", dir}, {"accept", dir}, {"reject", dir}} {
		var out, errb bytes.Buffer
		code := Run(append([]string{"golden"}, args...), nil, &out, &errb)
		if code != cmdutil.ExitUsage || !strings.Contains(errb.String(), "CI is set") {
			t.Errorf("%v: exit %d, %s", args, code, errb.String())
		}
	}
	if len(snapshot(t, dir)) != len(before) {
		t.Fatal("wrote under CI")
	}
	// check and --dry-run run in CI; --force writes.
	var out, errb bytes.Buffer
	if code := Run([]string{"golden", "update", "--dry-run", dir}, nil, &out, &errb); code != cmdutil.ExitOK {
		t.Errorf("dry run in CI: exit %d", code)
	}
	if code := Run([]string{"golden", "update", "--force", dir}, nil, &out, &errb); code != cmdutil.ExitOK {
		t.Errorf("--force in CI: exit %d %s", code, errb.String())
	}
	if code := Run([]string{"golden", "check", dir}, nil, &out, &errb); code != cmdutil.ExitOK {
		t.Errorf("check in CI after a forced update: exit %d", code)
	}
}

func TestGoldenReviewFlow(t *testing.T) {
	dir := copyTree(t, goldenData("drift"))
	before := snapshot(t, dir)
	out, _, code := goldenCLI(t, "golden", "update", "--review", dir)
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d", code)
	}
	mustContain(t, "update --review", out, "pending "+filepath.Join(dir, "session.jsonl.new"), "review with: dsh-replay golden diff "+dir)
	mid := snapshot(t, dir)
	for k, v := range before {
		if !bytes.Equal(mid[k], v) {
			t.Errorf("review mode changed %s in place", k)
		}
	}
	if len(mid) != len(before)+9 {
		t.Errorf("want 9 pending files, have %v", names(mid))
	}
	// check names the pending files (and the drift they stand for).
	out, _, code = goldenCLI(t, "golden", "check", dir)
	mustContain(t, "check", out, "PENDING "+filepath.Join(dir, "legacy.cards.txt.new"), "dsh-replay golden accept")
	if code != cmdutil.ExitDivergence {
		t.Errorf("check with pending files: exit %d", code)
	}

	// diff: everything, then narrowed to one call.
	out, _, _ = goldenCLI(t, "golden", "diff", dir)
	mustContain(t, "diff", out, "── "+filepath.Join(dir, "legacy.jsonl"), "call call_glob_1 (glob): content",
		"- rel/c.ts", "+ rel/c.ts (no newline at end)", "3 logs with pending goldens")
	out, _, _ = goldenCLI(t, "golden", "diff", "--call", "call_edit_2", dir)
	if strings.Contains(out, "call_glob_1") || !strings.Contains(out, "call call_edit_2 (edit): meta") {
		t.Errorf("diff --call shows other calls:\n%s", out)
	}
	mustContain(t, "diff --call", out, "golden accept --call call_edit_2 "+dir)
	out, _, _ = goldenCLI(t, "golden", "diff", "--max-lines", "2", dir)
	mustContain(t, "capped diff", out, "more lines")

	// One call of legacy, then the rest of legacy as a unit; reject session
	// as a unit; frames one tool's calls first, then the rest.
	out, _, code = goldenCLI(t, "golden", "accept", "--call", "call_glob_1", dir)
	mustContain(t, "accept --call", out, "accepted "+filepath.Join(dir, "legacy.jsonl")+" call call_glob_1 (glob)", "accepted: 1 call")
	if code != cmdutil.ExitOK {
		t.Errorf("accept exit %d", code)
	}
	out, _, _ = goldenCLI(t, "golden", "pending", "--log", "legacy.jsonl", dir)
	if strings.Contains(out, "call_glob_1") || !strings.Contains(out, "call_edit_2") {
		t.Errorf("after accepting call_glob_1 only call_edit_2 of legacy is pending:\n%s", out)
	}
	out, _, _ = goldenCLI(t, "golden", "accept", "--log", "legacy.jsonl", dir)
	mustContain(t, "accept --log", out, "accepted: 1 log")
	out, _, _ = goldenCLI(t, "golden", "reject", "--log", "session.jsonl", dir)
	mustContain(t, "reject", out, "rejected "+filepath.Join(dir, "session.cards.ndjson.new"), "rejected: 1 log")
	out, _, _ = goldenCLI(t, "golden", "accept", "--tool", "nope", dir)
	mustContain(t, "accept --tool nope", out, "no pending goldens to accept")
	out, _, _ = goldenCLI(t, "golden", "accept", "--tool", "read", dir)
	mustContain(t, "accept --tool read", out, "call call_read_1 (read)", "accepted: 1 call")
	out, _, _ = goldenCLI(t, "golden", "accept", dir)
	mustContain(t, "accept the rest", out, "accepted: 1 log")
	out, _, _ = goldenCLI(t, "golden", "diff", dir)
	mustContain(t, "diff", out, "no pending goldens")

	got := snapshot(t, dir)
	acc := snapshot(t, goldenData("accepted"))
	for _, k := range []string{"legacy.jsonl", "legacy.cards.txt", "frames.cards.ndjson"} {
		if !bytes.Equal(got[k], acc[k]) {
			t.Errorf("%s: accepted content differs from update's", k)
		}
	}
	if !bytes.Equal(got["session.jsonl"], before["session.jsonl"]) {
		t.Error("the rejected log changed")
	}
	out, _, code = goldenCLI(t, "golden", "check", dir)
	if code != cmdutil.ExitDivergence || strings.Contains(out, "legacy") || !strings.Contains(out, "session.jsonl") {
		t.Errorf("after review only session.jsonl should drift: exit %d\n%s", code, out)
	}
}

func TestGoldenOut(t *testing.T) {
	dir := copyTree(t, goldenData("drift"))
	out := filepath.Join(t.TempDir(), "out")
	before := snapshot(t, dir)
	stdout, errOut, code := goldenCLI(t, "golden", "update", "--out", out, dir)
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, errOut)
	}
	after := snapshot(t, dir)
	for k, v := range before {
		if !bytes.Equal(after[k], v) {
			t.Errorf("--out changed the source tree: %s", k)
		}
	}
	if len(after) != len(before) {
		t.Errorf("--out wrote into the source tree: %v", names(after))
	}
	mirror := filepath.Join(out, strings.TrimLeft(dir, "/"))
	written := snapshot(t, mirror)
	acc := snapshot(t, goldenData("accepted"))
	for _, k := range []string{"session.jsonl", "session.cards.txt", "legacy.cards.ndjson", "legacy.jsonl"} {
		if !bytes.Equal(written[k], acc[k]) {
			t.Errorf("%s under --out differs from the accepted golden", k)
		}
	}
	if stdout, _, code := goldenCLI(t, "golden", "check", "--out", out, dir); code != cmdutil.ExitOK {
		t.Errorf("check --out: exit %d\n%s", code, stdout)
	}
	// The failure message repeats --out.
	os.Remove(filepath.Join(mirror, "session.cards.txt"))
	stdout, _, _ = goldenCLI(t, "golden", "check", "--out", out, dir)
	mustContain(t, "check --out", stdout, "to regenerate: dsh-replay golden update --out "+out+" "+filepath.Join(dir, "session.jsonl"))
}

func TestGoldenStaleAndLeftovers(t *testing.T) {
	dir := copyTree(t, goldenData("accepted"))
	os.WriteFile(filepath.Join(dir, "gone.cards.txt"), []byte("# old\n"), 0o644)
	os.WriteFile(filepath.Join(dir, atomicwrite.TempPrefix+"session.jsonl-123"), []byte("partial"), 0o644)
	out, _, code := goldenCLI(t, "golden", "check", dir)
	if code != cmdutil.ExitDivergence {
		t.Fatalf("exit %d\n%s", code, out)
	}
	mustContain(t, "check", out, "UNREFERENCED "+filepath.Join(dir, "gone.cards.txt")+": its log is gone (warning", "LEFTOVER "+filepath.Join(dir, atomicwrite.TempPrefix+"session.jsonl-123"),
		"to delete unreferenced goldens: dsh-replay golden check --unreferenced=delete "+dir)
	// A run over files is partial: stale goldens are not named.
	out, _, _ = goldenCLI(t, "golden", "check", filepath.Join(dir, "session.jsonl"))
	if strings.Contains(out, "UNREFERENCED") || !strings.Contains(out, "only directories are complete runs") {
		t.Errorf("partial run:\n%s", out)
	}
	_, errOut, _ := goldenCLI(t, "golden", "update", dir)
	mustContain(t, "update", errOut, "stale golden "+filepath.Join(dir, "gone.cards.txt"))
	out, _, _ = goldenCLI(t, "golden", "update", "--prune", dir)
	mustContain(t, "update --prune", out, "deleted stale golden "+filepath.Join(dir, "gone.cards.txt"))
	if fileExists(filepath.Join(dir, "gone.cards.txt")) {
		t.Error("--prune kept the stale golden")
	}
}

func TestGoldenUsage(t *testing.T) {
	dir := copyTree(t, goldenData("drift"))
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"golden"}, cmdutil.ExitUsage, "needs a subcommand"},
		{[]string{"golden", "frob"}, cmdutil.ExitUsage, "unknown"},
		{[]string{"golden", "update"}, cmdutil.ExitUsage, "at least one PATH"},
		{[]string{"golden", "check"}, cmdutil.ExitUsage, "at least one PATH"},
		{[]string{"golden", "update", "-"}, cmdutil.ExitUsage, "stdin"},
		{[]string{"golden", "update", "--review", "--no-review", dir}, cmdutil.ExitUsage, "cannot be combined"},
		{[]string{"golden", "check", "--max-lines", "-1", dir}, cmdutil.ExitUsage, "--max-lines"},
		{[]string{"golden", "update", "--bogus", dir}, cmdutil.ExitUsage, "unknown flag"},
		{[]string{"golden", "update", filepath.Join(dir, "missing.jsonl")}, cmdutil.ExitCannot, "missing.jsonl"},
		{[]string{"golden", "diff", filepath.Join(dir, "missing")}, cmdutil.ExitCannot, "missing"},
	} {
		out, errOut, code := goldenCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(out+errOut, tc.msg) {
			t.Errorf("%v: exit %d (want %d), output %q lacks %q", tc.args, code, tc.code, out+errOut, tc.msg)
		}
	}
	// A corrupt log is exit 3 and is not touched; the other logs are still done.
	os.WriteFile(filepath.Join(dir, "broken.jsonl"), []byte("not a log\n"), 0o644)
	out, errOut, code := goldenCLI(t, "golden", "update", dir)
	if code != cmdutil.ExitCannot || !strings.Contains(errOut, "broken.jsonl") || !strings.Contains(out, "3 updated") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	// A value that violates the schema cannot be re-recorded: exit 1.
	bad := filepath.Join(dir, "schema.jsonl")
	b, _ := os.ReadFile(filepath.Join("..", "..", "testdata", "verify", "mutated", "schema-invalid.jsonl"))
	os.WriteFile(bad, b, 0o644)
	out, errOut, code = goldenCLI(t, "golden", "update", bad)
	if code != cmdutil.ExitDivergence || !strings.Contains(errOut, "violates the output schema") {
		t.Errorf("schema-invalid: exit %d\n%s%s", code, out, errOut)
	}
}

// TestGoldenCrashSafety kills update between writing a temporary file and
// renaming it: every original stays intact and no partial file takes its
// place.
func TestGoldenCrashSafety(t *testing.T) {
	if os.Getenv("GOLDEN_CRASH_CHILD") != "" {
		t.Skip("child process")
	}
	dir := copyTree(t, goldenData("drift"))
	before := snapshot(t, dir)
	cmd := exec.Command(os.Args[0], "-test.run=^TestGoldenCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GOLDEN_CRASH_CHILD="+dir, atomicwrite.CrashHookEnv+"=1", "CI=")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || !atomicwrite.CrashedByHook(ee.ProcessState) {
		t.Fatalf("child: %v\n%s", err, out)
	}
	after := snapshot(t, dir)
	temps := 0
	for k, v := range after {
		if strings.HasPrefix(filepath.Base(k), atomicwrite.TempPrefix) {
			temps++
			continue
		}
		if strings.HasSuffix(k, filelock.Suffix) {
			// A crash leaves the lock file; the next run takes it over.
			delete(after, k)
			continue
		}
		if w, ok := before[k]; !ok || !bytes.Equal(v, w) {
			t.Errorf("%s changed or appeared", k)
		}
	}
	if temps != 1 || len(after) != len(before)+1 {
		t.Errorf("want exactly one temporary file beside the originals, have %v", names(after))
	}
	// check names the leftover; a fresh update completes and removes it.
	out2, _, code := goldenCLI(t, "golden", "check", dir)
	if code != cmdutil.ExitDivergence || !strings.Contains(out2, "LEFTOVER") {
		t.Errorf("check after a crash: exit %d\n%s", code, out2)
	}
	if out, _, code := goldenCLI(t, "golden", "update", dir); code != cmdutil.ExitOK || !strings.Contains(out, "(left by an interrupted write)") {
		t.Errorf("update after a crash: exit %d\n%s", code, out)
	}
	for k := range snapshot(t, dir) {
		if strings.HasPrefix(filepath.Base(k), atomicwrite.TempPrefix) {
			t.Errorf("update left %s", k)
		}
	}
	if out, _, code := goldenCLI(t, "golden", "check", dir); code != cmdutil.ExitOK {
		t.Errorf("check after the update: exit %d\n%s", code, out)
	}
}

func TestGoldenCrashChild(t *testing.T) {
	dir := os.Getenv("GOLDEN_CRASH_CHILD")
	if dir == "" {
		t.Skip("run by TestGoldenCrashSafety")
	}
	var out, errb bytes.Buffer
	Run([]string{"golden", "update", dir}, nil, &out, &errb)
	t.Fatal("the crash hook did not stop the process")
}

// TestGoldenCleanLogsRoundTrip: logs with values for every ported tool need
// no re-recording; update writes only card goldens, which then check.
func TestGoldenCleanLogsRoundTrip(t *testing.T) {
	dir := copyTree(t, filepath.Join("..", "..", "testdata", "verify", "clean"))
	before := snapshot(t, dir)
	out, errOut, code := goldenCLI(t, "golden", "update", dir)
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	after := snapshot(t, dir)
	for k, v := range before {
		if !bytes.Equal(after[k], v) {
			t.Errorf("%s changed", k)
		}
	}
	if len(after) != 3*len(before) {
		t.Errorf("want two card goldens per log, have %d files for %d logs", len(after), len(before))
	}
	for k, v := range after {
		if bytes.IndexByte(v, '\r') >= 0 && strings.Contains(k, ".cards.") {
			t.Errorf("%s is not LF-only", k)
		}
	}
	if out, _, code := goldenCLI(t, "golden", "check", dir); code != cmdutil.ExitOK {
		t.Errorf("check: exit %d\n%s", code, out)
	}
}

// TestGoldenFixtures: real logs carry no values, so update changes no log
// byte, and the card goldens it writes pass check.
func TestGoldenFixtures(t *testing.T) {
	src := sharedtest.Dir(t, "fixtures")
	if testing.Short() {
		t.Skip("short")
	}
	dir := copyTree(t, src)
	before := snapshot(t, dir)
	out, errOut, code := goldenCLI(t, "golden", "update", dir)
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s%s", code, lastLines(out, 5), errOut)
	}
	after := snapshot(t, dir)
	logs := 0
	for k, v := range before {
		if !bytes.Equal(after[k], v) {
			t.Errorf("%s changed", k)
		}
		if strings.HasSuffix(k, ".jsonl") || strings.HasSuffix(k, ".jsonl.zstd") {
			logs++
		}
	}
	if out, _, code := goldenCLI(t, "golden", "check", dir); code != cmdutil.ExitOK {
		t.Errorf("check: exit %d\n%s", code, lastLines(out, 20))
	}
	t.Logf("%d fixture logs, %d files after update", logs, len(after))
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

// FuzzGoldenParse: the golden-file readers (card blocks, NDJSON lines, log
// comparison) never panic on arbitrary files (cards.FuzzGoldenHeader reads
// the headers).
func FuzzGoldenParse(f *testing.F) {
	txt, _ := os.ReadFile(goldenData("accepted", "session.cards.txt"))
	js, _ := os.ReadFile(goldenData("accepted", "session.cards.ndjson"))
	lg, _ := os.ReadFile(goldenData("accepted", "legacy.jsonl"))
	f.Add(txt, js)
	f.Add(js, txt)
	f.Add(lg, lg[:len(lg)/2])
	f.Add([]byte("# dsh-replay cards golden · format 9x"), []byte(`{"golden":"dsh-replay cards","format":"1"}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		splitCards(a)
		cardLines(a)
		logChanges("x.jsonl", a, b)
	})
}

// TestGoldenAcceptRefusesChangedLog: a log that changed after update wrote
// its pending copy is not overwritten by accept.
func TestGoldenAcceptRefusesChangedLog(t *testing.T) {
	dir := copyTree(t, goldenData("drift"))
	if _, _, code := goldenCLI(t, "golden", "update", "--review", dir); code != cmdutil.ExitOK {
		t.Fatal("update --review failed")
	}
	log := filepath.Join(dir, "session.jsonl")
	f, _ := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"turn/start","seq":40,"time":0,"data":{"turn":2}}` + "\n")
	f.Close()
	appended, _ := os.ReadFile(log)
	out, errOut, code := goldenCLI(t, "golden", "accept", dir)
	if code != cmdutil.ExitCannot || !strings.Contains(errOut, "not accepting "+log) || !strings.Contains(out, "accepted: 2 logs") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	if now, _ := os.ReadFile(log); !bytes.Equal(now, appended) {
		t.Error("accept overwrote a log that changed")
	}
	if !fileExists(log + pendingExt) {
		t.Error("the refused pending copy was removed")
	}
}

func copyTree(t *testing.T, src string) string { return testtree.Copy(t, src) }

func snapshot(t *testing.T, dir string) map[string][]byte { return testtree.Snapshot(t, dir) }

func mustContain(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	testtree.MustContain(t, what, got, wants...)
}

func strip(t *testing.T, line []byte) string { return testtree.Strip(t, line) }
