package shell

import (
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// statusLine renders a job's status with its optional producer detail.
func statusLine(job jsonv.Value) string {
	if d := job.Get("detail"); d.IsDefined() {
		return "[status: " + jsonv.ToString(job.Get("status")) + ", " + jsonv.ToString(d) + "]"
	}
	return "[status: " + jsonv.ToString(job.Get("status")) + "]"
}

// jobOutputParts is job_output's rendering split as finalizeContent sees
// it: the body without one trailing newline, and "\n" + status line.
func jobOutputParts(value jsonv.Value) (content, suffix string) {
	body := value.Get("text").Str()
	if body == "" {
		body = "(no new output)"
	}
	return strings.TrimSuffix(body, "\n"), "\n" + statusLine(value.Get("job"))
}

// gated wraps a presenter with defineTool's soft validation.
func gated(params jsonv.Value, present func(args jsonv.Value) jsonv.Value) func(jsonv.Value) jsonv.Value {
	return func(args jsonv.Value) jsonv.Value {
		if !conforms(params, args) {
			return jsonv.Value{}
		}
		return present(args)
	}
}

// jobTools builds tool-jobs' job_output, job_list and job_kill.
func jobTools() []*projector.Tool {
	outParams := jobOutputParameters()
	listParams := noParameters()
	killParams := jobKillParameters()
	return []*projector.Tool{
		{
			Name: "job_output", Plugin: "tool-jobs", Parameters: outParams,
			Output: &projector.Output{
				Schema: jobOutputSchema(),
				Render: func(_, value jsonv.Value) (jsonv.Value, error) {
					body := value.Get("text").Str()
					if body == "" {
						body = "(no new output)"
					}
					sep := "\n"
					if strings.HasSuffix(body, "\n") {
						sep = ""
					}
					return text(body + sep + statusLine(value.Get("job")))
				},
			},
			PresentCall: gated(outParams, func(args jsonv.Value) jsonv.Value {
				return generic("Read output from background job "+jsonv.ToString(args.Get("job_id")), "read", args.Get("job_id"))
			}),
			CallCards: []string{"generic"},
		},
		{
			Name: "job_list", Plugin: "tool-jobs", Parameters: listParams,
			Output: &projector.Output{
				Schema: jobListSchema(),
				Render: func(_, jobs jsonv.Value) (jsonv.Value, error) {
					if jobs.Len() == 0 {
						return text("(no background jobs)")
					}
					lines := make([]string, 0, jobs.Len())
					for _, t := range jobs.Elems() {
						lines = append(lines, jsonv.ToString(t.Get("id"))+" ["+jsonv.ToString(t.Get("kind"))+"] "+jsonv.ToString(t.Get("status"))+" — "+jsonv.ToString(t.Get("label")))
					}
					return text(strings.Join(lines, "\n"))
				},
			},
			PresentCall: gated(listParams, func(jsonv.Value) jsonv.Value {
				return generic("List background jobs", "read", jsonv.Value{})
			}),
			CallCards: []string{"generic"},
		},
		{
			Name: "job_kill", Plugin: "tool-jobs", Parameters: killParams,
			Output: &projector.Output{
				Schema: jobKillSchema(),
				Render: func(_, value jsonv.Value) (jsonv.Value, error) {
					job := value.Get("job")
					if o := value.Get("outcome"); o.IsString() && o.Str() == "already-finished" {
						return text("job " + jsonv.ToString(job.Get("id")) + " had already finished " + statusLine(job))
					}
					return text("requested cancellation of job " + jsonv.ToString(job.Get("id")))
				},
			},
			PresentCall: gated(killParams, func(args jsonv.Value) jsonv.Value {
				return generic("Kill background job "+jsonv.ToString(args.Get("job_id")), "execute", args.Get("job_id"))
			}),
			CallCards: []string{"generic"},
		},
	}
}
