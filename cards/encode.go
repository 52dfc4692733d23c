package cards

import "github.com/dsh-replay/dsh-replay/jsonv"

// fields collects the members of a view in canonical (upstream interface)
// order; build then emits them in the decoded key order when there is one.
type fields struct{ ms []jsonv.Member }

func (f *fields) add(k string, v jsonv.Value) {
	if v.IsDefined() {
		f.ms = append(f.ms, jsonv.M(k, v))
	}
}

func (f *fields) str(k string, s *string) {
	if s != nil {
		f.add(k, jsonv.Str(*s))
	}
}

func (f *fields) num(k string, n *float64) {
	if n != nil {
		f.add(k, jsonv.Num(*n))
	}
}

// build orders the members: first the keys in the decoded order (known fields
// and preserved extras alike), then any field the decoded view did not have.
func (f *fields) build(s shape) jsonv.Value {
	if len(s.order) == 0 && len(s.extra) == 0 {
		return jsonv.Obj(f.ms...)
	}
	byKey := map[string]jsonv.Value{}
	for _, m := range f.ms {
		byKey[m.Key] = m.Value
	}
	for _, m := range s.extra {
		if _, known := byKey[m.Key]; !known {
			byKey[m.Key] = m.Value
		}
	}
	out := make([]jsonv.Member, 0, len(byKey))
	done := map[string]bool{}
	for _, k := range s.order {
		if v, ok := byKey[k]; ok && !done[k] {
			out = append(out, jsonv.M(k, v))
			done[k] = true
		}
	}
	for _, m := range f.ms {
		if !done[m.Key] {
			out = append(out, m)
			done[m.Key] = true
		}
	}
	return jsonv.Obj(out...)
}

func encodeDiffs(ds []FileDiff) jsonv.Value {
	out := make([]jsonv.Value, 0, len(ds))
	for _, d := range ds {
		old := jsonv.NullValue()
		if d.OldText != nil {
			old = jsonv.Str(*d.OldText)
		}
		out = append(out, jsonv.Obj(jsonv.M("path", jsonv.Str(d.Path)), jsonv.M("oldText", old), jsonv.M("newText", jsonv.Str(d.NewText))))
	}
	return jsonv.Arr(out...)
}

func encodeLocations(ls []FileLocation) jsonv.Value {
	if ls == nil {
		return jsonv.Value{}
	}
	out := make([]jsonv.Value, 0, len(ls))
	for _, l := range ls {
		ms := []jsonv.Member{jsonv.M("path", jsonv.Str(l.Path))}
		if l.Line != nil {
			ms = append(ms, jsonv.M("line", jsonv.Num(*l.Line)))
		}
		out = append(out, jsonv.Obj(ms...))
	}
	return jsonv.Arr(out...)
}

// EncodeCallView is the JSON upstream's presenter returns for v (the
// undefined Value for nil): field names and order as upstream, absent
// optional fields omitted, oldText null kept.
func EncodeCallView(v CallView) jsonv.Value {
	f := &fields{}
	switch v := v.(type) {
	case nil:
		return jsonv.Value{}
	case *Unknown:
		return v.Raw
	case *GenericCall:
		f.add("card", jsonv.Str(CardGeneric))
		f.add("title", jsonv.Str(v.Title))
		f.str("kind", v.Kind)
		f.add("rawInput", v.RawInput)
		f.add("content", v.Content)
		f.add("locations", encodeLocations(v.Locations))
		return f.build(v.shape)
	case *TerminalCall:
		f.add("card", jsonv.Str(CardTerminal))
		f.add("title", jsonv.Str(v.Title))
		f.str("description", v.Description)
		f.str("cwd", v.Cwd)
		return f.build(v.shape)
	case *DiffCall:
		f.add("card", jsonv.Str(CardDiff))
		f.add("title", jsonv.Str(v.Title))
		f.add("diffs", encodeDiffs(v.Diffs))
		f.add("locations", encodeLocations(v.Locations))
		return f.build(v.shape)
	}
	return jsonv.Value{}
}

