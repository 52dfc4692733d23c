package fs

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// splitLines is create.ts:633-644, the step StructuredPatch skips: lines keep their \n, the last one
// possibly without.
func splitLines(text string) []string {
	parts := strings.Split(text, "\n")
	for i := range parts {
		parts[i] += "\n"
	}
	if strings.HasSuffix(text, "\n") {
		return parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	parts[len(parts)-1] = last[:len(last)-1]
	return parts
}

// Any run of consecutive line tokens, joined and split as upstream does,
// comes back as the same tokens.
func TestSplitLinesIsTokens(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	pieces := []string{"a", "line", "\n", "\r\n", "\r", " ", "\n\n", "é"}
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for k := r.Intn(12); k > 0; k-- {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		toks := tokenizeLines(b.String())
		if len(toks) == 0 {
			continue
		}
		i := r.Intn(len(toks))
		j := i + 1 + r.Intn(len(toks)-i)
		run := toks[i:j]
		if got := splitLines(strings.Join(run, "")); !slices.Equal(got, run) {
			t.Fatalf("tokens %q: split of the join is %q", run, got)
		}
	}
}
