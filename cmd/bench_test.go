package cmd

import (
	"io"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// BenchmarkVerifyExample is the in-process part of `verify` of the example
// log (flags, registry, read, replay, report): what the command adds to the
// process start-up that make bench measures as a whole.
func BenchmarkVerifyExample(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if code := RunWith(&cmdutil.Factory{}, []string{"verify", "../testdata/example/session.jsonl"}, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
