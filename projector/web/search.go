package web

import (
	"fmt"
	"strings"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// searchOutputSchema is web_search's compiled output schema (both forks).
var searchOutputSchema = sync.OnceValue(func() jsonv.Value {
	return projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{"content":{"type":"string"},"sources":{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{"url":{"type":"string"},"title":{"type":"string"},"snippet":{"type":"string"},"publishedAt":{"type":"string"}},"required":["url"]}},"truncated":{"type":"boolean"}},"required":["sources","truncated"]}`)
})

// SearchTool is web_search for the configured fork.
func SearchTool(o Options) *projector.Tool {
	t := &projector.Tool{
		Name:   "web_search",
		Plugin: Plugin,
		Output: &projector.Output{
			Schema: searchOutputSchema(),
			Render: func(_, value jsonv.Value) (jsonv.Value, error) {
				text, err := FormatSearchOutput(value)
				if err != nil {
					return jsonv.Value{}, err
				}
				return projector.TextContent(text), nil
			},
			PresentationMeta: func(_, value jsonv.Value) (jsonv.Value, error) { return SearchMetaFromValue(value) },
		},
		CallCards:   []string{"generic"},
		ResultCards: []string{"web"},
	}
	if o.Fork == ForkDSH {
		// The description embeds the deployment's query cap (U+2013 en dash).
		desc := fmt.Sprintf("Required search queries; accepts 1–%d items and merges their results.", o.SearchMaxQueries)
		t.Parameters = jsonv.Obj(
			jsonv.M("type", jsonv.Str("object")),
			jsonv.M("properties", jsonv.Obj(jsonv.M("queries", jsonv.Obj(
				jsonv.M("type", jsonv.Str("array")),
				jsonv.M("description", jsonv.Str(desc)),
				jsonv.M("items", jsonv.Obj(jsonv.M("type", jsonv.Str("string")))),
			)))),
			jsonv.M("required", jsonv.Strs("queries")),
		)
		t.PresentCall = func(args jsonv.Value) jsonv.Value {
			title, ok := dshSearchTitle(args)
			if !ok {
				return jsonv.Value{}
			}
			return searchCallView(title)
		}
		t.PresentResult = func(args jsonv.Value, r projector.Result) jsonv.Value {
			title, ok := dshSearchTitle(args)
			if !ok {
				return jsonv.Value{}
			}
			return PresentSearchResult(title, r)
		}
		return t
	}
	t.Parameters = projector.SchemaText(`{"type":"object","properties":{"query":{"type":"string","description":"The search query."}},"required":["query"]}`)
	t.PresentCall = func(args jsonv.Value) jsonv.Value {
		q := args.Get("query")
		if !q.IsString() {
			return jsonv.Value{}
		}
		return searchCallView(q.Str())
	}
	t.PresentResult = func(args jsonv.Value, r projector.Result) jsonv.Value {
		q := args.Get("query")
		if !q.IsString() {
			return jsonv.Value{}
		}
		return PresentSearchResult(q.Str(), r)
	}
	return t
}

// dshSearchTitle is DSH's `args.queries.join(', ')`; ok is false for
// arguments the parameter schema rejects.
func dshSearchTitle(args jsonv.Value) (string, bool) {
	qs := args.Get("queries")
	if !qs.IsArray() {
		return "", false
	}
	parts := make([]string, 0, qs.Len())
	for _, q := range qs.Elems() {
		if !q.IsString() {
			return "", false
		}
		parts = append(parts, q.Str())
	}
	return strings.Join(parts, ", "), true
}

func searchCallView(title string) jsonv.Value {
	return jsonv.Obj(
		jsonv.M("card", jsonv.Str("generic")),
		jsonv.M("title", jsonv.Str(title)),
		jsonv.M("kind", jsonv.Str("search")),
		jsonv.M("rawInput", jsonv.Str(title)),
	)
}

// FormatSearchOutput is formatSearchOutput: the model-facing text.
func FormatSearchOutput(value jsonv.Value) (string, error) {
	if !value.IsObject() {
		return "", projector.Throwf("Cannot read properties of %s (reading 'content')", jsonv.ToString(value))
	}
	var parts []string
	content := value.Get("content")
	hasContent := content.IsDefined() && jsLen(content) > 0
	if hasContent {
		parts = append(parts, jsonv.ToString(content))
	}
	sources := value.Get("sources")
	if !sources.IsArray() {
		return "", projector.Throwf("Cannot read properties of %s (reading 'length')", jsonv.ToString(sources))
	}
	if sources.Len() > 0 {
		lines := make([]string, 0, sources.Len())
		for _, s := range sources.Elems() {
			if s.IsNull() || s.IsUndefined() {
				return "", projector.Throwf("Cannot read properties of %s (reading 'url')", jsonv.ToString(s))
			}
			url := s.Get("url")
			label := SourceLabel(url, s.Get("title"))
			var meta []string
			if sn := s.Get("snippet"); sn.IsDefined() && jsLen(sn) > 0 {
				meta = append(meta, jsonv.ToString(sn))
			}
			if p := s.Get("publishedAt"); p.IsDefined() && jsLen(p) > 0 {
				meta = append(meta, "("+jsonv.ToString(p)+")")
			}
			suffix := ""
			if len(meta) > 0 {
				suffix = " — " + strings.Join(meta, " ")
			}
			lines = append(lines, "- ["+label+"]("+jsonv.ToString(url)+")"+suffix)
		}
		parts = append(parts, "Sources:\n"+strings.Join(lines, "\n"))
	} else if !hasContent {
		parts = append(parts, "No results found.")
	}
	if value.Get("truncated").Truthy() {
		parts = append(parts, fmt.Sprintf("(Showing the first %d sources. Refine the query for more.)", sources.Len()))
	}
	parts = append(parts, "Cite the relevant URLs above as markdown links in your answer.")
	return strings.Join(parts, "\n\n"), nil
}

// SourceLabel is sourceLabel: a non-empty title, else the WHATWG hostname of
// the URL, else (the URL does not parse) the raw URL.
func SourceLabel(url, title jsonv.Value) string {
	if title.IsDefined() && jsLen(title) > 0 {
		return jsonv.ToString(title)
	}
	raw := jsonv.ToString(url)
	if h, ok := Hostname(raw); ok {
		return h
	}
	return raw
}

// projectSource keeps url and each optional field that is present.
func projectSource(s jsonv.Value) jsonv.Value {
	ms := []jsonv.Member{jsonv.M("url", s.Get("url"))}
	for _, k := range []string{"title", "snippet", "publishedAt"} {
		if v := s.Get(k); v.IsDefined() {
			ms = append(ms, jsonv.M(k, v))
		}
	}
	return jsonv.Obj(ms...)
}

// SearchMetaFromValue is searchMetaFromValue.
func SearchMetaFromValue(value jsonv.Value) (jsonv.Value, error) {
	sources := value.Get("sources")
	if !sources.IsArray() {
		return jsonv.Value{}, projector.Throwf("Cannot read properties of %s (reading 'map')", jsonv.ToString(sources))
	}
	projected := make([]jsonv.Value, 0, sources.Len())
	for _, s := range sources.Elems() {
		if s.IsNull() || s.IsUndefined() {
			return jsonv.Value{}, projector.Throwf("Cannot read properties of %s (reading 'url')", jsonv.ToString(s))
		}
		projected = append(projected, projectSource(s))
	}
	ms := []jsonv.Member{jsonv.M("sources", jsonv.Arr(projected...)), jsonv.M("truncated", value.Get("truncated"))}
	if c := value.Get("content"); c.IsDefined() {
		ms = append(ms, jsonv.M("answer", c))
	}
	return jsonv.Obj(ms...), nil
}

func optionalString(v jsonv.Value) bool { return v.IsUndefined() || v.IsString() }

// isWebSource narrows one stored source.
func isWebSource(v jsonv.Value) bool {
	return v.IsObject() && v.Get("url").IsString() &&
		optionalString(v.Get("title")) && optionalString(v.Get("snippet")) && optionalString(v.Get("publishedAt"))
}

// PresentSearchResult is presentSearchResult with the fork's title.
func PresentSearchResult(title string, r projector.Result) jsonv.Value {
	if r.IsError {
		return jsonv.Value{}
	}
	m := r.Meta
	if !m.IsObject() {
		return jsonv.Value{}
	}
	sources, truncated, answer := m.Get("sources"), m.Get("truncated"), m.Get("answer")
	if !sources.IsArray() || !truncated.IsBool() || !optionalString(answer) {
		return jsonv.Value{}
	}
	for _, s := range sources.Elems() {
		if !isWebSource(s) {
			return jsonv.Value{}
		}
	}
	ms := []jsonv.Member{
		jsonv.M("card", jsonv.Str("web")),
		jsonv.M("kind", jsonv.Str("search")),
		jsonv.M("title", jsonv.Str(title)),
		jsonv.M("sources", sources),
		jsonv.M("truncated", truncated),
	}
	if answer.IsDefined() {
		ms = append(ms, jsonv.M("answer", answer))
	}
	return jsonv.Obj(ms...)
}

// jsLen is `v.length` compared with 0: strings and arrays have one; other
// values read undefined, and `undefined > 0` is false.
func jsLen(v jsonv.Value) int {
	switch v.Kind() {
	case jsonv.String:
		return jsonv.Len16(v.Str())
	case jsonv.Array:
		return v.Len()
	}
	return 0
}
