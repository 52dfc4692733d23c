package agent

import (
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// exit_plan_mode with its implementation-detail annex (a plan-mode tree
// newer than 0.2.1-alpha.1; its release is not established): parameters
// plan (reworded) and details; presentCall shows a details annex that is
// not blank as a second text block. Output, render and presentResult are
// the pinned ones. A log says which definition a call had: the newest
// request header before it declares "details" (projector.PlanDetailsScope).

const planDetailsParamsSpec = `{
 "plan":{"type":"string","required":true,"description":"The plan's plain-language layer, as markdown, starting with a # heading that names it."},
 "details":{"type":"string","description":"Implementation-detail annex appended after the plan; capable UIs present it collapsed by default. Put implementation detail here instead of inlining a details section into the plan; omit only when the plan carries no implementation detail."}}`

func planDetailsTool() *projector.Tool {
	t := planTools()[0] // a fresh definition: changed here only
	t.Parameters = jsonv.Deferred(jsonv.Object, func() jsonv.Value { return toolkit.CompileParams(jsonv.MustParse(planDetailsParamsSpec)) })
	t.PresentCall = func(args jsonv.Value) jsonv.Value {
		details, err := normalizeDetails(args.Get("details"))
		if err != nil {
			panic(err)
		}
		view := presentPlan(args)
		if details == "" {
			return view
		}
		var ms []jsonv.Member
		for _, m := range view.Members() {
			if m.Key == "content" {
				m.Value = jsonv.Arr(append(m.Value.Elems(), jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", jsonv.Str(details))))...)
			}
			ms = append(ms, m)
		}
		return jsonv.Obj(ms...)
	}
	return t
}

// normalizeDetails: a details annex that is absent or blank (JavaScript's
// trim) reads as none (""); any other string is kept untrimmed; a value
// that is not a string throws as details.trim() would.
func normalizeDetails(d jsonv.Value) (string, error) {
	switch {
	case d.IsUndefined():
		return "", nil
	case d.IsNull():
		return "", toolkit.ReadErr(d, "trim")
	case !d.IsString():
		return "", &toolkit.TypeError{Msg: "details.trim is not a function"}
	case jsonv.TrimJS(d.Str()) == "":
		return "", nil
	}
	return d.Str(), nil
}
