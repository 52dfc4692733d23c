package replay

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// textDiffRef is TextDiff as it was before trimCommon: every line split,
// the common prefix and suffix trimmed line by line. TextDiff must give
// exactly what it gives.
func textDiffRef(recorded, replayed string, limit int) []string {
	mark := strings.HasSuffix(recorded, "\n") != strings.HasSuffix(replayed, "\n")
	a, b := splitLines(recorded, mark), splitLines(replayed, mark)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := diffOps(a[pre:len(a)-suf], b[pre:len(b)-suf])
	var full []diffLine
	for i := max(0, pre-3); i < pre; i++ {
		full = append(full, diffLine{' ', a[i]})
	}
	full = append(full, ops...)
	for i := len(a) - suf; i < len(a) && i < len(a)-suf+3; i++ {
		full = append(full, diffLine{' ', a[i]})
	}
	var collapsed []diffLine
	collapseContext(len(full), func(i int) diffLine { return full[i] }, func(l diffLine) { collapsed = append(collapsed, l) })
	full = collapsed
	var out []string
	for i, l := range full {
		if limit > 0 && len(out) == limit {
			out = append(out, "… "+strconv.Itoa(len(full)-i)+" more lines")
			break
		}
		if l.op == '~' {
			out = append(out, l.text)
			continue
		}
		out = append(out, string(l.op)+" "+showLine(l.text))
	}
	return out
}

// TestTextDiffAsBefore: on many random pairs of texts (few distinct
// lines, so prefixes, suffixes and repeats are common; with and without a
// last newline; empty ones) TextDiff gives what textDiffRef gives.
func TestTextDiffAsBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 5))
	pieces := []string{"a", "b", "a\n", "b\n", "\n", "\r\n", " ", "c\n", "ab\n", "\t"}
	text := func() string {
		var s strings.Builder
		for range rng.IntN(14) {
			s.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return s.String()
	}
	for i := range 200000 {
		a := text()
		var b string
		switch i % 3 {
		case 0:
			b = text()
		case 1: // a small edit of a
			b = a
			if len(b) > 0 {
				k := rng.IntN(len(b))
				b = b[:k] + pieces[rng.IntN(len(pieces))] + b[k+rng.IntN(min(3, len(b)-k)+1):]
			}
		case 2: // shared start and end
			mid := text()
			b = a + mid + a
			a = a + text() + a
		}
		for _, limit := range []int{0, 4} {
			if got, want := TextDiff(a, b, limit), textDiffRef(a, b, limit); !slices.Equal(got, want) {
				t.Fatalf("TextDiff(%q, %q, %d) =\n%q\nbefore:\n%q", a, b, limit, got, want)
			}
		}
	}
}
