package jsonv

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// IndexPair is bytes.Index of the pair at every length and position
// around the 32-byte blocks, with near misses (c0 alone, c1 alone, the
// pair split by a block boundary).
func TestIndexPair(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("pl\"xq")
	for n := 0; n < 200; n++ {
		for r := 0; r < 50; r++ {
			b := make([]byte, n)
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
			if got, want := IndexPair(b, 'p', 'l'), bytes.Index(b, []byte("pl")); got != want {
				t.Fatalf("IndexPair(%q) = %d, want %d", b, got, want)
			}
		}
		// A single pair at every position, nothing else matching.
		for at := 0; at+1 < n; at++ {
			b := bytes.Repeat([]byte("l"), n)
			b[at] = 'p'
			if got := IndexPair(b, 'p', 'l'); got != at {
				t.Fatalf("len %d: IndexPair with the pair at %d = %d", n, at, got)
			}
		}
	}
}

func FuzzIndexPair(f *testing.F) {
	f.Add([]byte("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxpl"), byte('p'), byte('l'))
	f.Fuzz(func(t *testing.T, b []byte, c0, c1 byte) {
		if got, want := IndexPair(b, c0, c1), bytes.Index(b, []byte{c0, c1}); got != want {
			t.Fatalf("IndexPair(%q, %q, %q) = %d, want %d", b, c0, c1, got, want)
		}
	})
}
