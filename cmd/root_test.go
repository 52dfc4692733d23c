package cmd

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// A run that starts with a subcommand's name builds only that subcommand;
// what it prints and exits with is what the whole tree gives.
func TestRootForBuildsOneCommand(t *testing.T) {
	t.Parallel()
	rootFor := func(args []string) *cobra.Command {
		root, _ := rootFor(&cmdutil.Factory{}, args)
		return root
	}
	for _, c := range commands {
		if got := c.build(&cmdutil.Factory{}).Name(); got != c.name {
			t.Fatalf("commands lists %q for the %q command", c.name, got)
		}
		root := rootFor([]string{c.name, "--help"})
		if n := len(root.Commands()); n != 1 || root.Commands()[0].Name() != c.name {
			t.Errorf("%s: the root holds %d commands", c.name, n)
		}
		for _, args := range [][]string{{c.name, "--help"}, {c.name, "--no-such-flag"}, {c.name, "help"}, {c.name, "--version"}} {
			run := func(full bool) (string, int) {
				root := rootFor(args)
				if full {
					root = NewRoot()
				}
				var out bytes.Buffer
				code := cmdutil.Execute(root, args, strings.NewReader(""), &out, &out)
				return out.String(), code
			}
			one, oneCode := run(false)
			all, allCode := run(true)
			if one != all || oneCode != allCode {
				t.Errorf("%q: exit %d with one command, %d with all\none:\n%s\nall:\n%s", args, oneCode, allCode, one, all)
			}
		}
	}
	for _, args := range [][]string{{"--version"}, {"-v"}} {
		var one, all bytes.Buffer
		oneCode := cmdutil.Execute(rootFor(args), args, strings.NewReader(""), &one, &one)
		allCode := cmdutil.Execute(NewRoot(), args, strings.NewReader(""), &all, &all)
		if one.String() != all.String() || oneCode != allCode || !strings.HasPrefix(one.String(), "dsh-replay version ") {
			t.Errorf("%q: exit %d without commands, %d with all\n%s\n%s", args, oneCode, allCode, one.String(), all.String())
		}
	}
	if n := len(rootFor([]string{"--help"}).Commands()); n != len(commands) {
		t.Errorf("--help: the root holds %d commands, want all %d", n, len(commands))
	}
	if n := len(rootFor([]string{"help", "verify"}).Commands()); n != len(commands) {
		t.Errorf("help verify: the root holds %d commands, want all %d", n, len(commands))
	}
}
