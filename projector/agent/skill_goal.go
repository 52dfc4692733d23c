package agent

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// ask_user_question (packages/interaction/tool-ask-user/src/index.ts): no presenters.
func askTools() []*projector.Tool {
	return []*projector.Tool{{
		Name:       "ask_user_question",
		Plugin:     "tool-ask-user",
		Parameters: params("ask_user_question"),
		Output: &projector.Output{
			Schema: toolkit.MustCompile(`{"type":"object","additionalProperties":false,"properties":{"answers":{"type":"array","required":true,"items":{"type":"object","additionalProperties":false,"properties":{"id":{"type":"string","required":true},"selected":{"type":"array","required":true,"items":{"type":"string"}},"custom":{"type":"string"}}}}}}`),
			Render: jsonText,
		},
	}}
}

// skill (packages/skill/tool-skill/src/index.ts, renderSkillContent in packages/skill/skill/src/index.ts).
func skillTools() []*projector.Tool {
	return []*projector.Tool{{
		Name:       "skill",
		Plugin:     "tool-skill",
		Parameters: params("skill"),
		Output: &projector.Output{
			Schema: toolkit.MustCompile(`{"type":"object","additionalProperties":false,"properties":{
 "name":{"type":"string","required":true},
 "provider":{"type":"string","required":true},
 "resourceBase":{"oneOf":[
   {"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","required":true,"const":"directory"},"path":{"type":"string","required":true}}},
   {"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","required":true,"const":"url"},"url":{"type":"string","required":true}}},
   {"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","required":true,"const":"opaque"},"description":{"type":"string","required":true}}}]},
 "content":{"type":"string","required":true}}}`),
			Render: func(_, value jsonv.Value) (jsonv.Value, error) {
				s, err := renderSkillContent(value)
				if err != nil {
					return jsonv.Value{}, err
				}
				return text(s)
			},
		},
		PresentCall: func(args jsonv.Value) jsonv.Value {
			name := args.Get("name")
			return toolkit.Generic("Load skill "+str(name), "read", name)
		},
		CallCards: []string{"generic"},
	}}
}

var (
	attrEscaper = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;")
	textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
)

// escape applies a replaceAll chain; a non-string receiver throws.
func escape(v jsonv.Value, r *strings.Replacer) (string, error) {
	if !v.IsString() {
		if toolkit.Nullish(v) {
			return "", toolkit.ReadErr(v, "replaceAll")
		}
		return "", &toolkit.TypeError{Msg: "value.replaceAll is not a function"}
	}
	return r.Replace(v.Str()), nil
}

func renderSkillContent(skill jsonv.Value) (string, error) {
	if toolkit.Nullish(skill) {
		return "", toolkit.ReadErr(skill, "resourceBase")
	}
	var hint []string
	base := skill.Get("resourceBase")
	if base.IsUndefined() {
		p, err := escape(skill.Get("provider"), textEscaper)
		if err != nil {
			return "", err
		}
		hint = []string{`Resources for this skill are managed by provider "` + p + `".`, "Load referenced resources only as needed."}
	} else {
		kind, err := prop(base, "kind")
		if err != nil {
			return "", err
		}
		var field, head, tail string
		switch kind.Str() {
		case "directory":
			field, head, tail = "path", "Base directory for this skill: ", "Resolve relative paths mentioned by this skill against the base directory before using them. Load referenced resources only as needed."
		case "url":
			field, head, tail = "url", "Base URL for this skill: ", "Resolve relative URLs mentioned by this skill against the base URL before using them. Load referenced resources only as needed."
		case "opaque":
			field, head, tail = "description", "Resources for this skill: ", "Load referenced resources only as needed."
		}
		if field == "" || !kind.IsString() {
			// assertNever(base, 'SkillResourceBase.kind')
			return "", projector.Throwf("unreachable variant in SkillResourceBase.kind: %s", jsonv.Stringify(base))
		}
		v, err := escape(base.Get(field), textEscaper)
		if err != nil {
			return "", err
		}
		hint = []string{head + v, tail}
	}
	name, err := escape(skill.Get("name"), attrEscaper)
	if err != nil {
		return "", err
	}
	lines := []string{`<skill_content name="` + name + `">`, "<skill_resources>"}
	lines = append(lines, hint...)
	lines = append(lines, "</skill_resources>", "", "<skill_instructions>", joinPart(skill.Get("content")), "</skill_instructions>", "</skill_content>")
	return strings.Join(lines, "\n"), nil
}

