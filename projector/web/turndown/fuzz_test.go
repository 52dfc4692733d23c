package turndown

import (
	"strings"
	"testing"
)

// FuzzConvert: arbitrary HTML converts or fails with an error, never a Go
// panic, and the result is deterministic.
func FuzzConvert(f *testing.F) {
	for _, r := range loadCorpus(f, "testdata/corpus.jsonl") {
		f.Add(r.html)
	}
	f.Add(strings.Repeat("<div>", 2000))
	f.Add(strings.Repeat("<table><tr><td>", 300))
	f.Add(strings.Repeat("<b><p>", 300))
	f.Fuzz(func(t *testing.T, html string) {
		a, errA := Convert(html)
		b, errB := Convert(html)
		if a != b || (errA == nil) != (errB == nil) {
			t.Fatalf("nondeterministic: %q/%v vs %q/%v", a, errA, b, errB)
		}
	})
}

// Hostile nesting ends in bounded work: the parser's open-element bound or
// the depth bound stops it.
func TestHostileNesting(t *testing.T) {
	for _, html := range []string{
		strings.Repeat("<div>", 100000),
		strings.Repeat("<b>", 100000),
		strings.Repeat("<table><tr><td>", 20000),
		strings.Repeat("<svg><foreignObject>", 20000),
		strings.Repeat("<ul><li>", 1000),
	} {
		if _, err := Convert(html); err == nil {
			t.Errorf("%q...: want a failure", html[:20])
		}
	}
	// Misnested formatting does not nest: bounded work, and a result.
	if _, err := Convert(strings.Repeat("<a><p>", 20000)); err != nil {
		t.Errorf("<a><p>: %v", err)
	}
	if md, err := Convert(strings.Repeat("<div>", MaxDepth) + "x"); err != nil || md != "x" {
		t.Errorf("depth %d: %q %v", MaxDepth, md, err)
	}
}

// Wide documents stay linear: sibling positions and row cells are not
// recomputed per node.
func BenchmarkConvertWide(b *testing.B) {
	for _, tc := range []struct{ name, html string }{
		{"row-20000-cells", "<table><tr>" + strings.Repeat("<th>h</th>", 20000) + "</tr><tr><td>x</td></tr></table>"},
		{"ol-20000-items", "<ol>" + strings.Repeat("<li>item</li>", 20000) + "</ol>"},
		{"rows-5000", "<table>" + strings.Repeat("<tr><td>a</td><td>b</td></tr>", 5000) + "</table>"},
		{"inline-nest-500", strings.Repeat("<span> ", 500) + strings.Repeat("word ", 20000)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.html)))
			for i := 0; i < b.N; i++ {
				Convert(tc.html)
			}
		})
	}
}

func BenchmarkConvertPage(b *testing.B) {
	page := strings.Repeat(`<h2>Section</h2><p>Some <em>text</em> with <a href="https://e.com/x">a link</a> and <code>code</code>.</p><ul><li>one</li><li>two <b>bold</b></li></ul><table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table><pre><code class="language-go">func main() {}</code></pre>`, 700)
	b.SetBytes(int64(len(page)))
	for i := 0; i < b.N; i++ {
		if _, err := Convert(page); err != nil {
			b.Fatal(err)
		}
	}
}
