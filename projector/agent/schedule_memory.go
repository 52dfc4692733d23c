package agent

import (
	"strings"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// Schedule tools (packages/schedule/schedule/src/tools.ts): errors are
// values, renders are compact JSON.
func scheduleOutputs() (create, list, del jsonv.Value) {
	const shared = `"id":{"type":"string","required":true},"prompt":{"type":"string","required":true},"scheduledAt":{"type":"string","required":true},"state":{"type":"string","required":true,"enum":["scheduled","overdue"]},"deliveryMode":{"type":"string","required":true,"const":"session-local"}`
	const view = `{"oneOf":[
 {"type":"object","additionalProperties":false,"properties":{` + shared + `,"kind":{"type":"string","required":true,"const":"after"},"afterSeconds":{"type":"integer","required":true}}},
 {"type":"object","additionalProperties":false,"properties":{` + shared + `,"kind":{"type":"string","required":true,"const":"at"}}},
 {"type":"object","additionalProperties":false,"properties":{` + shared + `,"kind":{"type":"string","required":true,"const":"every"},"everySeconds":{"type":"integer","required":true}}}]}`
	// The error shapes are joined the first time a schema is looked at.
	errList := sync.OnceValue(func() string {
		var errs []string
		for _, code := range []string{"invalid_prompt", "invalid_selector", "invalid_rule", "invalid_time_zone", "not_future", "time_out_of_range", "frequency_too_high", "corrupt_schedule_log", "internal_error"} {
			errs = append(errs, `{"type":"object","additionalProperties":false,"properties":{"code":{"type":"string","required":true,"const":"`+code+`"},"message":{"type":"string","required":true}}}`)
		}
		errs = append(errs, `{"type":"object","additionalProperties":false,"properties":{"code":{"type":"string","required":true,"const":"persistence_uncertain"},"message":{"type":"string","required":true},"operation":{"type":"string","required":true,"enum":["create","list","delete"]},"id":{"type":"string"}}}`)
		return strings.Join(errs, ",")
	})
	create = toolkit.MustCompileFunc(func() string { return `{"oneOf":[` + view + `,` + errList() + `]}` })
	list = toolkit.MustCompileFunc(func() string { return `{"oneOf":[{"type":"array","items":` + view + `},` + errList() + `]}` })
	del = toolkit.MustCompileFunc(func() string {
		return `{"oneOf":[
 {"type":"object","additionalProperties":false,"properties":{"id":{"type":"string","required":true},"deleted":{"type":"boolean","required":true,"const":true}}},
 {"type":"object","additionalProperties":false,"properties":{"id":{"type":"string","required":true},"deleted":{"type":"boolean","required":true,"const":false},"code":{"type":"string","required":true,"const":"schedule_not_found"}}},` + errList() + `]}`
	})
	return create, list, del
}

func scheduleTools() []*projector.Tool {
	create, list, del := scheduleOutputs()
	return []*projector.Tool{
		{
			Name: "schedule_create", Plugin: "schedule", Parameters: params("schedule_create"),
			Output: &projector.Output{Schema: create, Render: jsonText},
			PresentCall: func(args jsonv.Value) jsonv.Value {
				return toolkit.Generic("Create reminder", "other", args.Get("prompt"))
			},
			CallCards: []string{"generic"},
		},
		{
			Name: "schedule_list", Plugin: "schedule", Parameters: params("schedule_list"),
			Output:      &projector.Output{Schema: list, Render: jsonText},
			PresentCall: func(jsonv.Value) jsonv.Value { return toolkit.Generic("List reminders", "read", jsonv.Value{}) },
			CallCards:   []string{"generic"},
		},
		{
			Name: "schedule_delete", Plugin: "schedule", Parameters: params("schedule_delete"),
			Output:      &projector.Output{Schema: del, Render: jsonText},
			PresentCall: func(args jsonv.Value) jsonv.Value { return toolkit.Generic("Delete reminder", "other", args.Get("id")) },
			CallCards:   []string{"generic"},
		},
	}
}

// Memory tools (packages/memory/tool-memory/src/index.ts; French UI strings).
func memoryTools() []*projector.Tool {
	const record = `"id":{"type":"string","required":true},"project":{"type":"string","required":true},"title":{"type":"string"},"content":{"type":"string","required":true},"tags":{"type":"array","required":true,"items":{"type":"string"}},"pinned":{"type":"boolean","required":true},"createdAt":{"type":"integer","required":true},"updatedAt":{"type":"integer","required":true}`
	const summary = `"id":{"type":"string","required":true},"project":{"type":"string","required":true},"title":{"type":"string"},"tags":{"type":"array","required":true,"items":{"type":"string"}},"pinned":{"type":"boolean","required":true},"createdAt":{"type":"integer","required":true},"updatedAt":{"type":"integer","required":true}`
	const recordSchema = `{"type":"object","additionalProperties":false,"properties":{` + record + `}}`
	const summarySchema = `{"type":"object","additionalProperties":false,"properties":{` + summary + `}}`
	out := func(schema string) *projector.Output {
		return &projector.Output{Schema: toolkit.MustCompile(schema), Render: jsonText}
	}
	return []*projector.Tool{
		{
			Name: "memory_list", Plugin: "tool-memory", Parameters: params("memory_list"),
			Output: out(`{"type":"object","additionalProperties":false,"properties":{"memories":{"type":"array","required":true,"items":` + summarySchema + `}}}`),
			PresentCall: func(jsonv.Value) jsonv.Value {
				return toolkit.Generic("Lister les mémoires du projet", "search", jsonv.Value{})
			},
			CallCards: []string{"generic"},
		},
		{
			Name: "memory_search", Plugin: "tool-memory", Parameters: params("memory_search"),
			Output: out(`{"type":"json"}`),
			PresentCall: func(args jsonv.Value) jsonv.Value {
				return toolkit.Generic("Rechercher dans la mémoire", "search", args.Get("query"))
			},
			CallCards: []string{"generic"},
		},
		{
			Name: "memory_read", Plugin: "tool-memory", Parameters: params("memory_read"),
			Output: out(`{"type":"object","additionalProperties":false,"properties":{"memory":{"required":true,"oneOf":[` + recordSchema + `,{"type":"null"}]}}}`),
			PresentCall: func(args jsonv.Value) jsonv.Value {
				return toolkit.Generic("Lire une mémoire", "read", args.Get("id"))
			},
			CallCards: []string{"generic"},
		},
		{
			Name: "memory_save", Plugin: "tool-memory", Parameters: params("memory_save"),
			Output: out(recordSchema),
			PresentCall: func(args jsonv.Value) jsonv.Value {
				raw := args.Get("title") // title ?? content
				if toolkit.Nullish(raw) {
					raw = args.Get("content")
				}
				return toolkit.Generic("Enregistrer une mémoire", "edit", raw)
			},
			CallCards: []string{"generic"},
		},
		{
			Name: "memory_forget", Plugin: "tool-memory", Parameters: params("memory_forget"),
			Output: out(`{"type":"object","additionalProperties":false,"properties":{"forgotten":{"type":"boolean","required":true}}}`),
			PresentCall: func(args jsonv.Value) jsonv.Value {
				return toolkit.Generic("Oublier une mémoire", "delete", args.Get("id"))
			},
			CallCards: []string{"generic"},
		},
	}
}

// Session-query tools (packages/session-query/tool-session-query): string
// outputs rendered verbatim; call cards from src/presentation.ts.
func sessionTools() []*projector.Tool {
	textOut := func() *projector.Output {
		return &projector.Output{Schema: jsonv.MustParse(`{"type":"string"}`), Render: identityText}
	}
	eventTarget := func(action string) func(jsonv.Value) jsonv.Value {
		return func(args jsonv.Value) jsonv.Value {
			var raw []jsonv.Member
			if sid := args.Get("session_id"); sid.IsDefined() {
				raw = append(raw, jsonv.M("session_id", sid))
			}
			if seq := args.Get("seq"); seq.IsDefined() {
				raw = append(raw, jsonv.M("seq", seq))
			}
			return jsonv.Obj(
				jsonv.M("card", jsonv.Str("generic")),
				jsonv.M("kind", jsonv.Str("read")),
				jsonv.M("title", jsonv.Str(action+" "+str(args.Get("seq")))),
				jsonv.M("rawInput", jsonv.Obj(raw...)),
			)
		}
	}
	search := func(title string) func(jsonv.Value) jsonv.Value {
		return func(args jsonv.Value) jsonv.Value {
			v := toolkit.KindTitle("search", title)
			if q := args.Get("query"); q.IsDefined() {
				v = v.With("rawInput", q)
			}
			return v
		}
	}
	return []*projector.Tool{
		{
			Name: "session_search", Plugin: "tool-session-query", Parameters: params("session_search"), Output: textOut(),
			PresentCall: search("Search prior sessions"), CallCards: []string{"generic"},
		},
		{
			Name: "session_event_search", Plugin: "tool-session-query", Parameters: params("session_event_search"), Output: textOut(),
			PresentCall: search("Search session events"), CallCards: []string{"generic"},
		},
		{
			Name: "session_trace", Plugin: "tool-session-query", Parameters: params("session_trace"), Output: textOut(),
			PresentCall: func(args jsonv.Value) jsonv.Value {
				sid := args.Get("session_id")
				if sid.IsUndefined() {
					return toolkit.KindTitle("read", "Trace current session")
				}
				return toolkit.KindTitle("read", "Trace session "+str(sid)).With("rawInput", sid)
			},
			CallCards: []string{"generic"},
		},
		{
			Name: "session_event_trace", Plugin: "tool-session-query", Parameters: params("session_event_trace"), Output: textOut(),
			PresentCall: eventTarget("Trace event"), CallCards: []string{"generic"},
		},
		{
			Name: "session_event_read", Plugin: "tool-session-query", Parameters: params("session_event_read"), Output: textOut(),
			PresentCall: eventTarget("Read event"), CallCards: []string{"generic"},
		},
	}
}
