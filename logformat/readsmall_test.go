package logformat

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
)

// readRendered reads path with logs up to limit bytes read whole (0: every
// log streamed) and renders the calls, the summary and the error.
func readRendered(t *testing.T, path string, limit int64, opts Options) string {
	t.Helper()
	saved := smallFileBytes
	smallFileBytes = limit
	defer func() { smallFileBytes = saved }()
	var b strings.Builder
	sum, err := ReadCalls(path, opts, func(c *Call) error {
		b.WriteString(callJSON(c))
		b.WriteByte('\n')
		return nil
	})
	if sum != nil {
		s := *sum
		if s.Header != nil {
			fmt.Fprintf(&b, "header %+v\n", *s.Header)
			s.Header = nil
		}
		fmt.Fprintf(&b, "summary %+v\n", s)
	}
	fmt.Fprintf(&b, "error %v\n", err)
	return b.String()
}

func logsUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !IsSidecar(d.Name()) && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".jsonl.zstd")) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// A log read whole (the small-file path) reads exactly as when streamed:
// the same calls, summary, notices and errors, sidecars and the replacement
// prepass included.
func TestReadWholeMatchesStreaming(t *testing.T) {
	check := func(t *testing.T, logs []string) {
		whole := 0
		for _, p := range logs {
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if st.Size() <= smallFileBytes {
				whole++
			}
			for _, opts := range []Options{{}, {DecodeValues: true}, {NoSidecar: true, NoViewPrepass: true}, {MaxRecordBytes: 512}} {
				if a, b := readRendered(t, p, smallFileBytes, opts), readRendered(t, p, 0, opts); a != b {
					t.Errorf("%s %+v: read whole and streamed differ:\n%s\n---\n%s", p, opts, a, b)
				}
			}
		}
		if whole == 0 {
			t.Fatalf("none of %d logs is small enough to be read whole", len(logs))
		}
		t.Logf("%d logs, %d of them small", len(logs), whole)
	}
	t.Run("testdata", func(t *testing.T) { check(t, logsUnder(t, filepath.Join("..", "testdata"))) })
	t.Run("fixtures", func(t *testing.T) { check(t, logsUnder(t, sharedtest.Dir(t, "fixtures"))) })
}

// FuzzReadWhole: any file reads the same whole and streamed.
func FuzzReadWhole(f *testing.F) {
	addTestdataSeeds(f, ".jsonl")
	f.Add([]byte("{\"type\":\"session\"}\n{\"type\":\"turn/end\"}"))
	f.Add([]byte("{\"type\":\"session\"}"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		opts := Options{MaxRecordBytes: 1 << 10}
		if a, c := readRendered(t, p, smallFileBytes, opts), readRendered(t, p, 0, opts); a != c {
			t.Fatalf("read whole and streamed differ:\n%s\n---\n%s", a, c)
		}
	})
}
