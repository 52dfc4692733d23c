package replay

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Same takes the byte-equality fast path on undecoded recorded text and
// falls back to structural equality otherwise.
func TestSameLazy(t *testing.T) {
	replayed := jsonv.MustParse(`[{"type":"text","text":"a\u2028<b>"},{"n":1e21}]`)
	cases := []struct {
		raw  string
		want bool
	}{
		{`[{"type":"text","text":"a` + "\u2028" + `<b>"},{"n":1e+21}]`, true},                // JSON.stringify bytes
		{`[ {"text":"a\u2028\u003cb>","type":"text"}, {"n":1000000000000000000000} ]`, true}, // same value, other bytes
		{`[{"type":"text","text":"a` + "\u2028" + `<b> "},{"n":1e+21}]`, false},
		{`[{"type":"text","text":"a` + "\u2028" + `<b>"}]`, false},
	}
	for _, c := range cases {
		rec := jsonv.Lazy(c.raw, true)
		if got := Same(rec, replayed); got != c.want {
			t.Errorf("Same(%s) = %v, want %v", c.raw, got, c.want)
		}
	}
}
