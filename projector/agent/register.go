package agent

import (
	_ "embed"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// parametersJSON holds the compiled parameter schemas exactly as upstream's
// generated tool catalog prints them (default configuration).
//
//go:embed schemas/parameters.json
var parametersJSON []byte

var params = toolkit.LazyCatalog(parametersJSON)

// Register adds this family's tools to r (reading options from r.Config).
func Register(r *projector.Registry) error {
	var tools []*projector.Tool
	tools = append(tools, todoTools(r.Config)...)
	tools = append(tools, planTools()...)
	subs, matcher := subagentTools(r.Config)
	tools = append(tools, subs...)
	tools = append(tools, controlTools()...)
	tools = append(tools, askTools()...)
	tools = append(tools, skillTools()...)
	tools = append(tools, goalTools()...)
	tools = append(tools, workflowTools(r.Config)...)
	tools = append(tools, scheduleTools()...)
	tools = append(tools, memoryTools()...)
	tools = append(tools, sessionTools()...)
	for _, t := range tools {
		if err := r.Add(t); err != nil {
			return err
		}
	}
	r.AddMatcher(matcher)
	if err := registerTeam(r); err != nil {
		return err
	}
	if err := r.AddScopedTool(projector.AskTimedScope, askTimedTool(r.Config)); err != nil {
		return err
	}
	if err := r.AddScopedTool(projector.PlanDetailsScope, planDetailsTool()); err != nil {
		return err
	}
	if r.Config.Host == "" {
		// The hosts word a background subagent's start differently.
		subs, matcher := subagentTools(r.Config.WithHost("dsh"))
		for _, t := range subs {
			if err := r.AddHostTool("dsh", t); err != nil {
				return err
			}
		}
		r.AddHostMatcher("dsh", matcher)
	}
	return registerReleases(r)
}

// text is a one-text-block render result.
func text(s string) (jsonv.Value, error) { return toolkit.TextOf(s) }

// jsonText renders JSON.stringify(value) as the single text block.
func jsonText(_, value jsonv.Value) (jsonv.Value, error) {
	if value.IsUndefined() {
		// JSON.stringify(undefined) is undefined: a non-lossless block.
		return jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", jsonv.Value{}))), nil
	}
	return text(jsonv.Stringify(value))
}

// identityText renders a string-valued output verbatim ([{type:'text', text: value}]).
func identityText(_, value jsonv.Value) (jsonv.Value, error) {
	return jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", value))), nil
}

// str is `${v}`.
func str(v jsonv.Value) string { return toolkit.JSString(v) }

// prop reads obj.key with JavaScript semantics (a TypeError on null/undefined).
func prop(v jsonv.Value, key string) (jsonv.Value, error) { return toolkit.Prop(v, key) }
