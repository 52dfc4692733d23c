package jsonv

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand"
	"testing"
)

func naiveSpecial(c byte) bool   { return c == '"' || c == '\\' || c < 0x20 || c >= 0x80 }
func naiveQuoteByte(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c == 0xED }

// Every byte value in every lane, next to every other byte value: the word
// masks are exact per byte (no borrow leaks into a neighbour).
func TestWordMasksExact(t *testing.T) {
	for a := 0; a < 256; a++ {
		for b := 0; b < 256; b++ {
			for lane := 0; lane < 7; lane++ {
				var w [8]byte
				for k := range w {
					w[k] = 'x'
				}
				w[lane], w[lane+1] = byte(a), byte(b)
				x := binary.LittleEndian.Uint64(w[:])
				s, q := special8(x), quote8(x)
				for k := 0; k < 8; k++ {
					if got := s>>(8*k+7)&1 == 1; got != naiveSpecial(w[k]) {
						t.Fatalf("special8 % x lane %d: got %v", w, k, got)
					}
					if got := q>>(8*k+7)&1 == 1; got != naiveQuoteByte(w[k]) {
						t.Fatalf("quote8 % x lane %d: got %v", w, k, got)
					}
				}
			}
		}
	}
}

func TestMovemask(t *testing.T) {
	for bitsIn := 0; bitsIn < 256; bitsIn++ {
		var m uint64
		for k := 0; k < 8; k++ {
			if bitsIn>>k&1 == 1 {
				m |= 0x80 << (8 * k)
			}
		}
		if got := movemask(m); got != uint64(bitsIn) {
			t.Fatalf("movemask(%#x) = %#x, want %#x", m, got, bitsIn)
		}
	}
}

func TestBlockBits(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	alphabet := []byte{'a', ' ', '"', '\\', 0x1f, 0x00, 0x7f, 0x80, 0xED, 0xff, 'n', 'u'}
	for n := 0; n < 5000; n++ {
		d := make([]byte, r.Intn(80))
		for k := range d {
			d[k] = alphabet[r.Intn(len(alphabet))]
		}
		if len(d) >= blockSize {
			if readBits(d) != readBitsSWAR(d) || quoteBits(d) != quoteBitsSWAR(d) {
				t.Fatalf("vector and word masks differ on % x", d[:blockSize])
			}
		}
		for i := 0; i < len(d); i++ {
			m, q := readBitsAt(d, i), quoteBitsAt(string(d), i)
			for k := 0; k < blockSize; k++ {
				inRange := i+k < len(d)
				if got, want := m>>k&1 == 1, inRange && naiveSpecial(d[i+k]); got != want {
					t.Fatalf("readBitsAt(% x, %d) bit %d = %v", d, i, k, got)
				}
				if got, want := q>>k&1 == 1, inRange && naiveQuoteByte(d[i+k]); got != want {
					t.Fatalf("quoteBitsAt(% x, %d) bit %d = %v", d, i, k, got)
				}
			}
		}
	}
}

// scanString (block) and scanStringSlow (run by run) agree on every input:
// end, escaped and the exact error.
func checkScanAgrees(t *testing.T, d []byte) {
	t.Helper()
	for _, strict := range []bool{false, true} {
		e1, x1, err1 := scanString(d, 0, strict)
		e2, x2, err2 := scanStringSlow(d, 0, strict)
		if e1 != e2 || (err1 == nil) != (err2 == nil) || (err1 == nil && x1 != x2) ||
			(err1 != nil && err1.Error() != err2.Error()) {
			t.Fatalf("strict=%v %q: block (%d %v %v), slow (%d %v %v)", strict, d, e1, x1, err1, e2, x2, err2)
		}
	}
}

func TestScanStringMatchesSlow(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for n := 0; n < 50000; n++ {
		checkScanAgrees(t, randomLiteral(r))
	}
}

// Every kind of special byte at every place of the first two words (the
// short strings' fast path) and past them, with the input cut anywhere:
// the scan agrees with the run-by-run one.
func TestScanStringShortWords(t *testing.T) {
	specials := [][]byte{
		[]byte(`"`), []byte(`\"`), []byte(`\n`), []byte(`\u0041`), []byte(`\x`), // escapes, one invalid
		{0x01}, {0x1f}, []byte("é"), {0xff}, {0xed, 0xa0, 0x80}, // control, UTF-8, invalid UTF-8
	}
	for n := 0; n <= 20; n++ {
		for _, sp := range specials {
			for tail := 0; tail <= 12; tail++ {
				d := []byte{'"'}
				d = append(d, bytes.Repeat([]byte("a"), n)...)
				d = append(d, sp...)
				d = append(d, bytes.Repeat([]byte("b"), tail)...)
				d = append(d, '"', ',', '"')
				for cut := 1; cut <= len(d); cut++ {
					checkScanAgrees(t, d[:cut])
				}
			}
		}
	}
}

