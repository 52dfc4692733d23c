package logformat_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/gctune"
	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// BenchmarkReadCallsFixtures decodes every plain fixture log held in memory,
// as verify does (values decoded, no sidecar): the per-byte cost of the many
// small logs of a tree, without the walk and the reads.
func BenchmarkReadCallsFixtures(b *testing.B) {
	root := sharedtest.Dir(b, "fixtures")
	var paths []string
	var datas [][]byte
	total := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			paths, datas = append(paths, p), append(datas, data)
			total += len(data)
		}
		return nil
	})
	if len(datas) < 100 {
		b.Fatalf("only %d fixture logs", len(datas))
	}
	defer gctune.Apply()()
	b.SetBytes(int64(total))
	b.ReportAllocs()
	opts := logformat.Options{NoSidecar: true, DecodeValues: true, Jobs: 1}
	for i := 0; i < b.N; i++ {
		calls := 0
		for j, data := range datas {
			logformat.ReadCallsBytes(paths[j], data, opts, func(*logformat.Call) error { calls++; return nil })
		}
		if calls == 0 {
			b.Fatal("no calls")
		}
	}
}

// BenchmarkValidFixtureLines is the floor under BenchmarkReadCallsFixtures:
// strict validation of every line, nothing decoded.
func BenchmarkValidFixtureLines(b *testing.B) {
	root := sharedtest.Dir(b, "fixtures")
	var lines [][]byte
	total := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			data, _ := os.ReadFile(p)
			for _, l := range bytes.Split(data, []byte("\n")) {
				if jsonv.ValidStrict(l) == nil {
					lines = append(lines, l)
					total += len(l) + 1
				}
			}
		}
		return nil
	})
	if len(lines) < 1000 {
		b.Fatalf("only %d fixture lines", len(lines))
	}
	b.SetBytes(int64(total))
	for i := 0; i < b.N; i++ {
		for _, l := range lines {
			jsonv.ValidStrict(l)
		}
	}
}
