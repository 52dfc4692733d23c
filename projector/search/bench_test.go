package search_test

import (
	"fmt"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/search"
)

// benchCall runs what replay runs for one call: render, presentationMeta,
// presentCall and presentResult (over the fresh meta).
func benchCall(b *testing.B, tool *projector.Tool, args, value jsonv.Value) {
	b.Helper()
	b.ReportAllocs()
	for b.Loop() {
		content, err := tool.RunRender(args, value)
		if err != nil {
			b.Fatal(err)
		}
		meta, _, err := tool.RunPresentationMeta(args, value)
		if err != nil {
			b.Fatal(err)
		}
		if v, _ := tool.CallView(args); !v.IsDefined() {
			b.Fatal("no call view")
		}
		if v, _ := tool.ResultView(args, projector.Result{Content: content, Meta: meta}); !v.IsDefined() {
			b.Fatal("no result view")
		}
	}
}

func benchRegistry(b *testing.B, opts string) *projector.Registry {
	r, err := projector.NewRegistry(projector.Config{Plugins: jsonv.Obj(jsonv.M(search.Plugin, jsonv.MustParse(opts)))})
	if err != nil {
		b.Fatal(err)
	}
	if err := search.Register(r); err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkGrepCall: a typical grep, 50 matches over 10 files, default caps.
func BenchmarkGrepCall(b *testing.B) {
	ms := make([]jsonv.Value, 50)
	for i := range ms {
		ms[i] = jsonv.Obj(
			jsonv.M("path", jsonv.Str(fmt.Sprintf("src/pkg%d/file_%d.go", i%10, i%10))),
			jsonv.M("lineNumber", jsonv.Int(10+i*7)),
			jsonv.M("line", jsonv.Str(fmt.Sprintf("\tif err := doSomething(ctx, item%d); err != nil { // TODO handle é", i))),
		)
	}
	value := jsonv.Obj(jsonv.M("matches", jsonv.Arr(ms...)))
	args := jsonv.MustParse(`{"pattern":"TODO","path":"src","include":"*.go"}`)
	benchCall(b, benchRegistry(b, `{}`).Lookup("grep"), args, value)
}

// BenchmarkGlobCall: a typical glob, 60 paths (under the cap).
func BenchmarkGlobCall(b *testing.B) {
	paths := make([]string, 60)
	for i := range paths {
		paths[i] = fmt.Sprintf("src/dir%d/sub/file_%d.ts", i%8, i)
	}
	value := jsonv.Obj(jsonv.M("root", jsonv.Str(".")), jsonv.M("paths", jsonv.Strs(paths...)))
	benchCall(b, benchRegistry(b, `{}`).Lookup("glob"), jsonv.MustParse(`{"pattern":"**/*.ts"}`), value)
}

// BenchmarkGlobSampledCall: an over-cap glob (500 paths, cap 100) sampled
// across 12 top-level entries.
func BenchmarkGlobSampledCall(b *testing.B) {
	paths := make([]string, 500)
	for i := range paths {
		paths[i] = fmt.Sprintf("top%d/sub/file_%d.ts", i%12, i)
	}
	value := jsonv.Obj(jsonv.M("root", jsonv.Str(".")), jsonv.M("paths", jsonv.Strs(paths...)))
	benchCall(b, benchRegistry(b, `{"sampleOverCapGlobResults":true}`).Lookup("glob"), jsonv.MustParse(`{"pattern":"*"}`), value)
}

// BenchmarkGrepProjectorsOnly: GrepText + GrepMeta without the contract's
// containment and schema checks, for comparison with BenchmarkGrepCall.
func BenchmarkGrepProjectorsOnly(b *testing.B) {
	ms := make([]search.Match, 50)
	for i := range ms {
		ms[i] = search.Match{Path: fmt.Sprintf("src/pkg%d/file_%d.go", i%10, i%10), LineNumber: jsonv.Int(10 + i*7),
			Line: fmt.Sprintf("\tif err := doSomething(ctx, item%d); err != nil { // TODO handle é", i)}
	}
	c := search.DefaultCaps()
	b.ReportAllocs()
	for b.Loop() {
		_ = search.GrepText(ms, c, nil)
		_ = search.GrepMeta(ms, c)
	}
}
