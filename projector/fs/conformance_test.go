package fs_test

import (
	"os"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector/fs"
	"github.com/dsh-replay/dsh-replay/projector/projectortest"
)

func TestConformanceExamples(t *testing.T) {
	projectortest.Run(t, "fs-examples.jsonl", fs.Register, "read", "read_image", "write", "edit")
}

func loadLines(t *testing.T, file string) []jsonv.Value {
	t.Helper()
	data, err := os.ReadFile(sharedtest.Dir(t, "conformance", file))
	if err != nil {
		t.Fatal(err)
	}
	var out []jsonv.Value
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		out = append(out, jsonv.MustParse(line))
	}
	return out
}

func TestConformanceDiffHunks(t *testing.T) {
	recs := loadLines(t, "diff-hunks.jsonl")
	pass := 0
	for i, rec := range recs {
		got := fs.ComputeHunkDiffs("p", rec.Get("before").Str(), rec.Get("after").Str())
		want := rec.Get("want")
		if !jsonv.Equal(got, want) || jsonv.Stringify(got) != jsonv.Stringify(want) {
			if t.Failed() && pass+20 < i {
				continue // keep the log short
			}
			t.Errorf("diff-hunks.jsonl:%d: before=%q after=%q\n got %s\nwant %s", i+1, rec.Get("before").Str(), rec.Get("after").Str(), jsonv.Stringify(got), jsonv.Stringify(want))
			continue
		}
		pass++
	}
	t.Logf("conformance diff-hunks.jsonl: %d/%d records reproduced", pass, len(recs))
}

func TestConformanceReadWindow(t *testing.T) {
	recs := loadLines(t, "read-window.jsonl")
	pass := 0
	for i, rec := range recs {
		text := rec.Get("text").Str()
		w := fs.Window{Offset: int(rec.Get("Offset").Num()), Limit: int(rec.Get("Limit").Num()),
			MaxLineLength: int(rec.Get("MaxLen").Num()), MaxBytes: int(rec.Get("MaxBytes").Num())}
		// Chunking must not matter: feed the text in uneven pieces.
		var chunks []string
		for j, n := 0, 1; j < len(text); n = n%7 + 1 {
			k := min(len(text), j+n)
			chunks = append(chunks, text[j:k])
			j = k
		}
		res, err := fs.BuildWindow(chunks, w, "f")
		want := rec.Get("want")
		var fails []string
		lines := wellFormed(res.LinesValue())
		if !jsonv.Equal(lines, want.Get("lines")) {
			fails = append(fails, "lines "+jsonv.Stringify(lines)+" want "+jsonv.Stringify(want.Get("lines")))
		}
		if res.TotalLines != int(want.Get("totalLines").Num()) || res.TruncatedByBytes != want.Get("truncatedByBytes").True() {
			fails = append(fails, "totals")
		}
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if gotErr != want.Get("err").Str() {
			fails = append(fails, "err "+gotErr)
		}
		if err == nil {
			render := jsonv.ToWellFormed(fs.FormatReadOutput("/p", rec.Get("Offset"), res.LinesValue(), jsonv.Int(res.TotalLines),
				len(res.Lines) < w.Limit && endLine(res, w) < res.TotalLines))
			if render != rec.Get("render").Str() {
				fails = append(fails, "render "+render)
			}
		}
		if len(fails) > 0 {
			t.Errorf("read-window.jsonl:%d: %v", i+1, fails)
			continue
		}
		pass++
	}
	t.Logf("conformance read-window.jsonl: %d/%d records reproduced", pass, len(recs))
}

func endLine(r fs.WindowResult, w fs.Window) int {
	if len(r.Lines) > 0 {
		return r.Lines[len(r.Lines)-1].Number
	}
	return max(0, w.Offset-1)
}

func wellFormed(lines jsonv.Value) jsonv.Value {
	out := make([]jsonv.Value, lines.Len())
	for i, l := range lines.Elems() {
		out[i] = l.With("text", jsonv.Str(jsonv.ToWellFormed(l.Get("text").Str())))
	}
	return jsonv.Arr(out...)
}
