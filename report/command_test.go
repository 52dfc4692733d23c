package report

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/replay"
)

// ShellQuote gives what a POSIX shell reads back as the same word, and
// nothing a terminal would act on.
func TestShellQuote(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"logs/session.jsonl":     "logs/session.jsonl",
		"my logs/a.jsonl":        "'my logs/a.jsonl'",
		"it's":                   `'it'\''s'`,
		"":                       "''",
		"q/x\n\x1b[31mRED.jsonl": `$'q/x\x0a\x1b[31mRED.jsonl'`,
		"a'b\\\a":                `$'a\'b\\\x07'`,
		"bad\xffé":               `$'bad\xffé'`,
		"\u202egnp.jsonl":        `$'\xe2\x80\xaegnp.jsonl'`,
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// bash reads every quoted word back as the original bytes.
func TestShellQuoteRoundTrip(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	words := []string{"plain", "two words", "it's", "q/x\n\x1b[31mRED.jsonl", "a'b\\\a", "bad\xffé", "\u202egnp", "\x01\x7f$`!*"}
	var script strings.Builder
	for _, w := range words {
		script.WriteString("printf '%s\\0' " + ShellQuote(w) + "\n")
	}
	out, err := exec.Command(bash, "-c", script.String()).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(got) != len(words) {
		t.Fatalf("bash printed %q", out)
	}
	for i, w := range words {
		if got[i] != w {
			t.Errorf("%q came back as %q", w, got[i])
		}
	}
}

func TestShowCommand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		file, call, view string
		args             []string
		want             string
	}{
		{"a.jsonl", "", ShowRaw, nil, "dsh-replay show a.jsonl"},
		{"a.jsonl", "call_1", ShowRaw, []string{"--config", "my cfg.json"}, "dsh-replay show a.jsonl --call call_1 --raw --config 'my cfg.json'"},
		{"x --raw.jsonl", "c", ShowFull, nil, "dsh-replay show 'x --raw.jsonl' --call c --full"},
	} {
		if got := ShowCommand(c.file, c.call, c.view, c.args); got != c.want {
			t.Errorf("ShowCommand(%q, %q, %q, %q) = %s, want %s", c.file, c.call, c.view, c.args, got, c.want)
		}
	}
	// A finding about what show cannot read names no command.
	for _, class := range []replay.Class{replay.NotASessionLog, replay.Unreadable} {
		if got := findingCommand(&replay.Finding{Class: class, File: "a.jsonl"}, nil); got != "" {
			t.Errorf("%s: %q", class, got)
		}
	}
}
