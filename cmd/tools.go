package cmd

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

type toolsOptions struct {
	cmdutil.IO
	json     bool
	proj     cmdutil.ProjectorFlags
	examples []string
}

// Validate checks the flags that go together.
func (o *toolsOptions) Validate() error {
	if o.proj.Host != "" && len(o.proj.Plugins) > 0 {
		return cmdutil.UsageErr("tools --host compares the host with the ports; --plugin does not go with it")
	}
	if o.proj.Host == "" && len(o.examples) > 0 {
		return cmdutil.UsageErr("--examples goes with --host")
	}
	return nil
}

type toolsSchemaOptions struct {
	*toolsOptions
	cmdutil.IO
	// scope picks a definition registered in a scope ("team": the Team's
	// send_message, list_agents, interrupt_agent; "ask-timed": the timed
	// ask_user_question; "plan-details": exit_plan_mode with details) over
	// the global one.
	scope string
}

// Validate accepts the scopes the registry knows.
func (o *toolsSchemaOptions) Validate() error {
	if err := o.toolsOptions.Validate(); err != nil {
		return err
	}
	switch o.scope {
	case "", projector.TeamScope, projector.AskTimedScope, projector.PlanDetailsScope:
	default:
		return cmdutil.UsageErr("--scope: %q is not a scope (the scopes are %q, %q and %q)", o.scope, projector.TeamScope, projector.AskTimedScope, projector.PlanDetailsScope)
	}
	return nil
}

// newCmdTools is `dsh-replay tools` and `tools schema`; runF and schemaF,
// when set, run instead (tests).
func newCmdTools(fac *cmdutil.Factory, runF func(*toolsOptions) error, schemaF func(*toolsSchemaOptions) error) *cobra.Command {
	o := &toolsOptions{}
	o.proj.Limits = fac.PluginLimits
	c := &cobra.Command{
		Use:   "tools",
		Short: "List the tool projectors this build knows",
		Long: `List every tool this build has a Go projector for: its name, the upstream
plugin that ships it, which projectors it has (render, presentationMeta,
presentCall, presentResult, and finalizeContent when the recorded content
passes through one) and the cards its presenters can emit.
"tools schema NAME" prints a tool's parameter and output schemas.

With --host DIR it prints the drift table instead: per tool, whether the
installed host's own projectors agree with the port on the worked examples
of --examples (the host version, examples, agree, differ, the first
difference; docs/host.md). Exit 0 when no tool differs, 1 when one does,
3 when the host cannot be loaded.`,
		Example: `  dsh-replay tools
  dsh-replay tools --host ~/.local/share/pnpm/global/5/node_modules --examples conformance/`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(o, runF, runTools),
	}
	c.Flags().BoolVar(&o.json, "json", false, "print NDJSON, one object per tool")
	cmdutil.StringArrayVar(c.Flags(), &o.examples, "examples", nil, "with --host: worked examples to compare the host and the ports on: a JSON-lines `FILE`, or a directory of *.jsonl; repeatable")
	o.proj.AddProjectors(c.PersistentFlags())

	so := &toolsSchemaOptions{toolsOptions: o}
	schema := &cobra.Command{
		Use:   "schema NAME",
		Short: "Print a tool's parameter and output schemas as JSON",
		Args:  cobra.ExactArgs(1),
		RunE:  cmdutil.RunE(so, schemaF, runToolsSchema),
	}
	schema.Flags().StringVar(&so.scope, "scope", "", "print the definition registered in this `scope` (team: the Team's own send_message, list_agents, interrupt_agent; ask-timed: the timed ask_user_question; plan-details: exit_plan_mode with its details annex)")
	c.AddCommand(schema)
	return c
}

// withScoped lists the registry's tools with the scoped ones that shadow a
// global tool of the same name (the Team's send_message beside
// tool-subagent-control's), by name, then plugin.
func withScoped(reg *projector.Registry) []*projector.Tool {
	tools := reg.Tools()
	global := make(map[*projector.Tool]bool, len(tools))
	for _, t := range tools {
		global[t] = true
	}
	for _, t := range reg.ScopedTools(projector.TeamScope) {
		if !global[t] {
			tools = append(tools, t)
		}
	}
	sort.SliceStable(tools, func(i, j int) bool {
		if tools[i].Name != tools[j].Name {
			return tools[i].Name < tools[j].Name
		}
		return tools[i].Plugin < tools[j].Plugin
	})
	return tools
}