// EncodeResultView is EncodeCallView for result views.
func EncodeResultView(v ResultView) jsonv.Value {
	f := &fields{}
	switch v := v.(type) {
	case nil:
		return jsonv.Value{}
	case *Unknown:
		return v.Raw
	case *GenericResult:
		f.add("card", jsonv.Str(CardGeneric))
		f.str("title", v.Title)
		f.add("content", v.Content)
		return f.build(v.shape)
	case *TerminalResult:
		f.add("card", jsonv.Str(CardTerminal))
		f.str("title", v.Title)
		f.str("output", v.Output)
		f.num("exitCode", v.ExitCode)
		f.str("signal", v.Signal)
		return f.build(v.shape)
	case *DiffResult:
		f.add("card", jsonv.Str(CardDiff))
		f.str("title", v.Title)
		f.add("diffs", encodeDiffs(v.Diffs))
		return f.build(v.shape)
	case *SearchMatches:
		f.add("card", jsonv.Str(CardSearch))
		f.add("shape", jsonv.Str("matches"))
		f.str("title", v.Title)
		files := make([]jsonv.Value, 0, len(v.Files))
		for _, fm := range v.Files {
			ms := make([]jsonv.Value, 0, len(fm.Matches))
			for _, m := range fm.Matches {
				ms = append(ms, jsonv.Obj(jsonv.M("lineNumber", jsonv.Num(m.LineNumber)), jsonv.M("line", jsonv.Str(m.Line))))
			}
			files = append(files, jsonv.Obj(jsonv.M("path", jsonv.Str(fm.Path)), jsonv.M("matches", jsonv.Arr(ms...))))
		}
		f.add("files", jsonv.Arr(files...))
		f.add("truncated", jsonv.BoolValue(v.Truncated))
		f.add("total", jsonv.Num(v.Total))
		return f.build(v.shape)
	case *SearchPaths:
		f.add("card", jsonv.Str(CardSearch))
		f.add("shape", jsonv.Str("paths"))
		f.str("title", v.Title)
		f.add("paths", jsonv.Strs(v.Paths...))
		f.add("truncated", jsonv.BoolValue(v.Truncated))
		f.add("total", jsonv.Num(v.Total))
		return f.build(v.shape)
	case *ReadResult:
		f.add("card", jsonv.Str(CardRead))
		f.str("title", v.Title)
		f.add("path", jsonv.Str(v.Path))
		f.add("offset", jsonv.Num(v.Offset))
		lines := make([]jsonv.Value, 0, len(v.Lines))
		for _, l := range v.Lines {
			lines = append(lines, jsonv.Obj(jsonv.M("number", jsonv.Num(l.Number)), jsonv.M("text", jsonv.Str(l.Text))))
		}
		f.add("lines", jsonv.Arr(lines...))
		f.add("totalLines", jsonv.Num(v.TotalLines))
		f.str("lang", v.Lang)
		f.add("content", v.Content)
		return f.build(v.shape)
	case *WebSearch:
		f.add("card", jsonv.Str(CardWeb))
		f.add("kind", jsonv.Str("search"))
		f.str("title", v.Title)
		f.str("answer", v.Answer)
		srcs := make([]jsonv.Value, 0, len(v.Sources))
		for _, s := range v.Sources {
			sf := &fields{}
			sf.add("url", jsonv.Str(s.URL))
			sf.str("title", s.Title)
			sf.str("snippet", s.Snippet)
			sf.str("publishedAt", s.PublishedAt)
			srcs = append(srcs, jsonv.Obj(sf.ms...))
		}
		f.add("truncated", jsonv.BoolValue(v.Truncated))
		f.add("sources", jsonv.Arr(srcs...))
		return f.build(v.shape)
	case *WebFetch:
		f.add("card", jsonv.Str(CardWeb))
		f.add("kind", jsonv.Str("fetch"))
		f.str("title", v.Title)
		f.add("url", jsonv.Str(v.URL))
		f.add("statusCode", jsonv.Num(v.StatusCode))
		f.add("truncated", jsonv.BoolValue(v.Truncated))
		return f.build(v.shape)
	}
	return jsonv.Value{}
}

// MarshalJSON-style helpers: the JSON.stringify text of a view.

// CallViewJSON is JSON.stringify of the call view ("" for nil).
func CallViewJSON(v CallView) string {
	e := EncodeCallView(v)
	if e.IsUndefined() {
		return ""
	}
	return jsonv.Stringify(e)
}

// ResultViewJSON is JSON.stringify of the result view ("" for nil).
func ResultViewJSON(v ResultView) string {
	e := EncodeResultView(v)
	if e.IsUndefined() {
		return ""
	}
	return jsonv.Stringify(e)
}
