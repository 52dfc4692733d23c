package web

import (
	"os"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// testdata/hostnames.json holds `new URL(url).hostname` as Node computes it
// (error: true where the constructor throws).
func TestHostnameMatchesNode(t *testing.T) {
	data, err := os.ReadFile("testdata/hostnames.json")
	if err != nil {
		t.Fatal(err)
	}
	table, err := jsonv.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	pass := 0
	for _, row := range table.Elems() {
		url := row.Get("url").Str()
		got, ok := Hostname(url)
		switch {
		case row.Get("error").True():
			if ok {
				t.Errorf("Hostname(%q) = %q, want a parse failure", url, got)
				continue
			}
		case !ok:
			t.Errorf("Hostname(%q) failed, want %q", url, row.Get("hostname").Str())
			continue
		case got != row.Get("hostname").Str():
			t.Errorf("Hostname(%q) = %q, want %q", url, got, row.Get("hostname").Str())
			continue
		}
		pass++
	}
	t.Logf("hostnames: %d/%d match Node", pass, table.Len())
}
