package fs_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// A typical read: a 200-line window of a Go file.
func readCall() (args, value jsonv.Value) {
	lines := make([]jsonv.Value, 200)
	for i := range lines {
		lines[i] = jsonv.Obj(jsonv.M("number", jsonv.Int(i+1)), jsonv.M("text", jsonv.Str(fmt.Sprintf("\tfmt.Println(\"line %d of the file\", x, y)", i+1))))
	}
	args = js(`{"file_path":"src/main.go","offset":1,"limit":200}`)
	value = jsonv.Obj(jsonv.M("path", jsonv.Str("/abs/src/main.go")), jsonv.M("offset", jsonv.Int(1)), jsonv.M("lines", jsonv.Arr(lines...)), jsonv.M("totalLines", jsonv.Int(900)))
	return
}

// A typical edit: one changed line in a 500-line file.
func editCall() (args, value jsonv.Value) {
	var b strings.Builder
	for i := 1; i <= 500; i++ {
		fmt.Fprintf(&b, "line %d: some source text here\n", i)
	}
	before := b.String()
	after := strings.Replace(before, "line 250: some", "line 250: CHANGED", 1)
	args = js(`{"file_path":"src/big.txt","old_string":"line 250: some","new_string":"line 250: CHANGED"}`)
	value = jsonv.Obj(jsonv.M("path", jsonv.Str("/abs/src/big.txt")), jsonv.M("before", jsonv.Str(before)), jsonv.M("after", jsonv.Str(after)))
	return
}

func benchProjectors(b *testing.B, name string, args, value jsonv.Value) {
	tl := tool(b, name)
	content, _ := tl.RunRender(args, value)
	meta, _, _ := tl.RunPresentationMeta(args, value)
	result := projector.Result{Content: content, Meta: meta}
	b.Run("render", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := tl.RunRender(args, value); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("presentationMeta", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := tl.RunPresentationMeta(args, value); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("presentCall", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if v, _ := tl.CallView(args); v.IsUndefined() {
				b.Fatal("no view")
			}
		}
	})
	b.Run("presentResult", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if v, _ := tl.ResultView(args, result); v.IsUndefined() {
				b.Fatal("no view")
			}
		}
	})
	b.Run("validateValue", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if vs := tl.ValidateValue(value); len(vs) > 0 {
				b.Fatal(vs)
			}
		}
	})
}

func BenchmarkRead(b *testing.B) {
	args, value := readCall()
	benchProjectors(b, "read", args, value)
}

func BenchmarkEdit(b *testing.B) {
	args, value := editCall()
	benchProjectors(b, "edit", args, value)
}
