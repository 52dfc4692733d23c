package code

import (
	"bufio"
	"os"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// testdata/renderuri.jsonl holds renderUri outputs computed by upstream's
// TypeScript under Node for adversarial URIs: dot segments, encoded
// separators, drive-letter quirks, UNC hosts, backslashes, non-ASCII.
func TestRenderURIVectors(t *testing.T) {
	f, err := os.Open("testdata/renderuri.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		v := jsonv.MustParse(sc.Text())
		uri, ws, want := v.Get("uri").Str(), v.Get("ws").Str(), v.Get("want").Str()
		if got := renderURI(uri, ws); got != want {
			t.Errorf("renderURI(%q, %q) = %q, want %q", uri, ws, got, want)
		}
		n++
	}
	if n < 300 {
		t.Fatalf("only %d vectors", n)
	}
}

func TestRenderURITable(t *testing.T) {
	for _, c := range []struct{ uri, ws, want string }{
		{"file:///home/u/proj/a.ts", "file:///home/u/proj", "a.ts"},
		{"file:///home/u/proj", "file:///home/u/proj", "."},
		{"file:///home/u/other/b.ts", "file:///home/u/proj", "/home/u/other/b.ts"},
		{"file:///home/u/proj/sub/c%20d.ts", "file:///home/u/proj/", "sub/c d.ts"},
		{"file:///home/u/proj/a%2Fb", "file:///home/u/proj", "file:///home/u/proj/a%2Fb"},
		{"untitled:Untitled-1", "file:///home/u/proj", "untitled:Untitled-1"},
		{"file:///C:/code/proj/src/x.ts", "file:///c:/Code/Proj", "src/x.ts"},
		{"file:///D:/elsewhere/x.ts", "file:///C:/code", "D:/elsewhere/x.ts"},
		{"file://server/share/proj/x.ts", "file://server/share/proj", "x.ts"},
		{"file:///home/u/proj/a.ts", "http://example.com/", "file:///home/u/proj/a.ts"},
		{"file://host/x", "file:///home/u/proj", "file://host/x"},
	} {
		if got := renderURI(c.uri, c.ws); got != c.want {
			t.Errorf("renderURI(%q, %q) = %q, want %q", c.uri, c.ws, got, c.want)
		}
	}
}