// joinPart is how Array.prototype.join prints one element.
func joinPart(v jsonv.Value) string {
	if toolkit.Nullish(v) {
		return ""
	}
	return str(v)
}

// Goal tools (packages/goal/tool-goal/src/index.ts): one shared output.
var goalOutput = sync.OnceValue(func() jsonv.Value {
	return toolkit.MustCompile(`{"oneOf":[
 {"type":"object","additionalProperties":false,"properties":{"goal":{"type":"null","required":true}}},
 {"type":"object","additionalProperties":false,"properties":{
   "goal":{"type":"object","additionalProperties":false,"required":true,"properties":{
     "id":{"type":"string","required":true},
     "revision":{"type":"integer","required":true},
     "objective":{"type":"string","required":true},
     "phase":{"type":"string","required":true,"enum":["active","paused","blocked","complete"]},
     "roundsStarted":{"type":"integer","required":true},
     "maxGoalRounds":{"type":"integer","required":true},
     "blockedReason":{"type":"object","additionalProperties":false,"properties":{"code":{"type":"string","required":true},"message":{"type":"string","required":true}}}}},
   "activation":{"type":"string","required":true,"enum":["armed","disarmed"]}}}]}`)
})

func goalTools() []*projector.Tool {
	out := func() *projector.Output { return &projector.Output{Schema: goalOutput(), Render: jsonText} }
	return []*projector.Tool{
		{
			Name: "get_goal", Plugin: "tool-goal", Parameters: params("get_goal"), Output: out(),
			PresentCall: func(jsonv.Value) jsonv.Value { return toolkit.Generic("Read current goal", "read", jsonv.Value{}) },
			CallCards:   []string{"generic"},
		},
		{
			Name: "create_goal", Plugin: "tool-goal", Parameters: params("create_goal"), Output: out(),
			PresentCall: func(args jsonv.Value) jsonv.Value {
				return toolkit.Generic("Create goal", "other", args.Get("objective"))
			},
			CallCards: []string{"generic"},
		},
		{
			Name: "update_goal", Plugin: "tool-goal", Parameters: params("update_goal"), Output: out(),
			PresentCall: presentUpdateGoal,
			CallCards:   []string{"generic"},
		},
	}
}

// hasText: optional text that is not the strict-schema "" filler.
func hasText(v jsonv.Value) bool { return v.IsDefined() && !(v.IsString() && v.Str() == "") }

// hasRoundCap: an optional round cap that is not the 0 filler (-0 === 0 too).
func hasRoundCap(v jsonv.Value) bool { return v.IsDefined() && !(v.IsNumber() && v.Num() == 0) }

func presentUpdateGoal(args jsonv.Value) jsonv.Value {
	action := args.Get("action")
	verb := "Mark"
	if !(action.IsString() && action.Str() == "blocked") {
		if !action.IsString() {
			panic(toolkit.MethodErr(action, "args.action", "charAt"))
		}
		verb = capitalize(action.Str())
	}
	var raw jsonv.Value
	switch {
	case hasText(args.Get("blocked_reason")):
		raw = args.Get("blocked_reason")
	case hasText(args.Get("objective")):
		raw = args.Get("objective")
	case hasRoundCap(args.Get("max_goal_rounds")):
		raw = args.Get("max_goal_rounds")
	default:
		raw = args.Get("goal_id")
	}
	return toolkit.Generic(verb+" goal", "other", raw)
}

// capitalize is s.charAt(0).toUpperCase() + s.slice(1) for the BMP
// characters the action enum uses.
func capitalize(s string) string {
	if s == "" {
		return ""
	}
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return strings.ToUpper(string(r)) + s[size:]
}
