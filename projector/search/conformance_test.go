package search_test

import (
	"bufio"
	"bytes"
	"os"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/projectortest"
	"github.com/dsh-replay/dsh-replay/projector/search"
)

// readJSONL parses every non-blank line of a conformance file.
func readJSONL(t *testing.T, file string) []jsonv.Value {
	t.Helper()
	data, err := os.ReadFile(sharedtest.Dir(t, "conformance", file))
	if err != nil {
		t.Fatal(err)
	}
	var out []jsonv.Value
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
		out = append(out, v)
	}
	return out
}

// registry builds a registry holding this family under plugin options opts.
func registry(t testing.TB, opts jsonv.Value) *projector.Registry {
	t.Helper()
	r, err := projector.NewRegistry(projector.Config{Plugins: jsonv.Obj(jsonv.M(search.Plugin, opts))})
	if err != nil {
		t.Fatal(err)
	}
	if err := search.Register(r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestConformanceSearchRenderMeta(t *testing.T) {
	recs := readJSONL(t, "search-render-meta.jsonl")
	pass := 0
	for i, rec := range recs {
		kind := rec.Get("kind").Str()
		// Caps go straight to the tool: the vectors call the projectors with
		// caps (maxLine 0) that the plugin's load-time check would reject.
		max := int(rec.Get("max").Num())
		caps := search.Caps{
			SampleOverCapGlobResults: rec.Get("sampling").True(),
			GlobMaxResults:           max,
			GrepMaxMatches:           max,
			GrepMaxLineBytes:         int(rec.Get("maxLine").Num()),
			SearchMetaMaxBytes:       int(rec.Get("maxMeta").Num()),
		}
		tool := search.GlobTool(caps)
		if kind == "grep" {
			tool = search.GrepTool(caps)
		}
		var value jsonv.Value
		if kind == "glob" {
			value = jsonv.Obj(jsonv.M("root", rec.Get("root")), jsonv.M("paths", rec.Get("paths")))
		} else {
			value = jsonv.Obj(jsonv.M("matches", rec.Get("matches")))
		}
		ok := true
		content, err := tool.RunRender(jsonv.Obj(), value)
		if err != nil {
			t.Errorf("record %d: render: %v", i+1, err)
			ok = false
		} else if got, want := content.At(0).Get("text").Str(), rec.Get("text").Str(); got != want {
			t.Errorf("record %d: text\n got %q\nwant %q", i+1, got, want)
			ok = false
		}
		meta, _, err := tool.RunPresentationMeta(jsonv.Obj(), value)
		if err != nil {
			t.Errorf("record %d: meta: %v", i+1, err)
			ok = false
		} else if got, want := jsonv.Stringify(meta), jsonv.Stringify(rec.Get("meta")); got != want {
			// Byte comparison: key order and number text matter for the cap.
			t.Errorf("record %d: meta\n got %s\nwant %s", i+1, got, want)
			ok = false
		}
		if ok {
			pass++
		}
	}
	t.Logf("conformance search-render-meta.jsonl: %d/%d records reproduced", pass, len(recs))
}

func TestConformancePreviewJSONLen(t *testing.T) {
	recs := readJSONL(t, "preview-jsonlen.jsonl")
	pass := 0
	for i, rec := range recs {
		s := rec.Get("s").Str()
		ok := true
		if got, want := search.PreviewLine(s, int(rec.Get("max").Num())), rec.Get("preview").Str(); got != want {
			t.Errorf("record %d: previewLine(%q, %v) = %q, want %q", i+1, s, rec.Get("max"), got, want)
			ok = false
		}
		if got, want := len(jsonv.Stringify(jsonv.Str(s))), int(rec.Get("len").Num()); got != want {
			t.Errorf("record %d: JSON length of %q = %d, want %d", i+1, s, got, want)
			ok = false
		}
		if ok {
			pass++
		}
	}
	t.Logf("conformance preview-jsonlen.jsonl: %d/%d records reproduced", pass, len(recs))
}

// upstreamTestConfig is the plugin config the upstream tool tests load by
// default (tools.spec.ts DEFAULT_CONFIG); fs-examples records list only what
// they change on top of it.
func registerWithTestDefaults(r *projector.Registry) error {
	opts := r.Config.Plugin(search.Plugin)
	if !opts.IsObject() {
		opts = jsonv.Obj()
	}
	if !opts.Has("sampleOverCapGlobResults") {
		opts = opts.With("sampleOverCapGlobResults", jsonv.BoolValue(true))
	}
	plugins := r.Config.Plugins
	if !plugins.IsObject() {
		plugins = jsonv.Obj()
	}
	r.Config.Plugins = plugins.With(search.Plugin, opts)
	return search.Register(r)
}

// TestConformanceFSExamples checks every grep/glob worked example. Records
// with spillRef carry the tool's post-execute replacement as content: it is
// checked against SpilledContent(render, locator, hint), then the rest of the
// record through the shared harness. Nested records expect render only.
func TestConformanceFSExamples(t *testing.T) {
	recs := projectortest.Load(t, "fs-examples.jsonl", "grep", "glob")
	pass, spilled, nested := 0, 0, 0
	for _, rec := range recs {
		ok := t.Run(rec.Name, func(t *testing.T) {
			_, tool := projectortest.Registry(t, rec, registerWithTestDefaults)
			if ref := rec.V.Get("spillRef"); ref.IsObject() {
				spilled++
				got, err := tool.RunRender(rec.V.Get("args"), rec.V.Get("value"))
				if err != nil {
					t.Fatalf("render: %v", err)
				}
				rendered := got.At(0).Get("text").Str()
				want := projectortest.ContentOf(rec.V.Get("content")).At(0).Get("text").Str()
				sp, ok := search.SpilledContent(tool.Name, rendered, ref.Get("locator").Str(), ref.Get("retrievalHint").Str())
				if !ok || sp != want {
					t.Fatalf("spilled content\n got %q (ok=%v)\nwant %q", sp, ok, want)
				}
				if r, ok := search.MatchSpilledContent(tool.Name, rendered, want); !ok ||
					r != ref.Get("locator").Str()+". "+ref.Get("retrievalHint").Str() {
					t.Errorf("MatchSpilledContent = %q, %v", r, ok)
				}
				rec.V = rec.V.With("content", got)
			}
			if rec.V.Get("nested").True() {
				nested++
			}
			o := projectortest.Check(tool, rec)
			for _, f := range o.Failures {
				t.Errorf("fs-examples.jsonl:%d %s", rec.Line, f)
			}
			if len(o.Checked) == 0 {
				t.Errorf("record checks nothing")
			}
		})
		if ok {
			pass++
		}
	}
	t.Logf("conformance fs-examples.jsonl [grep glob]: %d/%d records reproduced (%d with spillRef, %d nested)", pass, len(recs), spilled, nested)
}
