package golden

import (
	"bytes"
	"errors"
	"testing"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// execute runs one subcommand with args; runF has seen the options when it
// returns nil.
func execute(t *testing.T, c *cobra.Command, args ...string) error {
	t.Helper()
	var out bytes.Buffer
	c.SetArgs(args)
	c.SetOut(&out)
	c.SetErr(&out)
	c.SilenceUsage, c.SilenceErrors = true, true
	return c.Execute()
}

func isUsage(err error) bool {
	var ee *cmdutil.ExitError
	return errors.As(err, &ee) && ee.Code == cmdutil.ExitUsage
}

// A command line becomes options; Validate refuses bad flags before
// anything runs.
func TestSubcommandOptions(t *testing.T) {
	var u *updateOptions
	if err := execute(t, newCmdUpdate(&cmdutil.Factory{}, func(o *updateOptions) error { u = o; return nil }),
		"--dry-run", "--prune", "--out", "g", "--config", "c.json", "a", "b"); err != nil {
		t.Fatal(err)
	}
	if !u.dryRun || !u.prune || u.review || u.out != "g" || u.proj.Config != "c.json" || len(u.Args) != 2 {
		t.Errorf("update options: %+v", u)
	}
	var ch *checkOptions
	if err := execute(t, newCmdCheck(&cmdutil.Factory{}, func(o *checkOptions) error { ch = o; return nil }), "--unreferenced", "fail", "a"); err != nil {
		t.Fatal(err)
	}
	if ch.unreferenced != "fail" || ch.maxLines <= 0 {
		t.Errorf("check options: unreferenced %q, max-lines %d", ch.unreferenced, ch.maxLines)
	}
	var d *decideOptions
	if err := execute(t, newCmdDecide(&cmdutil.Factory{}, "reject", func(o *decideOptions) error { d = o; return nil }), "--call", "c1", "--tool", "edit"); err != nil {
		t.Fatal(err)
	}
	if d.action != "reject" || len(d.calls) != 1 || d.calls[0] != "c1" || len(d.tools) != 1 || len(d.Args) != 0 {
		t.Errorf("reject options: %+v", d)
	}
	var p *pendingOptions
	if err := execute(t, newCmdPending(&cmdutil.Factory{}, func(o *pendingOptions) error { p = o; return nil }), "--json"); err != nil || !p.asJSON {
		t.Errorf("pending --json: %v, %+v", err, p)
	}
	var r *reviewOptions
	if err := execute(t, newCmdReview(&cmdutil.Factory{}, func(o *reviewOptions) error { r = o; return nil }), "--no-tui", "--log", "x"); err != nil || !r.noTUI || len(r.logs) != 1 {
		t.Errorf("review --no-tui --log x: %v, %+v", err, r)
	}

	for _, tc := range []struct {
		name string
		cmd  func(ran *bool) *cobra.Command
		args []string
	}{
		{"update --review --no-review", func(ran *bool) *cobra.Command {
			return newCmdUpdate(&cmdutil.Factory{}, func(*updateOptions) error { *ran = true; return nil })
		}, []string{"--review", "--no-review", "a"}},
		{"check --max-lines -1", func(ran *bool) *cobra.Command {
			return newCmdCheck(&cmdutil.Factory{}, func(*checkOptions) error { *ran = true; return nil })
		}, []string{"--max-lines", "-1", "a"}},
		{"check --unreferenced bogus", func(ran *bool) *cobra.Command {
			return newCmdCheck(&cmdutil.Factory{}, func(*checkOptions) error { *ran = true; return nil })
		}, []string{"--unreferenced", "bogus", "a"}},
		{"diff --max-lines -1", func(ran *bool) *cobra.Command {
			return newCmdDiff(&cmdutil.Factory{}, func(*diffOptions) error { *ran = true; return nil })
		}, []string{"--max-lines", "-1"}},
	} {
		ran := false
		if err := execute(t, tc.cmd(&ran), tc.args...); !isUsage(err) || ran {
			t.Errorf("%s: err %v, ran %v; want a usage error before running", tc.name, err, ran)
		}
	}
}
