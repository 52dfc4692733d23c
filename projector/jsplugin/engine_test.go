package jsplugin

import (
	"math"
	"testing"

	"github.com/dop251/goja"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// FuzzEngineNumberFormat: goja's String(number) and JSON.stringify are
// JavaScript's Number::toString (jsonv.FormatNumber, checked against
// upstream's conformance vectors) except for some doubles with 17
// significant digits, where goja's fallback writes digits that read back
// as another double (883.5856854275359 as 883.585685427536). Those are
// only ever numbers with a fraction or past 2^53, which is what
// misprints() and host.js's risky flag rely on to catch them.
func FuzzEngineNumberFormat(f *testing.F) {
	for _, x := range []float64{0, 1, -1, 0.1, 1e21, 1e-7, 123456789012345680000, 5e-324, math.MaxFloat64, 1.0 / 3, -0.000001, 4.35, 0.5e-6,
		883.5856854275359, 189.32716233279479, 2.0033284042907879e+21, 1493304552393007872, 9007199254740991, 4503599627370497} {
		f.Add(math.Float64bits(x))
	}
	rt := goja.New()
	fn, err := rt.RunString(`(function (x) { return String(x) + ' ' + JSON.stringify([x]) })`)
	if err != nil {
		f.Fatal(err)
	}
	str, _ := goja.AssertFunction(fn)
	f.Fuzz(func(t *testing.T, bits uint64) {
		x := math.Float64frombits(bits)
		got, err := str(goja.Undefined(), rt.ToValue(x))
		want := jsonv.FormatNumber(x) + " [" + jsonv.Stringify(jsonv.Num(x)) + "]"
		if math.IsNaN(x) || math.IsInf(x, 0) {
			want = jsonv.FormatNumber(x) + " [null]"
		}
		if x == 0 {
			want = "0 [0]"
		}
		if err != nil {
			t.Fatal(err)
		}
		if got.String() == want {
			return
		}
		if ms := misprints(rt, jsonv.Num(x), nil); len(ms) != 1 || ms[0].Right != jsonv.FormatNumber(x) {
			t.Errorf("%v (%#x): goja %q, want %q, and misprints does not catch it", x, bits, got, want)
		}
	})
}

// TestEngineMisprintsAreRare measures how often goja misprints doubles
// with 17 significant digits, and checks misprints() sees every one.
func TestEngineMisprintsAreRare(t *testing.T) {
	rt := goja.New()
	n, wrong := 100000, 0
	for i := 0; i < n; i++ {
		x := float64(i)*7.123456789012345 + 1.0/float64(i+3)
		if w := rt.ToValue(x).String(); w != jsonv.FormatNumber(x) {
			wrong++
			if len(misprints(rt, jsonv.Num(x), nil)) != 1 {
				t.Errorf("%v: goja writes %s and misprints misses it", x, w)
			}
		}
	}
	t.Logf("goja misprints %d of %d doubles", wrong, n)
}

// TestEngineSortIsStable: Array.prototype.sort is stable in V8 (ES2019); a
// projector that sorts records by one key relies on it.
func TestEngineSortIsStable(t *testing.T) {
	rt := goja.New()
	v, err := rt.RunString(`var a = []; for (var i = 0; i < 500; i++) a.push({k: i % 3, i: i});
a.sort(function (x, y) { return x.k - y.k }).every(function (e, j, all) { return j === 0 || all[j-1].k < e.k || all[j-1].i < e.i })`)
	if err != nil || !v.ToBoolean() {
		t.Errorf("sort not stable: %v %v", v, err)
	}
}

// TestEngineRegexpWhitespace: \s and trim use JavaScript's white space set
// (U+FEFF and the Unicode space separators included, U+180E and U+0085 not).
func TestEngineRegexpWhitespace(t *testing.T) {
	rt := goja.New()
	v, err := rt.RunString(`var ws = '\t\n\v\f\r \u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
[/^\s+$/.test(ws), ws.trim() === '', /\s/.test('\u180e'), /\s/.test('\u0085'), ('x' + '\u0085').trim().length,
 'a  b'.split(/\s+/).length, /[\s]/.test('\u3000'), /\S/.test('\ufeff')].join()`)
	if want := "true,true,false,false,2,2,true,false"; err != nil || v.String() != want {
		t.Errorf("goja: %v %v, want %s", v, err, want)
	}
}
