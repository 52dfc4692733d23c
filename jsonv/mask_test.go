package jsonv

import (
	"math/rand/v2"
	"testing"
)

// checkMasks compares the vector masks with the word masks over every
// 32-byte window of b.
func checkMasks(t *testing.T, b []byte) {
	t.Helper()
	for i := 0; i+32 <= len(b); i++ {
		w := b[i : i+32]
		if got, want := uint64(readMask32(&w[0])), readBitsSWAR(w); got != want {
			t.Fatalf("readMask32(%q) = %032b, word masks %032b", w, got, want)
		}
		if got, want := uint64(quoteMask32(&w[0])), quoteBitsSWAR(w); got != want {
			t.Fatalf("quoteMask32(%q) = %032b, word masks %032b", w, got, want)
		}
	}
}

// The AVX2 masks are the word masks (where the vector code is built and
// the processor has it; the purego tag builds the word masks alone).
func TestMasksMatchWords(t *testing.T) {
	if !haveMask32 {
		t.Skip("no vector masks in this build or on this processor")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	alphabet := []byte("a\"\\\x00\x1f\x7f\x80\xff é")
	for range 2000 {
		b := make([]byte, 32+rng.IntN(64))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		checkMasks(t, b)
	}
	all := make([]byte, 256+32)
	for i := range all {
		all[i] = byte(i)
	}
	checkMasks(t, all)
}

func FuzzMasksMatchWords(f *testing.F) {
	f.Add([]byte(`{"a":"b\\"c\u0001","d":[1,2,3],"e":"\u00e9\ud83d\ude00"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if !haveMask32 {
			t.Skip("no vector masks in this build or on this processor")
		}
		checkMasks(t, b)
	})
}
