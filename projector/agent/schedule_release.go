package agent

import (
	"strings"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// ScheduleHostRelease is the first release whose reminders are the Host's
// (packages/schedule/tool-schedule/src/index.ts of 0.2.0-rc.2 and
// 0.2.1-alpha.1 trees; 0.1.7-alpha.2 has the pinned tools): a view has a
// title and deliveryMode "host", reminders may be daily, weekly or cron,
// the error set changes (subagent_session; no corrupt_schedule_log or
// persistence_uncertain), and schedule_update is new. Renders stay
// JSON.stringify(value) and the cards are the pinned ones. Parameter
// descriptions are left out: they name constants of the schedule package
// this port does not have, and no command prints a release's definition.
const ScheduleHostRelease = "0.2.0-rc.2"

// scheduleHostSpecs are the value schemas' shared parts, built the first
// time a schema is looked at (registration stays cheap).
var scheduleHostSpecs = sync.OnceValue(func() (specs struct{ view, errs string }) {
	const shared = `"id":{"type":"string","required":true},"title":{"type":"string","required":true},"prompt":{"type":"string","required":true},"scheduledAt":{"type":"string","required":true},"state":{"type":"string","required":true,"enum":["scheduled","overdue"]},"deliveryMode":{"type":"string","required":true,"const":"host"}`
	member := func(kind, rest string) string {
		return `{"type":"object","additionalProperties":false,"properties":{` + shared + `,"kind":{"type":"string","required":true,"const":"` + kind + `"}` + rest + `}}`
	}
	specs.view = `{"oneOf":[` + strings.Join([]string{
		member("after", `,"afterSeconds":{"type":"integer","required":true}`),
		member("at", ``),
		member("every", `,"everySeconds":{"type":"integer","required":true}`),
		member("daily", `,"time":{"type":"string","required":true},"timeZone":{"type":"string","required":true}`),
		member("weekly", `,"time":{"type":"string","required":true},"timeZone":{"type":"string","required":true},"weekdays":{"type":"array","required":true,"items":{"type":"integer"}}`),
		member("cron", `,"expression":{"type":"string","required":true},"timeZone":{"type":"string","required":true}`),
	}, ",") + `]}`
	var errs []string
	for _, code := range []string{"invalid_prompt", "invalid_selector", "invalid_rule", "invalid_time_zone", "not_future", "time_out_of_range", "frequency_too_high", "subagent_session", "internal_error"} {
		errs = append(errs, `{"type":"object","additionalProperties":false,"properties":{"code":{"type":"string","required":true,"const":"`+code+`"},"message":{"type":"string","required":true}}}`)
	}
	specs.errs = strings.Join(errs, ",")
	return specs
})

// scheduleSelectors are SELECTOR_PARAMETERS (every_seconds, daily, weekly,
// cron, at), descriptions aside.
const scheduleSelectors = `"every_seconds":{"type":"number"},
 "daily":{"type":"object","additionalProperties":false,"properties":{"time":{"type":"string","required":true},"time_zone":{"type":"string","required":true}}},
 "weekly":{"type":"object","additionalProperties":false,"properties":{"time":{"type":"string","required":true},"time_zone":{"type":"string","required":true},"weekdays":{"type":"array","required":true,"items":{"type":"integer"}}}},
 "cron":{"type":"object","additionalProperties":false,"properties":{"expression":{"type":"string","required":true},"time_zone":{"type":"string","required":true}}},
 "at":{"oneOf":[{"type":"string"},{"type":"object","additionalProperties":false,"properties":{"date":{"type":"string","required":true},"time":{"type":"string","required":true},"time_zone":{"type":"string","required":true}}}]}`

// scheduleHostTools are the four schedule tools of ScheduleHostRelease.
func scheduleHostTools() []*projector.Tool {
	tool := func(name, params string, output func(view, errs string) string, present func(jsonv.Value) jsonv.Value) *projector.Tool {
		return &projector.Tool{
			Name: name, Plugin: "schedule",
			Parameters: jsonv.Deferred(jsonv.Object, func() jsonv.Value { return toolkit.CompileParams(jsonv.MustParse(params)) }),
			Output: &projector.Output{Schema: toolkit.MustCompileFunc(func() string {
				s := scheduleHostSpecs()
				return output(s.view, s.errs)
			}), Render: jsonText},
			PresentCall: present, CallCards: []string{"generic"},
		}
	}
	return []*projector.Tool{
		tool("schedule_create", `{"prompt":{"type":"string","required":true},"title":{"type":"string","required":true},"after_seconds":{"type":"number"},`+scheduleSelectors+`}`,
			func(view, errs string) string { return `{"oneOf":[` + view + `,` + errs + `]}` },
			func(args jsonv.Value) jsonv.Value {
				return toolkit.Generic("Create reminder", "other", args.Get("prompt"))
			}),
		tool("schedule_list", `{}`,
			func(view, errs string) string {
				return `{"oneOf":[{"type":"array","items":` + view + `},` + errs + `]}`
			},
			func(jsonv.Value) jsonv.Value { return toolkit.Generic("List reminders", "read", jsonv.Value{}) }),
		tool("schedule_delete", `{"id":{"type":"string","required":true}}`,
			func(_, errs string) string {
				return `{"oneOf":[
 {"type":"object","additionalProperties":false,"properties":{"id":{"type":"string","required":true},"deleted":{"type":"boolean","required":true,"const":true}}},
 {"type":"object","additionalProperties":false,"properties":{"id":{"type":"string","required":true},"deleted":{"type":"boolean","required":true,"const":false},"code":{"type":"string","required":true,"const":"schedule_not_found"}}},` + errs + `]}`
			},
			func(args jsonv.Value) jsonv.Value { return toolkit.Generic("Delete reminder", "other", args.Get("id")) }),
		tool("schedule_update", `{"id":{"type":"string","required":true},"title":{"type":"string"},"prompt":{"type":"string"},`+scheduleSelectors+`}`,
			func(view, errs string) string {
				return `{"oneOf":[` + view + `,
 {"type":"object","additionalProperties":false,"properties":{"id":{"type":"string","required":true},"updated":{"type":"boolean","required":true,"const":false},"code":{"type":"string","required":true,"enum":["schedule_not_found","schedule_ended","schedule_conflict"]}}},` + errs + `]}`
			},
			func(args jsonv.Value) jsonv.Value { return toolkit.Generic("Update reminder", "other", args.Get("id")) }),
	}
}
