package cmdutil

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// The flags parsed by Add come back as the same words from Args, and
// ShowArgs leaves out what show does not take.
func TestProjectorFlagsRoundTrip(t *testing.T) {
	for _, c := range []struct {
		argv       []string
		args, show string
	}{
		{nil, "", ""},
		{[]string{"--no-sidecar"}, "--no-sidecar", ""},
		{[]string{"--plugin", "b", "--config", "c.json", "--plugin", "a b"}, "--config c.json --plugin b --plugin a b", "--config c.json --plugin b --plugin a b"},
		{[]string{"--config=x", "--no-sidecar"}, "--config x --no-sidecar", "--config x"},
	} {
		var p ProjectorFlags
		f := pflag.NewFlagSet("x", pflag.ContinueOnError)
		p.Add(f)
		if err := f.Parse(c.argv); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(p.Args(), " "); got != c.args {
			t.Errorf("%q: Args %q, want %q", c.argv, got, c.args)
		}
		if got := strings.Join(p.ShowArgs(), " "); got != c.show {
			t.Errorf("%q: ShowArgs %q, want %q", c.argv, got, c.show)
		}
		var again ProjectorFlags
		g := pflag.NewFlagSet("y", pflag.ContinueOnError)
		again.Add(g)
		if err := g.Parse(p.Args()); err != nil || strings.Join(again.Args(), " ") != c.args {
			t.Errorf("%q: Args do not parse back: %v %q", c.argv, err, again.Args())
		}
	}
	var p ProjectorFlags
	f := pflag.NewFlagSet("show", pflag.ContinueOnError)
	p.AddProjectors(f)
	if f.Lookup("no-sidecar") != nil || f.Lookup("config") == nil || f.Lookup("plugin") == nil {
		t.Error("AddProjectors adds --config and --plugin only")
	}
}

func TestCheckJobs(t *testing.T) {
	for jobs, ok := range map[int]bool{-1: false, 0: true, 1: true, 1 << 20: true} {
		if err := CheckJobs(jobs); (err == nil) != ok {
			t.Errorf("CheckJobs(%d) = %v", jobs, err)
		}
	}
}
