package jsonv

import (
	"fmt"
	"strings"
	"testing"
)

// A read window's text: code lines with tabs, quotes and newlines escaped.
func benchText() []byte {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; b.Len() < 4000; i++ {
		b.WriteString(`\tif err := parse.response(19, \"that at\"); err != nil {\n`)
		b.WriteString(`\t// render this however value, then return it\n`)
	}
	b.WriteByte('"')
	return []byte(b.String())
}

func BenchmarkScanString(b *testing.B) {
	d := benchText()
	b.SetBytes(int64(len(d)))
	for i := 0; i < b.N; i++ {
		if _, _, err := scanString(d, 0, true); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScanStringSlow(b *testing.B) {
	d := benchText()
	b.SetBytes(int64(len(d)))
	for i := 0; i < b.N; i++ {
		if _, _, err := scanStringSlow(d, 0, true); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseString(b *testing.B) {
	d := benchText()
	b.SetBytes(int64(len(d)))
	src := string(d)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p := parser{data: d, src: src, strict: true}
		if _, err := p.string(); err != nil {
			b.Fatal(err)
		}
		p.release()
	}
}

func BenchmarkQuote(b *testing.B) {
	s := MustParse(string(benchText())).Str()
	b.SetBytes(int64(len(s)))
	buf := make([]byte, 0, 8192)
	for i := 0; i < b.N; i++ {
		buf = AppendQuote(buf[:0], s)
	}
}

// A read value: a window of 200 line objects, as the reader parses it.
func benchReadValue() []byte {
	var b strings.Builder
	b.WriteString(`{"path":"/home/dev/project/pkg/then/error_257.go","offset":1,"lines":[`)
	for i := 1; i <= 200; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"number":%d,"text":"\tif err := parse.response(%d, \"that at\"); err != nil {"}`, i, i)
	}
	b.WriteString(`],"totalLines":200}`)
	return []byte(b.String())
}

func BenchmarkParseReadValue(b *testing.B) {
	d := benchReadValue()
	src := string(d)
	b.SetBytes(int64(len(d)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p := parser{data: d, src: src, strict: true}
		if _, err := p.value(0); err != nil {
			b.Fatal(err)
		}
		p.release()
	}
}
