package cmdutil

import (
	"github.com/spf13/pflag"

	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/jsplugin"
	"github.com/dsh-replay/dsh-replay/report"
)

// ProjectorFlags are the flags that choose the projectors a command runs
// (--config, --host, --plugin) and the values it reads (--no-sidecar). They
// are turned into command-line words by Args and ShowArgs, and nowhere else.
type ProjectorFlags struct {
	Config    string
	Host      string
	Plugins   []string
	NoSidecar bool
	// Limits bound the plugins' code (not a flag: the Factory's).
	Limits jsplugin.Limits
}

// Add adds --config, --plugin and --no-sidecar.
func (p *ProjectorFlags) Add(f *pflag.FlagSet) {
	p.AddProjectors(f)
	f.BoolVar(&p.NoSidecar, "no-sidecar", false, "ignore <log>.values.jsonl sidecars")
}

// AddProjectors adds --config and --plugin only, for commands that read no
// values (show, tools).
func (p *ProjectorFlags) AddProjectors(f *pflag.FlagSet) {
	f.StringVar(&p.Config, "config", "", "deployment configuration the projectors read: a JSON `FILE` or inline JSON ({\"host\": ..., \"plugins\": {...}, \"services\": {...}})")
	f.StringVar(&p.Host, "host", "", "use an installed host's own projectors: a DSH or LasmeX `DIR` (source tree, node_modules, or global install) whose first-party tool plugins run in the sandbox in place of the Go ports (docs/host.md)")
	StringArrayVar(f, &p.Plugins, "plugin", nil, "also load the tools of a JavaScript plugin: its built ESM file or its source directory (TypeScript too); its projectors run in a sandbox; repeatable")
}

// Args are the flags that give another command the same projectors and
// values, unquoted.
func (p ProjectorFlags) Args() []string {
	args := p.ShowArgs()
	if p.NoSidecar {
		args = append(args, "--no-sidecar")
	}
	return args
}

// ShowArgs are Args for `dsh-replay show`, which reads no values.
func (p ProjectorFlags) ShowArgs() []string {
	var args []string
	if p.Config != "" {
		args = append(args, "--config", p.Config)
	}
	if p.Host != "" {
		args = append(args, "--host", p.Host)
	}
	for _, pl := range p.Plugins {
		args = append(args, "--plugin", pl)
	}
	return args
}

// Registry builds the registry these flags name (see Projectors).
func (p ProjectorFlags) Registry() (*projector.Registry, []PluginTool, error) {
	reg, added, _, err := p.Projectors()
	return reg, added, err
}

// Projectors builds the registry of the Go ports for --config, puts the
// installed host's tools in their place (--host), then adds each
// --plugin's; host says what --host loaded (nil without it).
func (p ProjectorFlags) Projectors() (reg *projector.Registry, added []PluginTool, host *report.Host, err error) {
	return registry(p.Config, p.Host, p.Plugins, p.Limits)
}

// AddJobsFlag adds --jobs: every worker pool of the command (decoding, and
// for verify verifying) has that many workers, 0 as many as GOMAXPROCS
// (all cores unless it says otherwise), never more than 4 per core.
func AddJobsFlag(f *pflag.FlagSet, jobs *int) {
	f.IntVar(jobs, "jobs", 0, "workers (0: GOMAXPROCS, all cores by default; at most 4 per core)")
}

// CheckJobs refuses a negative --jobs.
func CheckJobs(jobs int) error {
	if jobs < 0 {
		return UsageErr("--jobs must be >= 0")
	}
	return nil
}
