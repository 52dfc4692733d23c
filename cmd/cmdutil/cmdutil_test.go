package cmdutil

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector/jsplugin"
)

func TestExecuteExitCodes(t *testing.T) {
	for _, c := range []struct {
		run  func() error
		code int
		err  string
	}{
		{func() error { return nil }, ExitOK, ""},
		{func() error { return UsageErr("bad %s", "flag") }, ExitUsage, "dsh-replay: bad flag\n"},
		{func() error { return Cannot(errors.New("no file")) }, ExitCannot, "dsh-replay: no file\n"},
		{func() error { return &ExitError{Code: ExitDivergence} }, ExitDivergence, ""},
		{func() error { return errors.New("plain") }, ExitUsage, "dsh-replay: plain\n"},
		{func() error { panic("boom") }, ExitCannot, "internal error"},
	} {
		cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return c.run() }}
		var out, errb bytes.Buffer
		code := RunCommands([]string{"x"}, strings.NewReader(""), &out, &errb, cmd)
		if code != c.code || !strings.Contains(errb.String(), c.err) || c.err == "" && errb.Len() > 0 {
			t.Errorf("exit %d, stderr %q; want %d, %q", code, errb.String(), c.code, c.err)
		}
	}
	var errb bytes.Buffer
	if code := RunCommands([]string{"x", "--nope"}, strings.NewReader(""), &bytes.Buffer{}, &errb, &cobra.Command{Use: "x", Run: func(*cobra.Command, []string) {}}); code != ExitUsage {
		t.Errorf("unknown flag: exit %d", code)
	}
}

func TestWarnFormat(t *testing.T) {
	var b bytes.Buffer
	WarnNotices(&b, &logformat.Summary{File: "a.jsonl", Notices: []logformat.Notice{
		{File: "a.jsonl", Line: 3, Kind: "torn-tail", Msg: "cut"},
		{File: "a.jsonl", Kind: "orphan-value", Msg: "x"},
	}, NoticesDropped: 2})
	want := "dsh-replay: warning: a.jsonl:3: torn-tail: cut\n" +
		"dsh-replay: warning: a.jsonl: orphan-value: x\n" +
		"dsh-replay: warning: a.jsonl: notices: 2 more notices not shown\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"call_4_bash", "call_4_bsh", 1}, {"kitten", "sitting", 3}, {"é", "e", 1}} {
		if got := EditDistance(c.a, c.b); got != c.d {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

func TestRegistryErrors(t *testing.T) {
	if _, _, err := Registry("/nonexistent/config.json", nil, jsplugin.Limits{}); err == nil || err.(*ExitError).Code != ExitUsage {
		t.Errorf("missing config: %v", err)
	}
	if _, _, err := Registry("", []string{"/nonexistent/plugin"}, jsplugin.Limits{}); err == nil || err.(*ExitError).Code != ExitCannot || !strings.Contains(err.Error(), "--plugin /nonexistent/plugin") {
		t.Errorf("missing plugin: %v", err)
	}
	reg, added, err := Registry("", nil, jsplugin.Limits{})
	if err != nil || reg.Lookup("read") == nil || len(added) != 0 {
		t.Errorf("defaults: %v %v", err, added)
	}
}

// A configuration the ports refuse (as upstream's plugins refuse it at
// load) is a usage error like every other --config error, not exit 3.
func TestRegistryConfigValues(t *testing.T) {
	dir := t.TempDir()
	for cfg, msg := range map[string]string{
		`{"plugins":{"tool-fs-search":{"grepMaxMatches":"x"}}}`:     "tool-fs-search: grepMaxMatches must be a positive integer",
		`{"plugins":{"tool-fs-search":{"graceMs":1e12}}}`:           "graceMs must be no greater than",
		`{"plugins":{"tool-web":{"fork":"other"}}}`:                 "tool-web: fork must be",
		`{"plugins":{"tool-web":{"fetch":"yes"}}}`:                  "tool-web: fetch must be a boolean",
		`{"plugins":{"tool-fs-search":5}}`:                          "plugin options must be an object",
		`{"plugins":{"tool-fs-search":{"grepMaxMatches":3}}} x`:     "--config: " + dir,
		`{"plugins":{"tool-fs-search":{"grepMaxMatches":3}},"x":1}`: "unknown key",
	} {
		p := filepath.Join(dir, "c.json")
		os.WriteFile(p, []byte(cfg), 0o644)
		_, _, err := Registry(p, nil, jsplugin.Limits{})
		var ee *ExitError
		if !errors.As(err, &ee) || ee.Code != ExitUsage || !strings.Contains(err.Error(), msg) || !strings.Contains(err.Error(), "--config") {
			t.Errorf("%s: %v (want exit 2, %q)", cfg, err, msg)
		}
	}
}

// FuzzConfig: whatever --config holds, building the projectors never
// panics, and a configuration it refuses is a usage error (exit 2),
// never "could not verify".
func FuzzConfig(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"plugins":{"tool-fs-search":{"grepMaxMatches":"x"}}}`,
		`{"plugins":{"dsh-tool-web":{"fork":"dsh","searchMaxQueries":2}},"services":{"shell":{"sandboxMode":"read-only"}}}`,
		`{"plugins":{"tool-bash-persistent":{}}}`, `{"plugins":{"tool-fs":{"readLimit":-1}}}`, `[`, "\xff",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "c.json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := Registry(p, nil, jsplugin.Limits{})
		var ee *ExitError
		if err != nil && (!errors.As(err, &ee) || ee.Code != ExitUsage) {
			t.Fatalf("%q: %v is not a usage error", data, err)
		}
	})
}

// TestCompletionCommandWhenReachable: the completion command is there for
// the runs that can show or use it, and not made for the others.
func TestCompletionCommandWhenReachable(t *testing.T) {
	for _, c := range []struct {
		args       []string
		completion bool
		want       string
	}{
		{[]string{"completion", "bash"}, true, "# bash completion V2 for dsh-replay"},
		{[]string{"completion", "fish", "--no-descriptions"}, true, "# fish completion for dsh-replay"},
		{[]string{"--help"}, true, "completion  Generate the autocompletion script"},
		{[]string{"help"}, true, "completion  Generate the autocompletion script"},
		{[]string{}, true, "completion  Generate the autocompletion script"},
		{[]string{"__complete", "comp"}, true, "completion\tGenerate the autocompletion script"},
		{[]string{"__complete", "x", "y"}, true, ":0"},
		{[]string{"x"}, false, ""},
		{[]string{"x", "--help"}, false, "Usage:"},
	} {
		root := &cobra.Command{Use: "dsh-replay"}
		root.AddCommand(&cobra.Command{Use: "x", Run: func(*cobra.Command, []string) {}})
		var out, errs bytes.Buffer
		if code := Execute(root, c.args, nil, &out, &errs); code != ExitOK {
			t.Errorf("%q: exit %d %s", c.args, code, errs.String())
		}
		has := false
		for _, sub := range root.Commands() {
			has = has || sub.Name() == "completion"
		}
		if has != c.completion {
			t.Errorf("%q: completion command made: %v, want %v", c.args, has, c.completion)
		}
		if !strings.Contains(out.String(), c.want) {
			t.Errorf("%q: output lacks %q:\n%s", c.args, c.want, out.String())
		}
	}
}
