package agent

import (
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// The timed ask_user_question (packages/interaction/tool-ask-user/src/timed.ts,
// registered instead of the blocking one under `mode: timed`): the same
// question parameters plus "timeout", a value that is either the answer
// batch or a pending notice, the same JSON.stringify render, no presenters.
// A log says which definition a call had: the newest request header before
// it declares this one's "timeout" parameter (projector.AskTimedScope).

const askTimedOutputSpec = `{"oneOf":[
 {"type":"object","additionalProperties":false,"properties":{
  "pending":{"type":"boolean","enum":[true],"required":true,"description":"True when the foreground wait expired before the user submitted an answer batch. The questions remain answerable; this is not a skipped answer."},
  "callId":{"type":"string","required":true,"description":"Tool call whose unanswered questions remain pending."},
  "message":{"type":"string","required":true,"description":"How to continue while the questions stay answerable."}}},
 {"type":"object","additionalProperties":false,"properties":{
  "answers":{"type":"array","required":true,"description":"Submitted answer batch with one item per question. A skipped question has empty selected and no custom; unlike pending, the user has completed the batch.","items":{"type":"object","additionalProperties":false,"properties":{
   "id":{"type":"string","required":true,"description":"Stable question id echoed from the request."},
   "selected":{"type":"array","required":true,"items":{"type":"string"},"description":"Selected option labels. Empty with no custom means the user explicitly skipped this question."},
   "custom":{"type":"string","description":"Optional free-form answer; omitted for a skipped question."}}}}}}]}`

// askTimedTool is the timed definition for cfg (its "timeout" option is
// the default the parameter's description names).
func askTimedTool(cfg projector.Config) *projector.Tool {
	def := jsonv.Int(120)
	if v := cfg.PluginOption("tool-ask-user", "timeout"); v.IsNumber() {
		def = v
	}
	return &projector.Tool{
		Name:       "ask_user_question",
		Plugin:     "tool-ask-user",
		Parameters: jsonv.Deferred(jsonv.Object, func() jsonv.Value { return askTimedParams(params("ask_user_question"), def) }),
		Output:     &projector.Output{Schema: toolkit.MustCompile(askTimedOutputSpec), Render: jsonText},
	}
}

// askTimedParams is the blocking definition's parameters with the timed
// one's questions description and its "timeout" after "questions".
func askTimedParams(legacy, def jsonv.Value) jsonv.Value {
	var ms []jsonv.Member
	for _, m := range legacy.Members() {
		if m.Key != "properties" {
			ms = append(ms, m)
			continue
		}
		var props []jsonv.Member
		for _, p := range m.Value.Members() {
			if p.Key == "questions" {
				var q []jsonv.Member
				for _, f := range p.Value.Members() {
					if f.Key == "description" {
						f.Value = jsonv.Str("Questions to ask the user.")
					}
					q = append(q, f)
				}
				p.Value = jsonv.Obj(q...)
			}
			props = append(props, p)
		}
		props = append(props, jsonv.M("timeout", jsonv.Obj(
			jsonv.M("type", jsonv.Str("integer")),
			jsonv.M("description", jsonv.Str("Wait seconds for the entire batch (default "+jsonv.ToString(def)+"); omit unless the user specifies a duration. Use -1 only when an answer is required before proceeding.")),
		)))
		ms = append(ms, jsonv.M("properties", jsonv.Obj(props...)))
	}
	return jsonv.Obj(ms...)
}
