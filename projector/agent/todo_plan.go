package agent

import (
	"sync"
	"unicode/utf8"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// todo_write (packages/todo/tool-todo/src/index.ts).
var todoOutput = sync.OnceValue(func() jsonv.Value {
	return toolkit.MustCompile(`{"type":"object","additionalProperties":false,"properties":{
 "todos":{"type":"array","required":true,"items":{"type":"object","additionalProperties":false,"properties":{
   "content":{"type":"string","required":true},
   "status":{"type":"string","required":true,"enum":["pending","in_progress","completed"]}}}},
 "counts":{"type":"object","additionalProperties":false,"required":true,"properties":{
   "pending":{"type":"integer","required":true},
   "inProgress":{"type":"integer","required":true},
   "completed":{"type":"integer","required":true}}}}}`)
})

func todoTools(_ projector.Config) []*projector.Tool {
	return []*projector.Tool{{
		Name:       "todo_write",
		Plugin:     "tool-todo",
		Parameters: params("todo_write"),
		Output: &projector.Output{
			Schema: todoOutput(),
			Render: func(_, value jsonv.Value) (jsonv.Value, error) {
				counts, err := prop(value, "counts")
				if err != nil {
					return jsonv.Value{}, err
				}
				var n [3]jsonv.Value
				for i, k := range []string{"pending", "inProgress", "completed"} {
					if n[i], err = prop(counts, k); err != nil {
						return jsonv.Value{}, err
					}
				}
				return text("Updated todo list: " + str(n[0]) + " pending, " + str(n[1]) + " in progress, " + str(n[2]) + " completed.")
			},
		},
		// The raw (untrimmed) todos ride rawInput; UIs draw the checklist from todo/write events.
		PresentCall: func(args jsonv.Value) jsonv.Value {
			return toolkit.Generic("Update todo list", "other", args.Get("todos"))
		},
		CallCards: []string{"generic"},
	}}
}

// exit_plan_mode (packages/plan/plan-mode/src/index.ts).
const planApproved = "Plan approved — plan mode exited; carry out the plan starting with your next step."

// presentPlan is the plan card: titled by the plan's first heading, the
// plan as its content.
func presentPlan(args jsonv.Value) jsonv.Value {
	plan := args.Get("plan")
	if !plan.IsString() {
		// firstHeading's for (const line of plan.split('\n')), as V8 words it.
		if toolkit.Nullish(plan) {
			panic(toolkit.MethodErr(plan, "plan", "split"))
		}
		panic(&projector.Throw{Message: "plan.split is not a function or its return value is not iterable"})
	}
	title, ok := firstHeading(plan.Str())
	if !ok {
		title = "Plan"
	}
	return jsonv.Obj(
		jsonv.M("card", jsonv.Str("generic")),
		jsonv.M("title", jsonv.Str(title)),
		jsonv.M("kind", jsonv.Str("other")),
		jsonv.M("content", jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", plan)))),
	)
}

func planTools() []*projector.Tool {
	return []*projector.Tool{{
		Name:       "exit_plan_mode",
		Plugin:     "plan-mode",
		Parameters: params("exit_plan_mode"),
		Output: &projector.Output{
			Schema: toolkit.MustCompile(`{"type":"object","additionalProperties":false,"properties":{"approved":{"type":"boolean","const":true,"required":true}}}`),
			Render: func(_, _ jsonv.Value) (jsonv.Value, error) { return text(planApproved) },
		},
		PresentCall: presentPlan,
		// Always the review card over the delivered content, whatever isError and meta say.
		PresentResult: func(_ jsonv.Value, r projector.Result) jsonv.Value {
			return jsonv.Obj(
				jsonv.M("card", jsonv.Str("generic")),
				jsonv.M("title", jsonv.Str("Plan review")),
				jsonv.M("content", r.Content),
			)
		},
		CallCards:   []string{"generic"},
		ResultCards: []string{"generic"},
	}}
}

// firstHeading is the first line matching /^#{1,6}\s+(.+?)\s*$/ (group 1).
// The line is one piece of plan.split('\n'); JS \s is Unicode whitespace and
// `.` excludes the line terminators \n \r U+2028 U+2029. Byte offsets keep
// WTF-8 lone surrogates intact.
func firstHeading(plan string) (string, bool) {
	start := 0
	for i := 0; i <= len(plan); i++ {
		if i == len(plan) || plan[i] == '\n' {
			if h, ok := headingOf(plan[start:i]); ok {
				return h, true
			}
			start = i + 1
		}
	}
	return "", false
}

func isLineTerminator(r rune) bool { return r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029 }

func headingOf(line string) (string, bool) {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n < 1 || n > 6 {
		return "", false
	}
	// Offsets just after each whitespace character of the run that follows the hashes.
	var wsEnds []int
	for p := n; p < len(line); {
		r, size := utf8.DecodeRuneInString(line[p:])
		if !jsonv.IsJSSpace(r) {
			break
		}
		p += size
		wsEnds = append(wsEnds, p)
	}
	// Start of the trailing all-whitespace suffix.
	tail := len(line)
	for tail > 0 {
		r, size := utf8.DecodeLastRuneInString(line[:tail])
		if !jsonv.IsJSSpace(r) {
			break
		}
		tail -= size
	}
	// \s+ is greedy: try the longest whitespace run first, backtracking so the
	// lazy group gets at least one character and then reaches the suffix.
	for w := len(wsEnds) - 1; w >= 0; w-- {
		s := wsEnds[w]
		if s >= len(line) {
			continue
		}
		end := tail
		if end <= s {
			_, size := utf8.DecodeRuneInString(line[s:])
			end = s + size
		}
		ok := true
		for _, r := range line[s:end] {
			if isLineTerminator(r) {
				ok = false
				break
			}
		}
		if ok {
			return line[s:end], true
		}
	}
	return "", false
}
