package jsonv

import (
	"math"
	"testing"
)

func TestFormatNumber(t *testing.T) {
	cases := []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-1.5, "-1.5"}, {0.5, "0.5"},
		{1e21, "1e+21"}, {1e20, "100000000000000000000"}, {1e-7, "1e-7"}, {1.5e-7, "1.5e-7"},
		{0.000001, "0.000001"}, {123456789012345680000, "123456789012345680000"},
		{5e-324, "5e-324"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
		{9007199254740993, "9007199254740992"}, {0.30000000000000004, "0.30000000000000004"},
		{math.Inf(1), "Infinity"}, {math.NaN(), "NaN"}, {123.456, "123.456"}, {1e300, "1e+300"},
	}
	for _, c := range cases {
		if got := FormatNumber(c.f); got != c.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}

func TestParseStringifyRoundTrip(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"b":1,"a":[true,false,null],"10":"x","2":"y"}`, `{"2":"y","10":"x","b":1,"a":[true,false,null]}`},
		{`"\ud800x\udc00\ud83d\ude00"`, `"\ud800x\udc00😀"`},
		{`"<&>\u2028\u0001\/"`, "\"<&>\u2028\\u0001/\""},
		{`1e21`, `1e+21`},
		{`{"a":1,"a":2,"b":3}`, `{"a":2,"b":3}`},
		{` [ 1.0 , -0 , 12345678901234567890 ] `, `[1,0,12345678901234567000]`},
	}
	for _, c := range cases {
		v, err := ParseString(c.in)
		if err != nil {
			t.Fatalf("Parse(%s): %v", c.in, err)
		}
		if got := Stringify(v); got != c.want {
			t.Errorf("Stringify(Parse(%s)) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestEncodeKeepsLexemes(t *testing.T) {
	in := `{"10":1.50,"a":1e400,"b":-0}`
	v := MustParse(in)
	if got := Encode(v); got != in {
		t.Errorf("Encode = %s, want %s", got, in)
	}
}

func TestStringifyIndent(t *testing.T) {
	v := MustParse(`{"a":[1,{"b":[]}],"c":{}}`)
	want := "{\n  \"a\": [\n    1,\n    {\n      \"b\": []\n    }\n  ],\n  \"c\": {}\n}"
	if got := StringifyIndent(v, "  "); got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

// TestAppendStringifyIndent: appending gives StringifyIndent after what
// the buffer held, for each kind, undefined (nothing) and no indent.
func TestAppendStringifyIndent(t *testing.T) {
	for _, tc := range []struct {
		v      Value
		indent string
	}{
		{MustParse(`{"a":[1,{"b":[]}],"c":{},"2":"x\ny"}`), "  "},
		{MustParse(`{"a":[1,{"b":[]}]}`), ""},
		{MustParse(`[1.5e300,-0,null,true]`), "\t"},
		{Lazy(`{"lazy":[1,2,"three"]}`, true), "  "},
		{Str("s"), "  "},
		{Value{}, "  "},
	} {
		if got, want := string(AppendStringifyIndent([]byte("before"), tc.v, tc.indent)), "before"+StringifyIndent(tc.v, tc.indent); got != want {
			t.Errorf("AppendStringifyIndent(%s, %q) = %q, want %q", Stringify(tc.v), tc.indent, got, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{``, `{`, `[1,]`, `{"a" 1}`, `"\x01"`, `01`, `1.`, `tru`, `"\u12"`, `{} x`} {
		if _, err := ParseString(in); err == nil {
			t.Errorf("Parse(%q) succeeded, want error", in)
		}
	}
	deep := make([]byte, 0, 2*(MaxDepth+10))
	for i := 0; i < MaxDepth+5; i++ {
		deep = append(deep, '[')
	}
	if _, err := Parse(deep); err == nil {
		t.Error("deep nesting accepted")
	}
}

func TestUTF16(t *testing.T) {
	s := "a😀b"
	if Len16(s) != 4 {
		t.Errorf("Len16 = %d", Len16(s))
	}
	cut := Slice16(s, 0, 2)
	if Len16(cut) != 2 || !HasLoneSurrogate(cut) || Quote(cut) != `"a\ud83d"` {
		t.Errorf("Slice16 cut = %q (%s)", cut, Quote(cut))
	}
	if ToWellFormed(cut) != "a\uFFFD" {
		t.Errorf("ToWellFormed = %q", ToWellFormed(cut))
	}
	if TrimJS("\ufeff\u00a0 x \u2028") != "x" || TrimJS("\u0085x") != "\u0085x" {
		t.Error("TrimJS")
	}
}

func TestEqual(t *testing.T) {
	a := MustParse(`{"a":1,"b":[1.0,"x"],"c":null}`)
	b := MustParse(`{"c":null,"b":[1,"x"],"a":1e0}`)
	if !Equal(a, b) {
		t.Error("want equal")
	}
	if Equal(a, MustParse(`{"a":1,"b":[1,"x"]}`)) {
		t.Error("null vs absent must differ")
	}
}

func TestToString(t *testing.T) {
	cases := []struct{ in, want string }{
		{`null`, "null"}, {`true`, "true"}, {`1e21`, "1e+21"}, {`-0`, "0"}, {`"x"`, "x"},
		{`[1,null,"a",[2,3]]`, "1,,a,2,3"}, {`{}`, "[object Object]"}, {`[]`, ""},
	}
	for _, c := range cases {
		if got := ToString(MustParse(c.in)); got != c.want {
			t.Errorf("ToString(%s) = %q, want %q", c.in, got, c.want)
		}
	}
	if ToString(Value{}) != "undefined" {
		t.Error("undefined")
	}
}
