package cards

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

func TestSanitize(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"\x1b[31mred\x1b[0m", "␛[31mred␛[0m"},
		{"a\tb", "a→  b"},
		{"\tx", "→   x"},
		{"abc\td\t", "abc→d→  "},
		{"日本\tx", "日本→   x"},
		{"line\r", "line␍"},
		{"nul\x00bel\x07del\x7f", "nul␀bel␇del␡"},
		{"csi\u009b2J", "csi<U+009B>2J"},
		{"bidi\u202eevil\u2066x", "bidi<U+202E>evil<U+2066>x"},
		{"bad\xffutf8", "bad\ufffdutf8"},
		{"lone\xed\xa0\x80surrogate", "lone\ufffdsurrogate"},
		{"日本語 👩‍👩‍👧", "日本語 👩‍👩‍👧"},
		{"osc\x1b]0;title\x07", "osc␛]0;title␇"},
	} {
		if got := Sanitize(c.in); got != c.want {
			t.Errorf("Sanitize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWrap(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in    string
		width int
		want  []string
	}{
		{"short", 10, []string{"short"}},
		{"hello world again", 11, []string{"hello world", "again"}},
		{"    indented code that wraps", 14, []string{"    indented", "code that", "wraps"}},
		{"averyveryverylongword", 8, []string{"averyver", "yverylon", "gword"}},
		{"日本語のテキスト", 5, []string{"日本", "語の", "テキ", "スト"}},
		{"👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧", 4, []string{"👩‍👩‍👧👩‍👩‍👧", "👩‍👩‍👧"}},
		{"", 5, []string{""}},
	} {
		got := Wrap(c.in, c.width)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("Wrap(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
		for _, r := range got {
			if Width(r) > c.width {
				t.Errorf("Wrap(%q, %d): row %q is %d wide", c.in, c.width, r, Width(r))
			}
		}
	}
}

func TestUnfence(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, code, lang string }{
		{"```console\nstarted\n```", "started", ""},
		{"```go\nfunc f() {}\n```\n", "func f() {}", "go"},
		{"~~~~ py extra\nx = 1\n~~~~", "x = 1", "py"},
		{"```\na\n```\nmore", "```\na\n```\nmore", ""},
		{"```\nhas ``` inside\n```", "```\nhas ``` inside\n```", ""},
		{"``\nshort fence\n``", "``\nshort fence\n``", ""},
		{"```text\n\n```", "", ""},
		{"no fence", "no fence", ""},
	} {
		code, lang := Unfence(c.in)
		if code != c.code || lang != c.lang {
			t.Errorf("Unfence(%q) = %q, %q; want %q, %q", c.in, code, lang, c.code, c.lang)
		}
	}
}

func TestCompact(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{`"a  \n  b"`, "a b"},
		{`{"content":"ship","status":"pending","n":1,"x":null,"e":""}`, "ship  pending  1  null"},
		{`{"2":"b","1":"a"}`, "a  b"},
		{`{"a":[1]}`, `{"a":[1]}`},
		{`[1,"x"]`, `[1,"x"]`},
		{`1e21`, `1e+21`},
	} {
		if got := compact(jsonv.MustParse(c.in)); got != c.want {
			t.Errorf("compact(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLineDiff(t *testing.T) {
	t.Parallel()
	render := func(ops []Op) string {
		var b strings.Builder
		for _, op := range ops {
			b.WriteByte(op.Kind)
			b.WriteString(op.Text)
			b.WriteByte('|')
		}
		return b.String()
	}
	for _, c := range []struct{ a, b, want string }{
		{"a\nb\nc", "a\nx\nc", " a|-b|+x| c|"},
		{"", "a\nb", "+a|+b|"},
		{"a\nb", "", "-a|-b|"},
		{"a\nb\nc\nd", "a\nc\nd\ne", " a|-b| c| d|+e|"},
		{"same", "same", " same|"},
	} {
		if got := render(LineDiff(SplitLines(c.a), SplitLines(c.b))); got != c.want {
			t.Errorf("LineDiff(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}

func TestCollapseKeepsSummaries(t *testing.T) {
	t.Parallel()
	var lines []Line
	for i := 0; i < 30; i++ {
		lines = append(lines, Line{Text: "x"})
	}
	lines = append(lines, Line{Kind: LineCount, Summary: true, Text: "30 matches (truncated: 30 shown)"})
	got := Options{}.collapse(lines, 5)
	if len(got) != 7 || got[5].Text != "… +25 lines" || !got[6].Summary {
		t.Fatalf("collapse: %+v", got)
	}
	if got := (Options{Full: true}).collapse(lines, 5); len(got) != len(lines) {
		t.Fatalf("--full collapsed")
	}
}

func TestDecodeDefensive(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in      string
		card    string
		unknown bool
	}{
		{`{"card":"terminal"}`, "terminal", false},
		{`{"card":"read","path":"a","offset":1,"lines":[{"number":"1","text":"x"}],"totalLines":1}`, "read", true},
		{`{"card":"search","shape":"tree"}`, "search", true},
		{`{"card":"web","kind":"fetch","url":"u","statusCode":200,"truncated":false,"title":7}`, "web", false},
		{`{"title":"no card"}`, "", true},
		{`"a string"`, "", true},
		{`{"card":"generic","extra":{"k":1},"title":"t"}`, "generic", false},
	} {
		v := DecodeResultView(jsonv.MustParse(c.in))
		_, isUnknown := v.(*Unknown)
		if v.Card() != c.card || isUnknown != c.unknown {
			t.Errorf("DecodeResultView(%s) = %T card %q", c.in, v, v.Card())
		}
		// whatever decodes encodes back to the same JSON
		if got, want := ResultViewJSON(v), jsonv.Stringify(jsonv.MustParse(c.in)); got != want {
			t.Errorf("round trip of %s = %s", c.in, got)
		}
	}
	if DecodeCallView(jsonv.Value{}) != nil || DecodeResultView(jsonv.Value{}) != nil {
		t.Error("undefined must decode to no view")
	}
	if v := DecodeCallView(jsonv.MustParse(`{"card":"diff","title":"t","diffs":[{"path":"p","oldText":null,"newText":"n"}]}`)); CallViewJSON(v) != `{"card":"diff","title":"t","diffs":[{"path":"p","oldText":null,"newText":"n"}]}` {
		t.Errorf("oldText null not kept: %s", CallViewJSON(v))
	}
}

func TestEncodeBuiltViews(t *testing.T) {
	t.Parallel()
	title := "q"
	v := &WebSearch{Title: &title, Sources: []WebSource{{URL: "u"}}}
	if got := ResultViewJSON(v); got != `{"card":"web","kind":"search","title":"q","truncated":false,"sources":[{"url":"u"}]}` {
		t.Errorf("got %s", got)
	}
	g := &GenericCall{Title: "t"}
	if got := CallViewJSON(g); got != `{"card":"generic","title":"t"}` {
		t.Errorf("got %s", got)
	}
}

func FuzzSanitizeWrap(f *testing.F) {
	for _, s := range []string{"hello world", "\x1b[31mx", "日本語 👩‍👩‍👧 a\tb\r", "\xed\xa0\x80", "    indented words here"} {
		f.Add(s, 7)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		// from 2: a one-cell row cannot hold a wide cluster, which must overflow
		width = width%200 + 2
		if width < 2 {
			width = -width + 4
		}
		clean := Sanitize(s)
		if !utf8.ValidString(clean) {
			t.Fatalf("Sanitize(%q) is not valid UTF-8", s)
		}
		for _, r := range clean {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Fatalf("Sanitize(%q) kept control %U", s, r)
			}
		}
		for _, row := range Wrap(clean, width) {
			if w := Width(row); w > width {
				t.Fatalf("Wrap(%q, %d): row %q is %d wide", clean, width, row, w)
			}
		}
		Unfence(s)
		if tr := Truncate(clean, width); Width(tr) > width {
			t.Fatalf("Truncate(%q, %d) = %q", clean, width, tr)
		}
	})
}

// FuzzRender decodes arbitrary views and renders them: no panic, every row
// within the width, no escape code in plain output, and whatever decodes
// encodes back.
func FuzzRender(f *testing.F) {
	f.Add(`{"card":"terminal","title":"ls","description":"d"}`, `{"card":"terminal","output":"a\nb","exitCode":1}`, `[{"type":"text","text":"x"}]`, 40, true)
	f.Add(`{"card":"diff","title":"t","diffs":[{"path":"p","oldText":"a\nb","newText":"a\nc"}]}`, `{"card":"diff","diffs":[{"path":"p","oldText":null,"newText":"x"}]}`, `[]`, 20, false)
	f.Add(`{"card":"generic","title":"g","rawInput":{"a":[1,{"b":"\u001b"}]}}`, `{"card":"search","shape":"matches","files":[{"path":"p","matches":[{"lineNumber":1e21,"line":"\t"}]}],"truncated":true,"total":-1}`, `[{"type":"image"}]`, 80, false)
	f.Add(`{"card":"x"}`, `{"card":"read","path":"p","offset":0,"lines":[{"number":-5,"text":"日本"}],"totalLines":9,"lang":"go"}`, `"not an array"`, 120, true)
	f.Add(`null`, `{"card":"web","kind":"search","sources":[{"url":"u","title":"t"}],"truncated":false,"answer":"a"}`, `[{"type":"text","text":"~~~\nx\n~~~"}]`, 30, false)
	f.Fuzz(func(t *testing.T, call, result, content string, width int, full bool) {
		cv, _ := jsonv.ParseString(call)
		rv, _ := jsonv.ParseString(result)
		ct, _ := jsonv.ParseString(content)
		e := &Entry{Tool: "t", CallID: "c", Location: "f:1", Args: cv, RawArgs: call,
			CallView: DecodeCallView(cv), HasResult: width%3 != 0, Content: ct, IsError: full,
			ResultView: DecodeResultView(rv)}
		e.Subs = []*Entry{{Tool: "s", CallView: DecodeCallView(rv), HasResult: true, Content: ct}}
		if cv.IsObject() && jsonv.Stringify(EncodeCallView(e.CallView)) != jsonv.Stringify(cv) {
			t.Fatalf("call view round trip: %s", jsonv.Stringify(cv))
		}
		if rv.IsObject() && jsonv.Stringify(EncodeResultView(e.ResultView)) != jsonv.Stringify(rv) {
			t.Fatalf("result view round trip: %s", jsonv.Stringify(rv))
		}
		width %= 300
		if width < 0 {
			width = -width
		}
		for _, st := range []Styles{Plain(), colourStyles} {
			o := Options{Width: width, Full: full, Styles: st}
			w := max(width, MinWidth)
			for _, out := range []string{Render(e, o), RenderCompact(e, o), RenderRaw(e, o)} {
				for _, row := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
					if Width(row) > w {
						t.Fatalf("row %q wider than %d", row, w)
					}
					if !st.Color && strings.ContainsRune(row, 0x1b) {
						t.Fatalf("escape in plain output: %q", row)
					}
				}
			}
		}
	})
}

func TestHugeLineCollapses(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("ab\tc日本 ", 200000)
	e := &Entry{Tool: "bash", HasResult: true, Content: jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", jsonv.Str(line+"\nnext"))))}
	out := Render(e, Options{Width: 60, Styles: Plain()})
	rows := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	// header, 3 rows of the huge line, "next", footer
	if len(rows) != 6 || !strings.HasSuffix(rows[3], "…") || rows[4] != "│ next" {
		t.Fatalf("collapsed huge line:\n%s", out)
	}
	if got := Sanitize(strings.Repeat("\t", 100000)); Width(got) != 4*100000 {
		t.Fatalf("tabs: width %d", Width(got))
	}
}
