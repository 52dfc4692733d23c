package replay

import (
	"runtime"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// TestLongerIsABound: longer never claims a value longer than its text.
func TestLongerIsABound(t *testing.T) {
	for _, src := range []string{
		`"abc"`, `""`, `[]`, `{}`, `[1,"a",null,true]`, `{"a":"b","c":[{"d":"é\ud800"}]}`,
		`{"k":"v","u":{"x":"yy"}}`, `[["a"],{"b":{}}]`,
	} {
		v := jsonv.MustParse(src)
		n := len(jsonv.Stringify(v))
		for limit := 0; limit <= n+2; limit++ {
			if longer(v, limit) && n <= limit {
				t.Errorf("longer(%s, %d) with a %d-byte text", src, limit, n)
			}
		}
	}
	// Undefined members are not written, so they do not count.
	v := jsonv.Obj(jsonv.M("a", jsonv.Value{}), jsonv.M("b", jsonv.Str("x")))
	if n := len(jsonv.Stringify(v)); longer(v, n) {
		t.Errorf("longer counts an undefined member: %s", jsonv.Stringify(v))
	}
}

// TestSameTextHugeReplay: a short recorded text (a spill preview) against a
// replayed value of many MB is told apart without stringifying the value.
func TestSameTextHugeReplay(t *testing.T) {
	rec := jsonv.Lazy(`[{"type":"text","text":"`+strings.Repeat("p", 100)+`"}]`, true)
	big := jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", jsonv.Str(strings.Repeat("x", 8<<20)))))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	same := SameText(rec, big)
	runtime.ReadMemStats(&after)
	if same {
		t.Fatal("SameText of different values")
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("SameText allocated %d bytes", got)
	}
}

// TestSameIgnoringSpace agrees with joining the strings.FieldsFunc fields.
func TestSameIgnoringSpace(t *testing.T) {
	join := func(s string) string { return strings.Join(strings.FieldsFunc(s, jsonv.IsJSSpace), "") }
	texts := []string{
		"", " ", "a", "a b", "ab", " ab ", "a\tb\n", "a\u2028b", "a\u00a0b", "a\ufeffb", "ab\r\n",
		"\xe2\x80 \xa8", "\xe2\x80\xa8", "\xed\xa0\x80x", "\xed\xa0 \x80x", "é", "e\u0301", "a b c", "abc ",
	}
	for _, a := range texts {
		for _, b := range texts {
			if got, want := sameIgnoringSpace(a, b), join(a) == join(b); got != want {
				t.Errorf("sameIgnoringSpace(%q, %q) = %v, want %v", a, b, got, want)
			}
		}
	}
}
