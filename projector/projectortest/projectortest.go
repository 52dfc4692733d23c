package projectortest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// Record is one worked example.
type Record struct {
	Name string // id, or tool#line
	Line int
	V    jsonv.Value
}

// Load reads a conformance file (skipping the test when ../shared is absent)
// and returns the records whose tool is in tools (all when tools is empty).
func Load(t testing.TB, file string, tools ...string) []Record {
	t.Helper()
	path := sharedtest.Dir(t, "conformance", file)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, n := range tools {
		want[n] = true
	}
	var out []Record
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		v, err := jsonv.Parse(sc.Bytes())
		if err != nil {
			t.Fatalf("%s:%d: %v", file, line, err)
		}
		tool := v.Get("tool").Str()
		if len(want) > 0 && !want[tool] {
			continue
		}
		name := v.Get("id").Str()
		if name == "" {
			name = fmt.Sprintf("%s#%d", tool, line)
		}
		out = append(out, Record{Name: name, Line: line, V: v})
	}
	return out
}

// Registry builds a registry for one record: the record's "config" object
// becomes the options of the tool's plugin (found by building a default
// registry first). register is the family's Register function.
func Registry(t testing.TB, rec Record, register ...func(*projector.Registry) error) (*projector.Registry, *projector.Tool) {
	t.Helper()
	build := func(cfg projector.Config) *projector.Registry {
		r, err := projector.NewRegistry(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range register {
			if err := f(r); err != nil {
				t.Fatalf("register: %v", err)
			}
		}
		return r
	}
	name := rec.V.Get("tool").Str()
	r := build(projector.Config{})
	tool := r.Lookup(name)
	if tool == nil {
		t.Fatalf("%s: tool %q is not registered", rec.Name, name)
	}
	if cfg := rec.V.Get("config"); cfg.IsObject() {
		r = build(projector.Config{Plugins: jsonv.Obj(jsonv.M(tool.Plugin, cfg))})
		tool = r.Lookup(name)
	}
	return r, tool
}

// ContentOf normalises a record's content: other-examples.jsonl writes the
// text of a single text block as a plain string.
func ContentOf(c jsonv.Value) jsonv.Value {
	if c.IsString() {
		return projector.TextContent(c.Str())
	}
	return c
}

// Outcome is what checking one record found.
type Outcome struct {
	Checked  []string // fields compared: content, meta, callView, resultView
	Failures []string
}

// Check runs the port on one record and compares every field the record has:
// content and meta from render/presentationMeta when value is not null
// (meta only for top-level calls; "nested" records expect none), callView
// from presentCall, resultView from presentResult over resultInput or else
// {content, isError, meta}.
func Check(tool *projector.Tool, rec Record) Outcome {
	var o Outcome
	v := rec.V
	args := v.Get("args")
	value := v.Get("value")
	fail := func(field, format string, a ...any) {
		o.Failures = append(o.Failures, field+": "+fmt.Sprintf(format, a...))
	}
	if value.IsDefined() && !value.IsNull() {
		if want := v.Get("content"); want.IsDefined() && !want.IsNull() {
			o.Checked = append(o.Checked, "content")
			got, err := tool.RunRender(args, value)
			if err != nil {
				fail("content", "render failed: %v", err)
			} else if !jsonv.Equal(got, ContentOf(want)) {
				fail("content", "%s", Diff(ContentOf(want), got))
			} else if msg := bytesDiffer(ContentOf(want), got); msg != "" {
				fail("content", "%s", msg)
			}
		}
		nested := v.Get("nested").True()
		wantMeta := v.Get("meta")
		if v.Has("meta") || v.Get("meta_absent").True() || nested {
			o.Checked = append(o.Checked, "meta")
			got, ok, err := tool.RunPresentationMeta(args, value)
			switch {
			case nested || v.Get("meta_absent").True():
				if ok && !nested && err == nil && got.IsDefined() {
					fail("meta", "want no meta, got %s", got)
				}
			case err != nil:
				fail("meta", "presentationMeta failed: %v", err)
			case !ok:
				fail("meta", "tool declares no presentationMeta, want %s", wantMeta)
			case !jsonv.Equal(got, wantMeta):
				fail("meta", "%s", Diff(wantMeta, got))
			default:
				if msg := bytesDiffer(wantMeta, got); msg != "" {
					fail("meta", "%s", msg)
				}
			}
		}
	}
	if v.Has("callView") {
		o.Checked = append(o.Checked, "callView")
		got, err := tool.CallView(args)
		want := v.Get("callView")
		if err != nil {
			fail("callView", "presentCall failed: %v", err)
		} else if want.IsNull() {
			if got.IsDefined() {
				fail("callView", "want no view, got %s", got)
			}
		} else if !jsonv.Equal(got, want) {
			fail("callView", "%s", Diff(want, got))
		} else if msg := bytesDiffer(want, got); msg != "" {
			fail("callView", "%s", msg)
		}
	}
	if v.Has("resultView") {
		o.Checked = append(o.Checked, "resultView")
		in := ResultInput(v)
		got, err := tool.ResultView(args, in)
		want := v.Get("resultView")
		if err != nil {
			fail("resultView", "presentResult failed: %v", err)
		} else if want.IsNull() {
			if got.IsDefined() {
				fail("resultView", "want no view, got %s", got)
			}
		} else if !jsonv.Equal(got, want) {
			fail("resultView", "%s", Diff(want, got))
		} else if msg := bytesDiffer(want, got); msg != "" {
			fail("resultView", "%s", msg)
		}
	}
	return o
}

// bytesDiffer compares JSON.stringify bytes of two structurally equal
// values: the records keep upstream's key order, so this pins the order in
// which a port builds its objects (what a client sees on the wire).
func bytesDiffer(want, got jsonv.Value) string {
	w, g := jsonv.Stringify(want), jsonv.Stringify(got)
	if w == g {
		return ""
	}
	return fmt.Sprintf("JSON.stringify bytes differ (key order): want %s, got %s", jsonv.Short(want, 300), jsonv.Short(got, 300))
}

// ResultInput is the presenter input a record describes.
func ResultInput(v jsonv.Value) projector.Result {
	if in := v.Get("resultInput"); in.IsObject() {
		return projector.Result{Content: ContentOf(in.Get("content")), IsError: in.Get("isError").True(), Meta: in.Get("meta")}
	}
	r := projector.Result{Content: ContentOf(v.Get("content")), IsError: v.Get("isError").True()}
	if r.Content.IsNull() || r.Content.IsUndefined() {
		r.Content = jsonv.Arr()
	}
	if !v.Get("meta_absent").True() {
		r.Meta = v.Get("meta")
	}
	return r
}

// Diff describes the first difference between two values.
func Diff(want, got jsonv.Value) string {
	p, w, g := firstDiff("", want, got)
	return fmt.Sprintf("at %q: want %s, got %s", p, short(w), short(g))
}

func short(v jsonv.Value) string { return jsonv.Short(v, 300) }

func firstDiff(ptr string, a, b jsonv.Value) (string, jsonv.Value, jsonv.Value) {
	if a.Kind() != b.Kind() {
		return ptr, a, b
	}
	switch a.Kind() {
	case jsonv.Array:
		n := a.Len()
		if b.Len() < n {
			n = b.Len()
		}
		for i := 0; i < n; i++ {
			if !jsonv.Equal(a.At(i), b.At(i)) {
				return firstDiff(fmt.Sprintf("%s/%d", ptr, i), a.At(i), b.At(i))
			}
		}
		if a.Len() != b.Len() {
			return ptr, a, b
		}
	case jsonv.Object:
		for _, m := range a.Members() {
			if !jsonv.Equal(m.Value, b.Get(m.Key)) {
				return firstDiff(ptr+"/"+escapePtr(m.Key), m.Value, b.Get(m.Key))
			}
		}
		for _, m := range b.Members() {
			if !a.Has(m.Key) && m.Value.IsDefined() {
				return ptr + "/" + escapePtr(m.Key), jsonv.Value{}, m.Value
			}
		}
	}
	return ptr, a, b
}

func escapePtr(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// Run checks every record with a subtest each and logs the tally
// ("conformance: N/M records reproduced"); it fails the test on any mismatch.
func Run(t *testing.T, file string, register func(*projector.Registry) error, tools ...string) {
	t.Helper()
	recs := Load(t, file, tools...)
	if len(recs) == 0 {
		t.Fatalf("no records for %v in %s", tools, file)
	}
	pass := 0
	for _, rec := range recs {
		ok := t.Run(rec.Name, func(t *testing.T) {
			_, tool := Registry(t, rec, register)
			o := Check(tool, rec)
			for _, f := range o.Failures {
				t.Errorf("%s:%d %s", file, rec.Line, f)
			}
		})
		if ok {
			pass++
		}
	}
	t.Logf("conformance %s %v: %d/%d records reproduced", file, tools, pass, len(recs))
}
