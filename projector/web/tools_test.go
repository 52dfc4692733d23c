package web

import (
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

func registry(t *testing.T, plugin string) *projector.Registry {
	t.Helper()
	cfg := projector.Config{}
	if plugin != "" {
		c, err := projector.ParseConfig([]byte(`{"plugins":{"tool-web":` + plugin + `}}`))
		if err != nil {
			t.Fatal(err)
		}
		cfg = c
	}
	r, err := projector.NewRegistry(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		plugin  string
		tools   []string
		wantErr string
	}{
		{"", []string{"web_fetch", "web_search"}, ""},
		{`{"search":false}`, []string{"web_fetch"}, ""},
		{`{"fetch":false}`, []string{"web_search"}, ""},
		{`{"search":false,"fetch":false}`, nil, ""},
		{`{"fork":"dsh","searchMaxQueries":2}`, []string{"web_fetch", "web_search"}, ""},
		{`{"fork":"other"}`, nil, `tool-web: fork must be "lasmex" or "dsh"`},
		{`{"fetchMaxOutputChars":0}`, nil, "tool-web: fetchMaxOutputChars must be a positive integer"},
		{`{"searchMaxResults":1.5}`, nil, "tool-web: searchMaxResults must be a positive integer"},
		{`{"fetchTimeoutMs":"30000"}`, nil, "tool-web: fetchTimeoutMs must be a positive integer"},
		{`{"search":"yes"}`, nil, "tool-web: search must be a boolean"},
		{`{"fork":"dsh","searchMaxQueries":0}`, nil, "tool-web: searchMaxQueries must be a positive integer"},
	} {
		cfg, err := projector.ParseConfig([]byte(`{"plugins":{"tool-web":` + orEmpty(tc.plugin) + `}}`))
		if err != nil {
			t.Fatal(err)
		}
		tools, err := Tools(cfg)
		if tc.wantErr != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
				t.Errorf("%s: error %v, want %q", tc.plugin, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.plugin, err)
			continue
		}
		var names []string
		for _, tl := range tools {
			names = append(names, tl.Name)
		}
		if strings.Join(names, ",") != strings.Join(reverseSorted(tc.tools), ",") && strings.Join(names, ",") != strings.Join(tc.tools, ",") {
			t.Errorf("%s: tools %v, want %v", tc.plugin, names, tc.tools)
		}
	}
}

func orEmpty(s string) string {
	if s == "" {
		return "{}"
	}
	return s
}

func reverseSorted(s []string) []string {
	out := make([]string, len(s))
	for i := range s {
		out[len(s)-1-i] = s[i]
	}
	return out
}

func TestForkPresenters(t *testing.T) {
	meta := jsonv.MustParse(`{"sources":[{"url":"https://a.test","extra":1}],"truncated":false,"answer":""}`)
	result := projector.Result{Content: projector.TextContent("x"), Meta: meta}
	for _, tc := range []struct {
		name, plugin, args string
		call, view         string // "" = no view
	}{
		{"lasmex query", "", `{"query":"go generics"}`,
			`{"card":"generic","title":"go generics","kind":"search","rawInput":"go generics"}`,
			`{"card":"web","kind":"search","title":"go generics","sources":[{"url":"https://a.test","extra":1}],"truncated":false,"answer":""}`},
		{"lasmex on dsh args", "", `{"queries":["a","b"]}`, "", ""},
		{"dsh queries", `{"fork":"dsh"}`, `{"queries":["a","b, c"]}`,
			`{"card":"generic","title":"a, b, c","kind":"search","rawInput":"a, b, c"}`,
			`{"card":"web","kind":"search","title":"a, b, c","sources":[{"url":"https://a.test","extra":1}],"truncated":false,"answer":""}`},
		{"dsh empty queries", `{"fork":"dsh"}`, `{"queries":[]}`,
			`{"card":"generic","title":"","kind":"search","rawInput":""}`,
			`{"card":"web","kind":"search","title":"","sources":[{"url":"https://a.test","extra":1}],"truncated":false,"answer":""}`},
		{"dsh on lasmex args", `{"fork":"dsh"}`, `{"query":"q"}`, "", ""},
		{"dsh non-string item", `{"fork":"dsh"}`, `{"queries":["a",1]}`, "", ""},
	} {
		tool := registry(t, tc.plugin).Lookup("web_search")
		args := jsonv.MustParse(tc.args)
		call, err := tool.CallView(args)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		view, err := tool.ResultView(args, result)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		check := func(what string, got jsonv.Value, want string) {
			switch {
			case want == "" && got.IsDefined():
				t.Errorf("%s %s: want no view, got %s", tc.name, what, jsonv.Stringify(got))
			case want != "" && jsonv.Stringify(got) != want:
				t.Errorf("%s %s:\n got %s\nwant %s", tc.name, what, jsonv.Stringify(got), want)
			}
		}
		check("call", call, tc.call)
		check("result", view, tc.view)
	}
}

func TestDSHParameters(t *testing.T) {
	tool := registry(t, `{"fork":"dsh","searchMaxQueries":3}`).Lookup("web_search")
	want := `{"type":"object","properties":{"queries":{"type":"array","description":"Required search queries; accepts 1–3 items and merges their results.","items":{"type":"string"}}},"required":["queries"]}`
	if got := jsonv.Stringify(tool.Parameters); got != want {
		t.Errorf("parameters\n got %s\nwant %s", got, want)
	}
}

func TestSearchRender(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{`{"sources":[{"url":"https://Bücher.Example:8443/x","title":""},{"url":"http://[::1]/"},{"url":"mailto:a@b.test"},{"url":"file:///etc"},{"url":"HTTP://USER:pw@EXAMPLE.com"}],"truncated":true}`,
			"Sources:\n- [xn--bcher-kva.example](https://Bücher.Example:8443/x)\n- [[::1]](http://[::1]/)\n- [](mailto:a@b.test)\n- [](file:///etc)\n- [example.com](HTTP://USER:pw@EXAMPLE.com)\n\n(Showing the first 5 sources. Refine the query for more.)\n\nCite the relevant URLs above as markdown links in your answer."},
		{`{"content":"","sources":[],"truncated":false}`, "No results found.\n\nCite the relevant URLs above as markdown links in your answer."},
		{`{"content":"answer","sources":[],"truncated":false}`, "answer\n\nCite the relevant URLs above as markdown links in your answer."},
		{`{"sources":[{"url":"u","snippet":"","publishedAt":"2020"}],"truncated":false}`, "Sources:\n- [u](u) — (2020)\n\nCite the relevant URLs above as markdown links in your answer."},
	} {
		got, err := FormatSearchOutput(jsonv.MustParse(tc.value))
		if err != nil {
			t.Errorf("%s: %v", tc.value, err)
		} else if got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.value, got, tc.want)
		}
	}
	if _, err := FormatSearchOutput(jsonv.MustParse(`{"sources":null,"truncated":false}`)); err == nil {
		t.Error("sources null: want a throw")
	}
}

func TestSearchMetaKeyOrder(t *testing.T) {
	m, err := SearchMetaFromValue(jsonv.MustParse(`{"truncated":true,"content":"a","sources":[{"publishedAt":"p","url":"u","extra":1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := jsonv.Stringify(m), `{"sources":[{"url":"u","publishedAt":"p"}],"truncated":true,"answer":"a"}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
