package cards

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/muesli/termenv"

	"github.com/dsh-replay/dsh-replay/internal/goldenfile"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// loadEntries reads testdata/entries.jsonl: hand-written calls with explicit
// views, so the goldens depend on the renderer alone.
func loadEntries(t *testing.T) ([]string, []*Entry) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "entries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	var out []*Entry
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		v, err := jsonv.Parse(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, v.Get("name").Str())
		out = append(out, entryFromTest(v))
	}
	return names, out
}

func entryFromTest(v jsonv.Value) *Entry {
	e := &Entry{
		Tool:          v.Get("tool").Str(),
		CallID:        v.Get("callId").Str(),
		Location:      v.Get("location").Str(),
		RawArgs:       v.Get("args").Str(),
		CallView:      DecodeCallView(v.Get("callView")),
		CallFailure:   v.Get("callFailure").Str(),
		HasResult:     !v.Get("noResult").True(),
		Content:       v.Get("content"),
		IsError:       v.Get("isError").True(),
		ErrorName:     v.Path("error", "name").Str(),
		ErrorCode:     v.Path("error", "code").Str(),
		Synthetic:     v.Get("synthetic").Str(),
		ResultView:    DecodeResultView(v.Get("resultView")),
		ResultFailure: v.Get("resultFailure").Str(),
	}
	if a, err := jsonv.ParseString(e.RawArgs); err == nil {
		e.Args = a
	}
	if !e.HasResult {
		e.Content = jsonv.Value{}
	}
	for _, s := range v.Get("subs").Elems() {
		e.Subs = append(e.Subs, entryFromTest(s))
	}
	return e
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", "golden", name), got)
}

// visible makes escape codes readable in a golden file.
func visible(s string) string { return strings.ReplaceAll(s, "\x1b", "␛") }

func TestCardGoldens(t *testing.T) {
	t.Parallel()
	names, entries := loadEntries(t)
	type variant struct {
		mode   string // card, full, compact, raw
		width  int
		colour bool
	}
	var variants []variant
	for _, w := range []int{40, 80, 120} {
		for _, c := range []bool{false, true} {
			variants = append(variants, variant{"card", w, c})
		}
	}
	variants = append(variants, variant{"full", 80, false}, variant{"full", 80, true},
		variant{"compact", 80, false}, variant{"compact", 80, true}, variant{"raw", 80, false})
	for _, v := range variants {
		colour := "plain"
		st := Plain()
		if v.colour {
			colour = "color"
			st = NewStyles(termenv.ANSI)
		}
		file := fmt.Sprintf("%s-w%d-%s.txt", v.mode, v.width, colour)
		t.Run(file, func(t *testing.T) {
			var b strings.Builder
			o := Options{Width: v.width, Full: v.mode == "full", Styles: st}
			for i, e := range entries {
				fmt.Fprintf(&b, "=== %s\n", names[i])
				switch v.mode {
				case "compact":
					b.WriteString(RenderCompact(e, o))
				case "raw":
					b.WriteString(RenderRaw(e, o))
				default:
					b.WriteString(Render(e, o))
				}
			}
			out := b.String()
			checkRows(t, out, v.width)
			checkGolden(t, file, visible(out))
		})
	}
}

// checkRows asserts every row fits the width and every escape sequence in
// the output is one of the styles' SGR sequences.
func checkRows(t *testing.T, out string, width int) {
	t.Helper()
	for _, row := range strings.Split(out, "\n") {
		if strings.HasPrefix(row, "=== ") {
			continue
		}
		if w := Width(row); w > width {
			t.Errorf("row is %d cells wide, more than %d: %q", w, width, row)
		}
		for i := 0; i < len(row); i++ {
			if row[i] != 0x1b {
				continue
			}
			j := i + 1
			if j >= len(row) || row[j] != '[' {
				t.Errorf("escape that is not a CSI in %q", row)
				break
			}
			for j++; j < len(row) && (row[j] >= '0' && row[j] <= '9' || row[j] == ';'); j++ {
			}
			if j >= len(row) || row[j] != 'm' {
				t.Errorf("escape that is not an SGR in %q", row)
				break
			}
		}
		for _, r := range row {
			if r < 0x20 && r != 0x1b || r == 0x7f || r >= 0x80 && r < 0xa0 {
				t.Errorf("control character %U in %q", r, row)
			}
		}
	}
}

var colourStyles = NewStyles(termenv.ANSI)

// TestWriteBodyIsGoldens: WriteBody streams the bodies Goldens returns,
// for each golden log of the repository (plain and chained zstd), read a
// byte at a time.
func TestWriteBodyIsGoldens(t *testing.T) {
	logs, _ := filepath.Glob(filepath.Join("..", "testdata", "golden", "*", "*.jsonl*"))
	n := 0
	for _, l := range logs {
		if strings.HasSuffix(l, ".values.jsonl") {
			continue
		}
		n++
		t.Run(l, func(t *testing.T) { checkWriteBody(t, l) })
	}
	if n == 0 {
		t.Fatal("no golden log found")
	}
}

func checkWriteBody(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := projector.NewRegistry(projector.Config{}) // no ports: generic cards
	if err != nil {
		t.Fatal(err)
	}
	text, js, err := Goldens(reg, path, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []*Golden{text, js} {
		var b bytes.Buffer
		if err := WriteBody(reg, filepath.Base(path), iotest.OneByteReader(bytes.NewReader(data)), want.Kind, &b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), want.Body) {
			t.Errorf("%s: WriteBody\n%s\nGoldens\n%s", want.Kind, b.Bytes(), want.Body)
		}
		if len(want.Body) == 0 {
			t.Errorf("%s: empty body", want.Kind)
		}
	}
}

// TestLFWriter: the streamed lfOnly, whatever the writes' boundaries.
func TestLFWriter(t *testing.T) {
	for _, in := range []string{"", "plain", "a\rb", "\r\r\n", "end\r", "\rstart", "日本\r語"} {
		want := string(lfOnly([]byte(in)))
		for _, size := range []int{1, 2, 3, 64} {
			var b bytes.Buffer
			w := lfWriter{&b}
			for rest := in; len(rest) > 0; {
				k := min(size, len(rest))
				if n, err := w.Write([]byte(rest[:k])); n != k || err != nil {
					t.Fatalf("%q: Write = %d, %v", in, n, err)
				}
				rest = rest[k:]
			}
			if b.String() != want {
				t.Errorf("%q in writes of %d: %q, want %q", in, size, b.String(), want)
			}
		}
	}
}
