package show

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/clitest"
	"github.com/dsh-replay/dsh-replay/internal/goldenfile"
	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
)

// -update rewrites the golden files; registered only if another test file of
// the package has not registered it already.
// Run runs the show command as the CLI does.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cmdutil.RunCommands(args, stdin, stdout, stderr, NewCmd(&cmdutil.Factory{}, nil))
}

func showCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return clitest.Run(t, Run, nil, args...)
}

func checkShowGolden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("..", "..", "testdata", "show", "golden", name), got)
}

var showLogs = []string{"terminal.jsonl", "fs.jsonl", "other.jsonl"}

func TestShowGoldens(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	for _, log := range showLogs {
		path := "../../testdata/show/" + log
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

func TestShowFixtures(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "fixtures")
	for _, args := range [][]string{{"show", "--no-pager", dir}, {"show", "--json", dir}, {"show", "--compact", dir}, {"show", "--full", "--width", "40", dir}} {
		out, errs, code := showCLI(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errs)
		}
		if strings.Contains(errs, "internal error") {
			t.Fatalf("%v: %s", args, errs)
		}
		if strings.ContainsRune(out, 0x1b) {
			t.Errorf("%v: escape codes in output that is not a terminal", args)
		}
		if args[1] == "--json" {
			n := 0
			for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				v, err := jsonv.ParseString(line)
				if err != nil || !v.Get("log").IsString() || !v.Get("line").IsNumber() || !v.Get("callId").IsString() || !v.Get("isError").IsBool() {
					t.Fatalf("bad NDJSON line %q: %v", line, err)
				}
				n++
			}
			t.Logf("%d calls in the fixtures", n)
		}
	}
}

func TestShowUsageAndErrors(t *testing.T) {
	t.Parallel()
	log := "../../testdata/show/terminal.jsonl"
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"type":"session","version":0,"id":"x","createdAt":0}`+"\n{not json\n"+`{"type":"turn/end","seq":1,"time":0,"data":{"turn":1,"reason":{"kind":"completed"}}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"show"}, cmdutil.ExitUsage, "arg"},
		{[]string{"show", "--color", "sometimes", log}, cmdutil.ExitUsage, "--color"},
		{[]string{"show", "--width", "5", log}, cmdutil.ExitUsage, "--width"},
		{[]string{"show", "--width", "1001", log}, cmdutil.ExitUsage, "between 20 and 1000"},
		{[]string{"show", "--width", "2147483647", log}, cmdutil.ExitUsage, "between 20 and 1000"},
		{[]string{"show", "--width", "9223372036854775807", log}, cmdutil.ExitUsage, "between 20 and 1000"},
		{[]string{"show", "--width", "9223372036854775808", log}, cmdutil.ExitUsage, "--width"},
		{[]string{"show", "--json", "--compact", log}, cmdutil.ExitUsage, "cannot be combined"},
		{[]string{"show", "--nope", log}, cmdutil.ExitUsage, "unknown flag"},
		{[]string{"show", "--config", "/nonexistent/config.json", log}, cmdutil.ExitUsage, "--config"},
		{[]string{"show", "/nonexistent/log.jsonl"}, cmdutil.ExitCannot, "nonexistent"},
		{[]string{"show", bad}, cmdutil.ExitCannot, "bad.jsonl:2"},
		{[]string{"show", log}, cmdutil.ExitOK, ""},
	} {
		_, errs, code := showCLI(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.err) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errs, c.code, c.err)
		}
	}
}

func TestShowColour(t *testing.T) {
	log := "../../testdata/show/terminal.jsonl"
	for _, c := range []struct {
		noColor string
		args    []string
		escapes bool
	}{
		{"", []string{"--color", "auto"}, false}, // a buffer is not a terminal
		{"", []string{"--color", "never"}, false},
		{"", []string{"--color", "always"}, true},
		{"1", []string{"--color", "auto"}, false},
		{"yes", []string{}, false},
	} {
		t.Setenv("NO_COLOR", c.noColor)
		out, _, code := showCLI(t, append(append([]string{"show"}, c.args...), log)...)
		if code != 0 || strings.ContainsRune(out, 0x1b) != c.escapes {
			t.Errorf("NO_COLOR=%q %v: exit %d, escapes %v", c.noColor, c.args, code, strings.ContainsRune(out, 0x1b))
		}
	}
}