func runTools(o *toolsOptions) error {
	if o.proj.Host != "" {
		return runToolsHost(o, o.Out, o.ErrOut)
	}
	reg, added, err := o.proj.Registry()
	if err != nil {
		return err
	}
	tools := withScoped(reg)
	if len(o.proj.Plugins) > 0 {
		// What the plugins add, and which ports they replace.
		tools = tools[:0:0]
		for _, a := range added {
			tools = append(tools, reg.Lookup(a.Tool))
		}
		if !o.json {
			defer func() {
				for _, a := range added {
					fmt.Fprintf(o.Out, "%s\n", a)
				}
			}()
		}
	}
	if o.json {
		return writeToolsJSON(o.Out, tools)
	}
	return writeToolsText(o.Out, tools)
}

func runToolsSchema(o *toolsSchemaOptions) error {
	reg, _, err := o.proj.Registry()
	if err != nil {
		return err
	}
	name := o.IO.Args[0]
	t := reg.Lookup(name)
	if o.scope != "" {
		t = nil
		for _, st := range reg.ScopedTools(o.scope) {
			if st.Name == name {
				t = st
			}
		}
		if t == nil {
			return unknownToolErr(name, reg.ScopedTools(o.scope))
		}
	}
	if t == nil {
		return unknownToolErr(name, reg.Tools())
	}
	ms := []jsonv.Member{jsonv.M("name", jsonv.Str(t.Name)), jsonv.M("parameters", orNull(t.Parameters))}
	output := jsonv.NullValue()
	if t.Output != nil {
		output = orNull(t.Output.Schema)
	}
	ms = append(ms, jsonv.M("output", output))
	_, err = fmt.Fprintln(o.IO.Out, jsonv.StringifyIndent(jsonv.Obj(ms...), "  "))
	return err
}

func orNull(v jsonv.Value) jsonv.Value {
	if v.IsUndefined() {
		return jsonv.NullValue()
	}
	return v
}

func toolJSON(t *projector.Tool) jsonv.Value {
	return jsonv.Obj(
		jsonv.M("name", jsonv.Str(t.Name)),
		jsonv.M("plugin", jsonv.Str(t.Plugin)),
		jsonv.M("projectors", jsonv.Strs(t.Projectors()...)),
		jsonv.M("callCards", jsonv.Strs(t.CallCards...)),
		jsonv.M("resultCards", jsonv.Strs(t.ResultCards...)),
		jsonv.M("softValidation", jsonv.BoolValue(!t.RawPresenters && (t.PresentCall != nil || t.PresentResult != nil))),
	)
}

func writeToolsJSON(w io.Writer, tools []*projector.Tool) error {
	var b strings.Builder
	for _, t := range tools {
		b.WriteString(jsonv.Stringify(toolJSON(t)))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeToolsText(w io.Writer, tools []*projector.Tool) error {
	// tabwriter writes each cell on its own: straight to stdout the table
	// took 1,136 write calls (5 ms, a quarter of the command).
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tPLUGIN\tPROJECTORS\tCALL CARDS\tRESULT CARDS")
	dash := func(ss []string) string {
		if len(ss) == 0 {
			return "-"
		}
		return strings.Join(ss, ",")
	}
	for _, t := range tools {
		plugin := t.Plugin
		if plugin == "" {
			plugin = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.Name, plugin, dash(t.Projectors()), dash(t.CallCards), dash(t.ResultCards))
	}
	fmt.Fprintf(tw, "\n%d tools\n", len(tools))
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// unknownToolErr is a usage error naming the closest registered names.
func unknownToolErr(name string, tools []*projector.Tool) error {
	close := closeNames(name, tools)
	if len(close) == 0 {
		return cmdutil.UsageErr("unknown tool %q (see \"dsh-replay tools\" for the list)", name)
	}
	return cmdutil.UsageErr("unknown tool %q; did you mean %s?", name, strings.Join(close, ", "))
}

// closeNames ranks registered names by edit distance (case-insensitive),
// keeping those within a third of the name's length, or sharing a prefix
// or substring with it.
func closeNames(name string, tools []*projector.Tool) []string {
	type cand struct {
		name string
		d    int
	}
	lname := strings.ToLower(name)
	var cs []cand
	for _, t := range tools {
		ln := strings.ToLower(t.Name)
		d := cmdutil.EditDistance(lname, ln)
		limit := max(2, len(lname)/3)
		if d <= limit || (len(lname) >= 3 && (strings.Contains(ln, lname) || strings.Contains(lname, ln))) {
			cs = append(cs, cand{t.Name, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].name < cs[j].name
	})
	out := make([]string, 0, 5)
	for i := 0; i < len(cs) && i < 5; i++ {
		out = append(out, fmt.Sprintf("%q", cs[i].name))
	}
	return out
}
