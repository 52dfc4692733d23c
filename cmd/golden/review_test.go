package golden

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/atomicwrite"
	"github.com/dsh-replay/dsh-replay/internal/clitest"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// The pseudo-terminal tests re-execute the test binary as the CLI.
const asCLIEnv = "DSH_REPLAY_GOLDEN_AS_CLI"

// testdataAbs is this package's testdata, for tests that change directory.
var testdataAbs, _ = filepath.Abs("testdata")

func TestMain(m *testing.M) {
	if os.Getenv(asCLIEnv) == "1" {
		os.Exit(Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// pendingDrift is a copy of testdata/golden/drift with update --review run
// on it: 13 calls in 3 logs with pending changes.
func pendingDrift(t *testing.T) string {
	t.Helper()
	dir := copyTree(t, goldenData("drift"))
	if out, errs, code := goldenCLI(t, "golden", "update", "--review", dir); code != cmdutil.ExitOK {
		t.Fatalf("update --review: exit %d\n%s%s", code, out, errs)
	}
	return dir
}

type pendingItem struct {
	Log, Call, Tool, Golden, Pending, Kind, Change string
}

func pendingItems(t *testing.T, dir string, args ...string) []pendingItem {
	t.Helper()
	out, errs, code := goldenCLI(t, append([]string{"golden", "pending", "--json"}, append(args, dir)...)...)
	if code != cmdutil.ExitOK {
		t.Fatalf("pending: exit %d %s", code, errs)
	}
	var items []pendingItem
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var it pendingItem
		if err := dec.Decode(&it); err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
	}
	return items
}

// calls are the distinct (log, call) pairs of the items, in order.
func calls(items []pendingItem) [][2]string {
	var out [][2]string
	seen := map[[2]string]bool{}
	for _, it := range items {
		k := [2]string{it.Log, it.Call}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

func TestPendingJSON(t *testing.T) {
	dir := pendingDrift(t)
	items := pendingItems(t, dir)
	if len(items) != 34 || len(calls(items)) != 13 {
		t.Fatalf("%d items over %d calls, want 34 over 13", len(items), len(calls(items)))
	}
	kinds := map[string]int{}
	for _, it := range items {
		kinds[it.Kind]++
		if it.Pending != it.Golden+".new" || !strings.HasPrefix(it.Log, dir) || it.Call == "" || it.Tool == "" {
			t.Errorf("item %+v", it)
		}
	}
	if kinds["log"] != 8 || kinds["cards"] != 13 || kinds["cards-json"] != 13 {
		t.Errorf("kinds %v", kinds)
	}
	// --call narrows to one call's pieces, --tool to a tool's.
	if got := pendingItems(t, dir, "--call", "call_glob_1"); len(got) != 3 || got[0].Tool != "glob" {
		t.Errorf("--call: %+v", got)
	}
	for _, it := range pendingItems(t, dir, "--tool", "edit") {
		if it.Tool != "edit" {
			t.Errorf("--tool edit listed %+v", it)
		}
	}
}

// Accepting every call one at a time ends where accepting whole logs does;
// rejecting every call one at a time leaves the tree as it was.
func TestPerCallDecisionsCompose(t *testing.T) {
	orig := snapshot(t, goldenData("drift"))
	whole, byCall, rejected := pendingDrift(t), pendingDrift(t), pendingDrift(t)
	if _, _, code := goldenCLI(t, "golden", "accept", whole); code != cmdutil.ExitOK {
		t.Fatal("accept")
	}
	for _, c := range calls(pendingItems(t, byCall)) {
		if out, errs, code := goldenCLI(t, "golden", "accept", c[0], "--call", c[1]); code != cmdutil.ExitOK || !strings.Contains(out, "accepted: 1 call") {
			t.Fatalf("accept %v: exit %d\n%s%s", c, code, out, errs)
		}
	}
	for _, c := range calls(pendingItems(t, rejected)) {
		if _, _, code := goldenCLI(t, "golden", "reject", c[0], "--call", c[1]); code != cmdutil.ExitOK {
			t.Fatalf("reject %v: exit %d", c, code)
		}
	}
	if d := cmp.Diff(snapshot(t, whole), snapshot(t, byCall)); d != "" {
		t.Errorf("per-call accepts differ from whole accepts:\n%s", d)
	}
	if d := cmp.Diff(orig, snapshot(t, rejected)); d != "" {
		t.Errorf("per-call rejects changed the tree:\n%s", d)
	}
	if out, _, code := goldenCLI(t, "golden", "check", byCall); code != cmdutil.ExitOK {
		t.Errorf("check after accepting every call: exit %d\n%s", code, out)
	}
}

func TestDecideMixedAndUnknown(t *testing.T) {
	dir := pendingDrift(t)
	log := filepath.Join(dir, "session.jsonl")
	oldCalls, newCalls := readAll(t, log), readAll(t, log+".new")
	if _, _, code := goldenCLI(t, "golden", "accept", log, "--call", "call_read_1", "--call", "call_bash_1"); code != cmdutil.ExitOK {
		t.Fatal("accept")
	}
	if _, _, code := goldenCLI(t, "golden", "reject", log, "--call", "call_grep_1"); code != cmdutil.ExitOK {
		t.Fatal("reject")
	}
	left := calls(pendingItems(t, dir, "--log", "session.jsonl"))
	var ids []string
	for _, c := range left {
		ids = append(ids, c[1])
	}
	if strings.Join(ids, " ") != "call_edit_1 call_run_code_1 call_write_1 call_read_9" {
		t.Errorf("still pending: %v", ids)
	}
	// The golden holds exactly the accepted calls' pieces.
	cur := parseSegs(kindCardsText, readOrEmpty(filepath.Join(dir, "session.cards.txt")), true)
	if !cur.ok || strings.Join(cur.keys, " ") != "call_read_1 call_bash_1" {
		t.Errorf("session.cards.txt holds %v (ok %v)", cur.keys, cur.ok)
	}
	// The log has the accepted call re-recorded; the pending copy has the
	// rejected call restored.
	if got := readAll(t, log)["call_read_1"].Content; !jsonv.Equal(got, newCalls["call_read_1"].Content) {
		t.Errorf("accepted call_read_1 not re-recorded in the log")
	}
	if got := readAll(t, log+".new")["call_grep_1"].Content; !jsonv.Equal(got, oldCalls["call_grep_1"].Content) {
		t.Errorf("rejected call_grep_1 not restored in the pending log")
	}
	// A sub-call id decides its root call; an id with nothing pending is exit 2.
	out, _, code := goldenCLI(t, "golden", "accept", log, "--call", "call_run_code_1:code:1")
	if code != cmdutil.ExitOK || !strings.Contains(out, "call call_run_code_1 (run_code)") {
		t.Errorf("sub-call id: exit %d\n%s", code, out)
	}
	_, errs, code := goldenCLI(t, "golden", "accept", log, "--call", "call_nope")
	if code != cmdutil.ExitUsage || !strings.Contains(errs, "no pending change to call call_nope") {
		t.Errorf("unknown call: exit %d %q", code, errs)
	}
}

func TestReviewWithoutTerminal(t *testing.T) {
	dir := pendingDrift(t)
	out, _, code := goldenCLI(t, "golden", "review", dir)
	if code != cmdutil.ExitDivergence {
		t.Fatalf("exit %d, want 1 while pending", code)
	}
	if strings.Count(out, "\n── ") != 12 || !strings.Contains(out, "13 pending changes") {
		t.Errorf("want 13 reviews:\n%s", out)
	}
	// Every printed command works as printed.
	re := regexp.MustCompile(`(?m)^  accept: dsh-replay (golden accept --call (\S+) (\S+))$`)
	ms := re.FindAllStringSubmatch(out, -1)
	if len(ms) != 13 {
		t.Fatalf("%d accept commands", len(ms))
	}
	for _, m := range ms {
		if _, errs, code := goldenCLI(t, strings.Fields(m[1])...); code != cmdutil.ExitOK {
			t.Fatalf("%s: exit %d %s", m[1], code, errs)
		}
	}
	out, _, code = goldenCLI(t, "golden", "review", dir)
	if code != cmdutil.ExitOK || !strings.Contains(out, "no pending goldens") {
		t.Errorf("after deciding everything: exit %d\n%s", code, out)
	}
}

func TestUpdatePolicyEnv(t *testing.T) {
	t.Setenv("CI", "")
	for _, c := range []struct {
		env, flag string
		pending   bool // .new files
		inPlace   bool
	}{
		{"no", "", false, false},
		{"new", "", true, false},
		{"always", "", false, true},
		{"no", "--no-review", false, true}, // a flag wins
		{"always", "--review", true, false},
	} {
		dir := copyTree(t, goldenData("drift"))
		t.Setenv(UpdateEnv, c.env)
		args := []string{"golden", "update"}
		if c.flag != "" {
			args = append(args, c.flag)
		}
		if _, errs, code := goldenCLI(t, append(args, dir)...); code != cmdutil.ExitOK {
			t.Fatalf("%s %s: exit %d %s", c.env, c.flag, code, errs)
		}
		pending := fileExists(filepath.Join(dir, "session.jsonl.new"))
		inPlace := fileExists(filepath.Join(dir, "session.cards.txt"))
		if pending != c.pending || inPlace != c.inPlace {
			t.Errorf("%s=%s %s: pending %v, in place %v", UpdateEnv, c.env, c.flag, pending, inPlace)
		}
	}
	t.Setenv(UpdateEnv, "sometimes")
	if _, errs, code := goldenCLI(t, "golden", "update", copyTree(t, goldenData("drift"))); code != cmdutil.ExitUsage || !strings.Contains(errs, UpdateEnv) {
		t.Errorf("bad value: exit %d %q", code, errs)
	}
	// Under CI nothing is written unless --force says so, whatever the
	// environment asks; "no" writes nothing and so runs.
	t.Setenv("CI", "true")
	for _, env := range []string{"new", "always"} {
		t.Setenv(UpdateEnv, env)
		dir := copyTree(t, goldenData("drift"))
		before := snapshot(t, dir)
		if _, _, code := ciCLI(t, "golden", "update", dir); code != cmdutil.ExitUsage {
			t.Errorf("CI with %s: exit %d", env, code)
		}
		if d := cmp.Diff(before, snapshot(t, dir)); d != "" {
			t.Errorf("CI with %s wrote:\n%s", env, d)
		}
	}
	t.Setenv(UpdateEnv, "no")
	if _, _, code := ciCLI(t, "golden", "update", copyTree(t, goldenData("drift"))); code != cmdutil.ExitOK {
		t.Errorf("CI with no: exit %d", code)
	}
}

func TestUnreferencedGoldens(t *testing.T) {
	t.Setenv("CI", "")
	setup := func() string {
		dir := copyTree(t, goldenData("accepted"))
		os.WriteFile(filepath.Join(dir, "gone.cards.txt"), []byte("# old\n"), 0o644)
		// A card of a call that is not in the log.
		p := filepath.Join(dir, "session.cards.ndjson")
		b, _ := os.ReadFile(p)
		os.WriteFile(p, append(b, []byte(`{"log":"session.jsonl","line":99,"callId":"call_gone","tool":"read","isError":false}`+"\n")...), 0o644)
		return dir
	}
	dir := setup()
	out, _, code := goldenCLI(t, "golden", "check", dir)
	mustContain(t, "warn", out, "UNREFERENCED "+filepath.Join(dir, "gone.cards.txt")+": its log is gone (warning",
		"UNREFERENCED "+filepath.Join(dir, "session.cards.ndjson")+": the cards of call call_gone, gone from the log")
	if code != cmdutil.ExitDivergence || !strings.Contains(out, "DRIFT "+filepath.Join(dir, "session.cards.ndjson")) {
		t.Errorf("warn: the changed golden still drifts (exit %d)\n%s", code, out)
	}
	os.Remove(filepath.Join(dir, "session.cards.ndjson"))
	goldenCLI(t, "golden", "update", "--no-review", dir)
	if out, _, code := goldenCLI(t, "golden", "check", dir); code != cmdutil.ExitOK {
		t.Errorf("warn alone does not fail: exit %d\n%s", code, out)
	}
	if out, _, code := goldenCLI(t, "golden", "check", "--unreferenced=fail", dir); code != cmdutil.ExitDivergence {
		t.Errorf("fail: exit %d\n%s", code, out)
	}
	dir = setup()
	out, _, code = goldenCLI(t, "golden", "check", "--unreferenced=delete", dir)
	if code != cmdutil.ExitOK || fileExists(filepath.Join(dir, "gone.cards.txt")) {
		t.Errorf("delete: exit %d\n%s", code, out)
	}
	mustContain(t, "delete", out, "DELETED "+filepath.Join(dir, "gone.cards.txt"), "DELETED "+filepath.Join(dir, "session.cards.ndjson"))
	t.Setenv("CI", "1")
	if _, errs, code := ciCLI(t, "golden", "check", "--unreferenced=delete", setup()); code != cmdutil.ExitUsage || !strings.Contains(errs, "CI is set") {
		t.Errorf("delete under CI: exit %d %q", code, errs)
	}
}

// TestDecisionCrash: a crash between writing a file's temporary copy and
// renaming it, at every write of a decision, leaves each file either as it
// was before the decision or as the decision makes it.
func TestDecisionCrash(t *testing.T) {
	ref := pendingDrift(t)
	log := "session.jsonl"
	before := snapshot(t, ref)
	if _, _, code := goldenCLI(t, "golden", "accept", filepath.Join(ref, log), "--call", "call_read_1"); code != cmdutil.ExitOK {
		t.Fatal("accept")
	}
	after := snapshot(t, ref)
	for n := 1; n <= 4; n++ {
		dir := pendingDrift(t)
		cmd := exec.Command(os.Args[0], "golden", "accept", filepath.Join(dir, log), "--call", "call_read_1")
		cmd.Env = append(os.Environ(), asCLIEnv+"=1", "CI=", atomicwrite.CrashHookEnv+"="+string(rune('0'+n)))
		out, err := cmd.CombinedOutput()
		ee, _ := err.(*exec.ExitError)
		crashed := ee != nil && atomicwrite.CrashedByHook(ee.ProcessState)
		for name, data := range snapshot(t, dir) {
			if strings.HasPrefix(filepath.Base(name), atomicwrite.TempPrefix) {
				continue // the interrupted write's temporary file (check names it)
			}
			if !bytes.Equal(data, before[name]) && !bytes.Equal(data, after[name]) {
				t.Errorf("crash at write %d: %s is neither old nor new", n, name)
			}
		}
		assertWhole(t, dir)
		if !crashed {
			if err != nil {
				t.Fatalf("write %d: %v %s", n, err, out)
			}
			break // fewer writes than n: the decision finished
		}
	}
}

// assertWhole: every card golden and pending card file parses into whole
// cards, and every log and pending log reads.
func assertWhole(t *testing.T, dir string) {
	t.Helper()
	for name, data := range snapshot(t, dir) {
		base := strings.TrimSuffix(name, pendingExt)
		switch {
		case strings.HasPrefix(filepath.Base(name), atomicwrite.TempPrefix):
		case strings.HasSuffix(base, cardsTextExt):
			if !parseSegs(kindCardsText, data, true).ok {
				t.Errorf("%s is torn", name)
			}
		case strings.HasSuffix(base, cardsJSONExt):
			if !parseSegs(kindCardsJSON, data, true).ok {
				t.Errorf("%s is torn", name)
			}
		case strings.HasSuffix(base, ".jsonl") && !strings.HasSuffix(base, ".values.jsonl"), strings.HasSuffix(base, ".jsonl.zstd"):
			if _, err := logformat.ReadCallsFrom(name, bytes.NewReader(data), logformat.Options{}, func(*logformat.Call) error { return nil }); err != nil {
				t.Errorf("%s does not read: %v", name, err)
			}
		}
	}
}

// ciCLI is goldenCLI keeping CI as the test set it.
func ciCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return clitest.Run(t, Run, nil, args...)
}

// FuzzParseSegs: a card golden that parses into segments gives its bytes
// back, and moving every call's segments from a file into a copy of itself
// changes nothing.
func FuzzParseSegs(f *testing.F) {
	for _, name := range []string{"session.cards.txt", "session.cards.ndjson", "legacy.cards.txt", "frames.cards.ndjson"} {
		b, err := os.ReadFile(goldenData("accepted", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, strings.HasSuffix(name, ".ndjson"))
	}
	f.Add([]byte("# h\n\n\n"), false)
	f.Add([]byte("{}\n{\"callId\":\"a\"}\n{\"callId\":\"a\"}\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, ndjson bool) {
		kind := kindCardsText
		if ndjson {
			kind = kindCardsJSON
		}
		s := parseSegs(kind, data, true)
		if !s.ok {
			return
		}
		if !bytes.Equal(s.bytes(), data) {
			t.Fatalf("round trip:\n%q\n%q", data, s.bytes())
		}
		root := func(id string) string { return id }
		for _, k := range s.keys {
			if next := transfer(s, s, k, root); !sameSegs(next, s) || !bytes.Equal(next.bytes(), data) {
				t.Fatalf("moving %q onto itself changed the file", k)
			}
		}
	})
}
