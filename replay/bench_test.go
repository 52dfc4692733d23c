package replay

import (
	"fmt"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
)

// benchCall is a realistic read call with value, content and meta computed
// through the port.
func benchCall(b *testing.B) (*Engine, *logformat.Call) { return benchCallLines(b, 200) }

func benchCallLines(b *testing.B, n int) (*Engine, *logformat.Call) {
	reg, err := builtin.Registry(projector.Config{})
	if err != nil {
		b.Fatal(err)
	}
	tool := reg.Lookup("read")
	if tool == nil || tool.Output == nil {
		b.Skip("no read port")
	}
	var lines []jsonv.Value
	for i := 1; i <= n; i++ {
		lines = append(lines, jsonv.Obj(jsonv.M("number", jsonv.Int(i)), jsonv.M("text", jsonv.Str("\tfunc example() { return someValue + anotherValue } // line"))))
	}
	args := jsonv.MustParse(`{"file_path":"main.go"}`)
	value := jsonv.Obj(jsonv.M("path", jsonv.Str("/abs/main.go")), jsonv.M("offset", jsonv.Int(1)),
		jsonv.M("lines", jsonv.Arr(lines...)), jsonv.M("totalLines", jsonv.Int(n)))
	content, err := tool.RunRender(args, value)
	if err != nil {
		b.Fatal(err)
	}
	meta, _, err := tool.RunPresentationMeta(args, value)
	if err != nil {
		b.Fatal(err)
	}
	// Content and meta as the reader leaves them: raw JSON decoded on demand.
	c := &logformat.Call{File: "bench.jsonl", Line: 1, CallID: "c", Name: "read", RawArguments: jsonv.Stringify(args),
		Arguments: args, Started: true, HasResult: true, Content: jsonv.Lazy(jsonv.Stringify(content), true),
		Meta: jsonv.Lazy(jsonv.Stringify(meta), true), Value: value}
	return NewEngine(reg, Options{}), c
}

// BenchmarkVerifyCall: one call through schema validation, render, compare,
// presentationMeta, compare and both presenters.
func BenchmarkVerifyCall(b *testing.B) {
	e, c := benchCall(b)
	if rs := e.VerifyCall(c); rs[0].Status != Verified {
		b.Fatalf("bench call does not verify: %+v", rs[0].Findings)
	}
	b.ReportAllocs()
	for b.Loop() {
		e.VerifyCall(c)
	}
}

// BenchmarkVerifyCallNoValue: a log without values (presenters only).
func BenchmarkVerifyCallNoValue(b *testing.B) {
	e, c := benchCall(b)
	c.Value = jsonv.Value{}
	b.ReportAllocs()
	for b.Loop() {
		e.VerifyCall(c)
	}
}

// BenchmarkVerifyCallSmall: a two-line read, the common small call.
func BenchmarkVerifyCallSmall(b *testing.B) {
	e, c := benchCallLines(b, 2)
	b.ReportAllocs()
	for b.Loop() {
		e.VerifyCall(c)
	}
}

// benchDiverging is benchCallLines with a recorded meta that has a member
// presentationMeta does not give: every run is a meta-mismatch.
func benchDiverging(b *testing.B, n int) (*Engine, *logformat.Call) {
	e, c := benchCallLines(b, n)
	raw, _ := jsonv.RawText(c.Meta)
	c.Meta = jsonv.Lazy(raw[:len(raw)-1]+`,"extra":"member"}`, true)
	rs := e.VerifyCall(c)
	if rs[0].Status != Diverged || len(rs[0].Findings) != 1 || len(rs[0].Findings[0].DiffLines()) == 0 {
		b.Fatalf("bench call does not diverge with a diff: %+v", rs[0])
	}
	return e, c
}

// BenchmarkVerifyCallDiverging: a diverging call, its finding counted only
// (as a text report does past a cause's first findings) or with its diff
// built (as the json report does for every finding).
func BenchmarkVerifyCallDiverging(b *testing.B) {
	for _, n := range []int{2, 200} {
		e, c := benchDiverging(b, n)
		b.Run(fmt.Sprintf("lines=%d/counted", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e.VerifyCall(c)
			}
		})
		b.Run(fmt.Sprintf("lines=%d/diffed", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rs := e.VerifyCall(c)
				rs[0].Findings[0].DiffLines()
			}
		})
	}
}