func checkParseAgrees(t *testing.T, d []byte) {
	t.Helper()
	for _, strict := range []bool{false, true} {
		p1 := parser{data: d, src: string(d), strict: strict}
		s1, err1 := p1.string()
		p1.release()
		p2 := parser{data: d, src: string(d), strict: strict}
		s2, err2 := p2.stringSlow()
		if s1 != s2 || p1.pos != p2.pos || (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) {
			t.Fatalf("strict=%v %q: block (%q %d %v), slow (%q %d %v)", strict, d, s1, p1.pos, err1, s2, p2.pos, err2)
		}
	}
}

func randomLiteral(r *rand.Rand) []byte {
	pieces := []string{"a", "abcdefgh", "0123456789abcdefghijklmnopqrstuvwxyz", " ", `\"`, `\\`, `\/`, `\n`, `\t`, `\b`, `\u00e9`, `\u0000`,
		`\ud83d`, `\ude00`, `\ud83d\ude00`, `\uD83D\uDE00`, `\x`, `\u12`, "\x01", "é", "\xed\xa0\x80", "\xff", "\xe2\x82", "€", `"`}
	b := []byte{'"'}
	for k := r.Intn(40); k > 0; k-- {
		p := pieces[r.Intn(len(pieces))]
		if p == `"` && r.Intn(4) != 0 {
			continue
		}
		b = append(b, p...)
	}
	if r.Intn(5) != 0 {
		b = append(b, '"')
	}
	return append(b, []byte(",\"k\":1}")[:r.Intn(8)]...)
}

func TestParseStringMatchesSlow(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for n := 0; n < 30000; n++ {
		d := randomLiteral(r)
		checkParseAgrees(t, d)
		checkScanAgrees(t, d)
	}
}

func FuzzStringBlock(f *testing.F) {
	r := rand.New(rand.NewSource(4))
	for n := 0; n < 50; n++ {
		f.Add(randomLiteral(r))
	}
	f.Fuzz(func(t *testing.T, d []byte) {
		if len(d) == 0 || d[0] != '"' {
			d = append([]byte{'"'}, d...)
		}
		checkParseAgrees(t, d)
		checkScanAgrees(t, d)
	})
}

// AppendQuote (block) and appendQuoteShort (run by run) write the same bytes.
func TestAppendQuoteMatchesShort(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	pieces := []string{"a", "abcdefgh", "0123456789abcdefghijklmnopqrstuvwxyz", "\"", "\\", "\n", "\t", "\x00", "\x1f", "\x7f",
		"é", "€", "\xed\x9f\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xed", "\xff", "😀"}
	for n := 0; n < 30000; n++ {
		var s []byte
		for k := r.Intn(60); k > 0; k-- {
			s = append(s, pieces[r.Intn(len(pieces))]...)
		}
		got, want := string(AppendQuote([]byte("x"), string(s))), string(appendQuoteShort([]byte("x"), string(s)))
		if got != want {
			t.Fatalf("%q: block %q, short %q", s, got, want)
		}
	}
}

func TestAppendNumberIsFormatNumber(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 42, 1 << 53, 1<<53 - 1, -(1<<53 - 1), -(1 << 53), 1e21, 1e300, 0.5, -2.5e-7,
		math.NaN(), math.Inf(1), math.Inf(-1), 123456789.125} {
		if got, want := string(AppendNumber([]byte("x"), f)), "x"+FormatNumber(f); got != want {
			t.Errorf("AppendNumber(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestStringifyLenCounts(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	pieces := []string{"a", "0123456789abcdefghijklmnopqrstuvwxyz", "\"", "\\", "\n", "\t", "\x00", "\x1f", "\x7f", "é", "\xed\x9f\xbf", "\xed\xa0\x80", "\xed", "\xff", "😀"}
	for n := 0; n < 20000; n++ {
		var s []byte
		for k := r.Intn(40); k > 0; k-- {
			s = append(s, pieces[r.Intn(len(pieces))]...)
		}
		v := Arr(Str(string(s)), Obj(M(string(s), Num(float64(n)/7)), M("u", Value{})), NullValue(), BoolValue(n%2 == 0), Value{}, Obj())
		if got, want := StringifyLen(v), len(Stringify(v)); got != want {
			t.Fatalf("StringifyLen(%s) = %d, want %d", Stringify(v), got, want)
		}
	}
	if StringifyLen(Value{}) != 0 {
		t.Fatal("undefined has length 0")
	}
}

// SkipValue's scalar shortcut ends and fails exactly where the container
// walk does.
func TestSkipValueScalarsMatchWalk(t *testing.T) {
	r := rand.New(rand.NewSource(10))
	nums := []string{"0", "-0", "12", "-", "1.", "1.5e", "1e+9", "01", "-x", "3.25", " 7", "\t\"a\"", "  "}
	for n := 0; n < 20000; n++ {
		var d []byte
		if r.Intn(2) == 0 {
			d = randomLiteral(r)
		} else {
			d = append([]byte(nums[r.Intn(len(nums))]), []byte(",]} x")[:r.Intn(5)]...)
		}
		for _, strict := range []bool{false, true} {
			e1, err1 := SkipValue(d, 0, strict)
			e2, err2 := skipValue(d, skipWS(d, 0), strict)
			if e1 != e2 || (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) {
				t.Fatalf("%q strict=%v: shortcut (%d %v), walk (%d %v)", d, strict, e1, err1, e2, err2)
			}
		}
	}
}
