package cards

import (
	"strconv"
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Kind says how a body line is drawn.
type Kind uint8

const (
	LinePlain   Kind = iota
	LineDim          // secondary detail: description, cwd, context, raw input
	LineNote         // something about the card itself: fallback reason, presenter failure
	LinePath         // a file path heading
	LineOutput       // tool output text
	LineAdded        // "+ " diff line
	LineRemoved      // "- " diff line
	LineContext      // "  " diff context line
	LineGap          // "⋯" between hunks or changes
	LineFailure      // a failure status (exit code, signal, HTTP error)
	LineError        // the text of an error result
	LineCount        // a count or caption
	LineCommand      // "$ command" continuation of a multi-line command
)

// Line is one logical body line. Text is raw log text: it is sanitized and
// wrapped when drawn. Gutter (line numbers) is drawn dim before it, and
// wrapped rows are indented by the gutter's width.
type Line struct {
	Kind    Kind
	Gutter  string
	Text    string
	Summary bool // a count, caption or status: never collapsed away
}

func textLines(text string, kind Kind) []Line {
	var out []Line
	for _, l := range SplitLines(text) {
		out = append(out, Line{Kind: kind, Text: l})
	}
	return out
}

// trimBlank drops blank lines at either end (code and descriptions often
// start or end with a newline; the card's rail already separates them).
func trimBlank(lines []Line) []Line {
	for len(lines) > 0 && jsonv.TrimJS(lines[0].Text) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && jsonv.TrimJS(lines[len(lines)-1].Text) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func numStr(f float64) string { return jsonv.FormatNumber(f) }

func plural(n float64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// blockLines is the text of content blocks: text blocks as lines (a block that
// is one fenced code block unwrapped), other blocks as a one-line note.
func blockLines(content jsonv.Value, kind Kind) []Line {
	var out []Line
	for _, b := range content.Elems() {
		switch t := b.Get("type"); {
		case t.IsString() && t.Str() == "text":
			text := b.Get("text")
			if !text.IsString() {
				continue
			}
			body, lang := Unfence(text.Str())
			if lang != "" {
				out = append(out, Line{Kind: LineDim, Text: "(" + lang + ")"})
			}
			out = append(out, textLines(body, kind)...)
		case t.IsString() && t.Str() == "image":
			out = append(out, Line{Kind: LineNote, Text: imageLabel(b)})
		default:
			out = append(out, Line{Kind: LineNote, Text: "[" + jsonv.Short(t, 40) + " block]"})
		}
	}
	return out
}

// imageLabel describes an image block in one line: "[image name
// media/type W×H, N bytes]", with whatever the block records (inline
// mimeType/mediaType, or an attachment reference).
func imageLabel(b jsonv.Value) string {
	parts := []string{"image"}
	att := b.Get("attachment")
	if n := att.Get("name"); n.IsString() && n.Str() != "" {
		parts = append(parts, n.Str())
	}
	for _, m := range []jsonv.Value{b.Get("mimeType"), b.Get("mediaType"), att.Get("mediaType")} {
		if m.IsString() && m.Str() != "" {
			parts = append(parts, m.Str())
			break
		}
	}
	w, h := att.Get("width"), att.Get("height")
	if w.IsNumber() && h.IsNumber() {
		parts = append(parts, numStr(w.Num())+"×"+numStr(h.Num()))
	}
	if n := att.Get("bytes"); n.IsNumber() {
		parts[len(parts)-1] += ","
		parts = append(parts, numStr(n.Num())+plural(n.Num(), " byte", " bytes"))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// Unfence returns the code of a markdown block that is exactly one fenced code
// block, with its language hint ("" for none or text/plaintext/console/output);
// any other text comes back unchanged. It is upstream's
// /^(`{3,}|~{3,})([^\n`]*)\n([\s\S]*?)\n?\1[ \t]*\n?$/ with the rule that the
// code must not contain the fence.
func Unfence(text string) (code, lang string) {
	if len(text) < 3 || (text[0] != '`' && text[0] != '~') {
		return text, ""
	}
	c := text[0]
	n := 0
	for n < len(text) && text[n] == c {
		n++
	}
	if n < 3 {
		return text, ""
	}
	fence := text[:n]
	nl := strings.IndexByte(text[n:], '\n')
	if nl < 0 {
		return text, ""
	}
	info := text[n : n+nl]
	if strings.ContainsRune(info, '`') {
		return text, ""
	}
	rest := text[n+nl+1:]
	for k := 0; k <= len(rest); k++ { // lazy: the shortest body whose remainder closes the fence
		if closes(rest[k:], fence) {
			code = rest[:k]
			if strings.Contains(code, fence) {
				return text, ""
			}
			lang = firstWord(jsonv.TrimJS(info))
			switch lang {
			case "text", "plaintext", "console", "output":
				lang = ""
			}
			return code, lang
		}
	}
	return text, ""
}

// closes reports whether s matches \n?FENCE[ \t]*\n?$ (with JS $: end of input).
func closes(s, fence string) bool {
	s = strings.TrimPrefix(s, "\n")
	if !strings.HasPrefix(s, fence) {
		return false
	}
	s = strings.TrimLeft(s[len(fence):], " \t")
	return s == "" || s == "\n"
}

func firstWord(s string) string {
	for i, r := range s {
		if jsonv.IsJSSpace(r) {
			return s[:i]
		}
	}
	return s
}

// rawInputLines draws a generic view's rawInput: a string the title already
// contains is left out; an array is one compact item per line; an object is
// `key: value` per line; anything else one compact line.
func rawInputLines(raw jsonv.Value, title string) []Line {
	switch {
	case raw.IsUndefined():
		return nil
	case raw.IsString():
		if strings.Contains(title, jsonv.TrimJS(raw.Str())) {
			return nil
		}
		return trimBlank(textLines(raw.Str(), LineDim))
	case raw.IsArray():
		var out []Line
		for _, e := range raw.Elems() {
			out = append(out, Line{Kind: LineDim, Text: compact(e)})
		}
		return out
	case raw.IsObject():
		var out []Line
		for _, m := range jsonv.JSOrder(raw.Members()) {
			out = append(out, Line{Kind: LineDim, Text: m.Key + ": " + compact(m.Value)})
		}
		return out
	}
	return []Line{{Kind: LineDim, Text: compact(raw)}}
}

// compact is a value on one line: a string as itself, a record of plain
// values as its non-empty values two spaces apart, anything else as JSON;
// whitespace around newlines collapses to one space.
func compact(v jsonv.Value) string {
	var text string
	switch {
	case v.IsString():
		text = v.Str()
	case v.IsObject() && plainRecord(v):
		var parts []string
		for _, m := range jsonv.JSOrder(v.Members()) {
			if s := jsString(m.Value); s != "" {
				parts = append(parts, s)
			}
		}
		text = strings.Join(parts, "  ")
	default:
		text = jsonv.Stringify(v)
	}
	return collapseNewlines(text)
}

func plainRecord(v jsonv.Value) bool {
	for _, m := range v.Members() {
		switch m.Value.Kind() {
		case jsonv.Null, jsonv.String, jsonv.Number, jsonv.Bool:
		default:
			return false
		}
	}
	return true
}

// jsString is String(v) for a plain value.
func jsString(v jsonv.Value) string {
	switch v.Kind() {
	case jsonv.Null:
		return "null"
	case jsonv.Bool:
		return strconv.FormatBool(v.Bool())
	case jsonv.Number:
		return numStr(v.Num())
	case jsonv.String:
		return v.Str()
	}
	return jsonv.Stringify(v)
}

// collapseNewlines is s.replace(/\s*\n\s*/g, ' ').
func collapseNewlines(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); {
		if !jsonv.IsJSSpace(rs[i]) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		j := i
		for j < len(rs) && jsonv.IsJSSpace(rs[j]) {
			j++
		}
		run := string(rs[i:j])
		if k := strings.IndexByte(run, '\n'); k >= 0 {
			// \s*\n\s* takes the spaces before the first newline of the run and
			// everything after it, newlines included: one space.
			b.WriteByte(' ')
		} else {
			b.WriteString(run)
		}
		i = j
	}
	return b.String()
}

// diffLines draws file diffs: a path line per file, hunks separated by ⋯,
// creates as all additions. Collapsed cards show only the changed lines (⋯
// between changes); full cards add the context lines. The footer counts
// added and removed lines over every hunk.
func diffLines(diffs []FileDiff, withContext bool) []Line {
	var out []Line
	added, removed := 0, 0
	files := map[string]bool{}
	prev := ""
	for i, d := range diffs {
		files[d.Path] = true
		if i == 0 || d.Path != prev {
			out = append(out, Line{Kind: LinePath, Text: d.Path})
		} else {
			out = append(out, Line{Kind: LineGap, Text: "⋯"})
		}
		prev = d.Path
		after := SplitLines(d.NewText)
		if d.OldText == nil {
			for _, l := range after {
				out = append(out, Line{Kind: LineAdded, Text: "+ " + l})
			}
			added += len(after)
			continue
		}
		ops := LineDiff(SplitLines(*d.OldText), after)
		changed := false // a change already drawn in this hunk
		apart := false   // unchanged lines since that change
		for _, op := range ops {
			switch op.Kind {
			case ' ':
				if withContext {
					out = append(out, Line{Kind: LineContext, Text: "  " + op.Text})
				} else if changed {
					apart = true
				}
				continue
			case '-':
				removed++
			case '+':
				added++
			}
			if apart {
				out = append(out, Line{Kind: LineGap, Text: "⋯"})
				apart = false
			}
			changed = true
			if op.Kind == '-' {
				out = append(out, Line{Kind: LineRemoved, Text: "- " + op.Text})
			} else {
				out = append(out, Line{Kind: LineAdded, Text: "+ " + op.Text})
			}
		}
		if !changed && !withContext {
			out = append(out, Line{Kind: LineDim, Text: "(no changed lines)"})
		}
	}
	out = append(out, Line{Kind: LineCount, Summary: true,
		Text: "+" + strconv.Itoa(added) + " −" + strconv.Itoa(removed) + " · " + strconv.Itoa(len(files)) + plural(float64(len(files)), " file", " files")})
	return out
}

func readLines(v *ReadResult) []Line {
	var out []Line
	head := v.Path
	if v.Lang != nil && *v.Lang != "" {
		head += " · " + *v.Lang
	}
	out = append(out, Line{Kind: LinePath, Text: head})
	last := v.Offset
	if n := len(v.Lines); n > 0 {
		last = v.Lines[n-1].Number
	}
	width := len(numStr(last))
	for _, l := range v.Lines {
		out = append(out, Line{Kind: LinePlain, Gutter: padStart(numStr(l.Number), width) + "  ", Text: l.Text})
	}
	if len(v.Lines) == 0 {
		out = append(out, Line{Kind: LineDim, Text: "(no lines)"})
	}
	// Only a window says which window it is; a whole file needs no caption.
	if float64(len(v.Lines)) < v.TotalLines {
		out = append(out, Line{Kind: LineCount, Summary: true,
			Text: numStr(v.Offset) + "–" + numStr(last) + "/" + numStr(v.TotalLines) + " lines"})
	}
	return out
}

func padStart(s string, width int) string {
	if len(s) >= width {
		return s
	}
	return strings.Repeat(" ", width-len(s)) + s
}

// countLine never lets a capped result read as complete: it says how many
// were found and that only some are listed.
func countLine(total float64, shown int, one, many string, truncated bool) Line {
	text := numStr(total) + " " + plural(total, one, many)
	if truncated {
		text += " (truncated: " + strconv.Itoa(shown) + " shown)"
	}
	return Line{Kind: LineCount, Summary: true, Text: text}
}

func searchMatchLines(v *SearchMatches) []Line {
	var out []Line
	max := 0.0
	shown := 0
	for _, f := range v.Files {
		for _, m := range f.Matches {
			if m.LineNumber > max {
				max = m.LineNumber
			}
			shown++
		}
	}
	width := len(numStr(max))
	for _, f := range v.Files {
		out = append(out, Line{Kind: LinePath, Text: f.Path})
		for _, m := range f.Matches {
			out = append(out, Line{Kind: LinePlain, Gutter: "  " + padStart(numStr(m.LineNumber), width) + "  ", Text: m.Line})
		}
	}
	return append(out, countLine(v.Total, shown, "match", "matches", v.Truncated))
}

func searchPathLines(v *SearchPaths) []Line {
	var out []Line
	for _, p := range v.Paths {
		out = append(out, Line{Kind: LinePlain, Text: p})
	}
	return append(out, countLine(v.Total, len(v.Paths), "path", "paths", v.Truncated))
}

func webFetchLines(v *WebFetch, callTitle string) []Line {
	status := Line{Kind: LineCount, Summary: true, Text: numStr(v.StatusCode)}
	if v.StatusCode >= 400 || v.StatusCode < 100 {
		status.Kind = LineFailure
	}
	if v.Truncated {
		status.Text += " (truncated)"
	}
	out := []Line{status}
	// The final URL; a redirect makes it differ from the requested one.
	url := Line{Kind: LineDim, Text: v.URL}
	if v.URL != callTitle {
		url.Text = "→ " + v.URL + " (redirected)"
	}
	return append(out, url)
}

func webSearchLines(v *WebSearch) []Line {
	var out []Line
	if v.Answer != nil {
		out = append(out, textLines(*v.Answer, LinePlain)...)
	}
	for _, s := range v.Sources {
		text := s.URL
		if s.Title != nil && *s.Title != "" {
			text += "  " + *s.Title
		}
		out = append(out, Line{Kind: LineDim, Text: text})
	}
	n := float64(len(v.Sources))
	text := numStr(n) + " " + plural(n, "source", "sources")
	if v.Truncated {
		text += " (truncated)"
	}
	return append(out, Line{Kind: LineCount, Summary: true, Text: text})
}
