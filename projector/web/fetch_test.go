package web

import (
	"bufio"
	"bytes"
	"os"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

func readJSONL(t testing.TB, path string) []jsonv.Value {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []jsonv.Value
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		v, err := jsonv.Parse(sc.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	return out
}

// testdata/depth.jsonl: upstream's exceedsConversionDepth over crafted
// inputs (nesting at the 512 boundary, voids, self-closing tags, comments,
// raw-text bodies, quotes, U+0130 index shifts).
func TestExceedsConversionDepth(t *testing.T) {
	for _, c := range readJSONL(t, "testdata/depth.jsonl") {
		if got, want := ExceedsConversionDepth(c.Get("html").Str()), c.Get("exceeds").True(); got != want {
			t.Errorf("%s: got %v, want %v", c.Get("name").Str(), got, want)
		}
	}
}

// testdata/fetch.jsonl: upstream's computeFetchOutput (text and effective
// truncation) for values and caps around the footer length, UTF-16 cuts
// through surrogate pairs, source cuts and conversion fallbacks.
func TestRenderFetchOutput(t *testing.T) {
	cases := readJSONL(t, "testdata/fetch.jsonl")
	for _, c := range cases {
		got, err := RenderFetchOutput(c.Get("value"), int(c.Get("max").Num()))
		name := c.Get("name").Str()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if want := c.Get("text").Str(); got.Text != want {
			t.Errorf("%s: text\n got %q\nwant %q", name, got.Text, want)
		}
		if want := c.Get("truncated").True(); got.Truncated != want {
			t.Errorf("%s: truncated %v, want %v", name, got.Truncated, want)
		}
	}
	t.Logf("fetch render: %d cases", len(cases))
}
