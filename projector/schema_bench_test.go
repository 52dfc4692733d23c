package projector_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// typicalReadValue is a 200-line read window.
func typicalReadValue() jsonv.Value {
	var b strings.Builder
	b.WriteString(`{"path":"/abs/src/main.go","offset":1,"lines":[`)
	for i := 1; i <= 200; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"number":%d,"text":"\tfmt.Println(\"line %d of the file\")"}`, i, i)
	}
	b.WriteString(`],"totalLines":200}`)
	return jsonv.MustParse(b.String())
}

func BenchmarkValidateValueRead(b *testing.B) {
	tool := outputTool(b, readSchema)
	v := typicalReadValue()
	b.ReportAllocs()
	for b.Loop() {
		if vs := tool.ValidateValue(v); len(vs) > 0 {
			b.Fatal(vs)
		}
	}
}

func BenchmarkToAnyRead(b *testing.B) {
	v := typicalReadValue()
	b.ReportAllocs()
	for b.Loop() {
		_ = projector.ToAny(v)
	}
}

func BenchmarkKaptinlinRead(b *testing.B) {
	ks, err := projector.CompileKaptinlin(jsonv.MustParse(readSchema))
	if err != nil {
		b.Fatal(err)
	}
	x := projector.ToAny(typicalReadValue())
	b.ReportAllocs()
	for b.Loop() {
		if !ks.Validate(x).IsValid() {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkUpstreamWalkRead(b *testing.B) {
	tool := outputTool(b, readSchema)
	v := typicalReadValue()
	b.ReportAllocs()
	for b.Loop() {
		_ = projector.UpstreamWalk(tool, v)
	}
}

func BenchmarkValidateArgs(b *testing.B) {
	tool := &projector.Tool{Name: "read", Parameters: projector.ParamSchema(
		projector.Param{Name: "file_path", Type: "string", Required: true},
		projector.Param{Name: "offset", Type: "number"},
		projector.Param{Name: "limit", Type: "number"},
	)}
	args := jsonv.MustParse(`{"file_path":"src/main.go","offset":10,"limit":50}`)
	b.ReportAllocs()
	for b.Loop() {
		_ = tool.ValidateArgs(args)
	}
}

// BenchmarkValidateValueReadWithKaptinlin is the verify --kaptinlin path.
func BenchmarkValidateValueReadWithKaptinlin(b *testing.B) {
	tool := outputTool(b, readSchema)
	v := typicalReadValue()
	b.ReportAllocs()
	for b.Loop() {
		if vs := tool.ValidateValueWithKaptinlin(v); len(vs) > 0 {
			b.Fatal(vs)
		}
	}
}