func TestShowFilters(t *testing.T) {
	t.Parallel()
	ids := func(args ...string) []string {
		out, errs, code := showCLI(t, append([]string{"show", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if line == "" {
				continue
			}
			got = append(got, jsonv.MustParse(line).Get("callId").Str())
		}
		return got
	}
	term, fs, other := "../../testdata/show/terminal.jsonl", "../../testdata/show/fs.jsonl", "../../testdata/show/other.jsonl"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--call", "call_sig", term}, "call_sig"},
		{[]string{"--tool", "grep", fs}, "call_grep"},
		{[]string{"--turn", "2", term}, "call_int"},
		{[]string{"--errors", term}, "call_fail call_sig call_long call_int call_abort call_skip"},
		{[]string{"--errors", fs}, "call_readerr call_editfail"},
		{[]string{"--call", "call_code:code:2", other}, "call_code:code:2"},
		{[]string{"--tool", "run_code", other}, "call_code call_code:code:1 call_code:code:2"},
	} {
		if got := strings.Join(ids(c.args...), " "); got != c.want {
			t.Errorf("%v: got %q, want %q", c.args, got, c.want)
		}
	}
	out, _, _ := showCLI(t, "show", "--json", "--call", "call_ok", term)
	if !strings.HasPrefix(out, `{"log":"../../testdata/show/terminal.jsonl","line":8,"callId":"call_ok","tool":"bash","isError":false,"callView":{"card":"terminal"`) {
		t.Errorf("NDJSON key order: %s", out)
	}
}

func TestShowWidthFromColumns(t *testing.T) {
	log := "../../testdata/example/session.jsonl"
	widest := func(out string) int {
		w := 0
		for _, l := range strings.Split(out, "\n") {
			w = max(w, len([]rune(l)))
		}
		return w
	}
	t.Setenv("COLUMNS", "60")
	out, _, _ := showCLI(t, "show", "--no-pager", log)
	if w := widest(out); w != 60 {
		t.Errorf("COLUMNS=60: widest row %d", w)
	}
	out, _, _ = showCLI(t, "show", "--no-pager", "--width", "80", log)
	if w := widest(out); w != 80 {
		t.Errorf("--width beats COLUMNS: widest row %d", w)
	}
	// A $COLUMNS past the maximum (or past an int) is the maximum.
	for _, cols := range []string{"300000000", "9223372036854775808"} {
		t.Setenv("COLUMNS", cols)
		out, _, code := showCLI(t, "show", "--no-pager", log)
		if w := widest(out); w != cards.MaxWidth || code != 0 {
			t.Errorf("COLUMNS=%s: exit %d, widest row %d, want %d", cols, code, w, cards.MaxWidth)
		}
	}
	t.Setenv("COLUMNS", "junk")
	out, _, _ = showCLI(t, "show", "--no-pager", log)
	if w := widest(out); w != 100 {
		t.Errorf("bad COLUMNS falls back to 100: widest row %d", w)
	}
}

func TestShowUnknownCall(t *testing.T) {
	t.Parallel()
	log := "../../testdata/example/session.jsonl"
	out, errs, code := showCLI(t, "show", "--no-pager", "--call", "call_4_bsh", log)
	if code != cmdutil.ExitUsage || out != "" {
		t.Fatalf("exit %d, stdout %q; want 2 and nothing shown", code, out)
	}
	if !strings.Contains(errs, `no call "call_4_bsh" in `+log+"; nearest: call_4_bash, call_6_bash") {
		t.Errorf("stderr %q", errs)
	}
	// A known id that other filters hide is not an unknown id.
	if _, _, code := showCLI(t, "show", "--no-pager", "--call", "call_4_bash", "--tool", "read", log); code != cmdutil.ExitOK {
		t.Errorf("known id filtered out by --tool: exit %d", code)
	}
}

func TestShowFooterKeepsCallID(t *testing.T) {
	t.Parallel()
	// A call whose tool and id are wider than the narrowest card.
	dir := t.TempDir()
	log := filepath.Join(dir, "long-id.jsonl")
	data, err := os.ReadFile("../../testdata/example/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	const id = "call_0123456789_abcdefghijklmnopqrstuvwxyz_edit"
	os.WriteFile(log, []byte(strings.ReplaceAll(string(data), "call_3_edit", id)), 0o644)
	for _, w := range []string{"20", "30", "40", "60"} {
		out, _, _ := showCLI(t, "show", "--no-pager", "--width", w, "--call", id, log)
		if !strings.Contains(strings.ReplaceAll(out, "\n  ", ""), id) {
			t.Errorf("width %s: the footer does not hold the whole call id:\n%s", w, out)
		}
	}
}
