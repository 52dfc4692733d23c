package jsonv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"unicode/utf8"
)

// fromGo converts an encoding/json result into a Value (key order is
// irrelevant to Equal).
func fromGo(x any) Value {
	switch x := x.(type) {
	case nil:
		return NullValue()
	case bool:
		return BoolValue(x)
	case float64:
		return Num(x)
	case string:
		return Str(x)
	case []any:
		out := make([]Value, len(x))
		for i, e := range x {
			out[i] = fromGo(e)
		}
		return Arr(out...)
	case map[string]any:
		var ms []Member
		for k, e := range x {
			ms = append(ms, M(k, fromGo(e)))
		}
		return Obj(ms...)
	}
	panic("unexpected type")
}

// hasNonFinite reports a number that JSON.stringify writes as null (1e400).
func hasNonFinite(v Value) bool {
	switch v.Kind() {
	case Number:
		return !v.IsFiniteNumber() && v.Num() != 0
	case Array:
		for _, e := range v.Elems() {
			if hasNonFinite(e) {
				return true
			}
		}
	case Object:
		for _, m := range v.Members() {
			if hasNonFinite(m.Value) {
				return true
			}
		}
	}
	return false
}

func depth(b []byte) int {
	d, m := 0, 0
	for _, c := range b {
		switch c {
		case '[', '{':
			d++
			m = max(m, d)
		case ']', '}':
			d--
		}
	}
	return m
}

// FuzzParse checks the decoder against encoding/json where both apply, the
// raw scanner against the decoder, and Stringify/Encode round trips.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"b":1,"a":[true,false,null],"10":"x","2":"y"}`, `"\ud800x\udc00\ud83d\ude00"`, `1e21`, `-0`, `1.50`,
		`{"a":1,"a":2}`, `[1,[2,[3,{"x":"\n\t\"\\\/\b\f\r\u0041"}]]]`, `12345678901234567890`, `"é中😀"`,
		` [ ] `, `{}`, `[1,]`, `{"a"}`, `"\x"`, "\"\xff\"", `01`, `1.`, `-`, `nul`, `[` + `"` + "\u2028" + `"]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := Parse(b)
		valid := Valid(b)
		if (err == nil) != valid {
			t.Fatalf("Parse err %v but Valid %v", err, valid)
		}
		if depth(b) < MaxDepth-10 && valid != json.Valid(b) {
			t.Fatalf("Valid %v, encoding/json %v", valid, json.Valid(b))
		}
		serr := ValidStrict(b)
		if serr == nil && (!valid || !utf8.Valid(b)) {
			t.Fatalf("ValidStrict accepted what Valid/utf8 reject")
		}
		if valid && utf8.Valid(b) && serr != nil {
			t.Fatalf("ValidStrict rejected valid UTF-8 JSON: %v", serr)
		}
		if !valid {
			return
		}
		// ParsePrefix agrees with Parse on a complete text.
		pv, n, perr := ParsePrefix(b)
		if perr != nil || !Equal(pv, v) || skipWS(b, n) != len(b) {
			t.Fatalf("ParsePrefix differs")
		}
		// Lazy agrees with Parse.
		if lv := Lazy(string(b), false); Stringify(lv) != Stringify(v) {
			t.Fatalf("Lazy differs")
		}
		// Agreement with encoding/json on values, where JSON texts have no
		// lone surrogates and are valid UTF-8 (it would replace those).
		if utf8.Valid(b) && !bytes.Contains(b, []byte(`\u`)) && depth(b) < MaxDepth-10 {
			var x any
			if err := json.Unmarshal(b, &x); err == nil && !Equal(v, fromGo(x)) {
				t.Fatalf("value differs from encoding/json: %s vs %#v", Stringify(v), x)
			}
		}
		// Round trips.
		s := Stringify(v)
		v2, err := ParseString(s)
		if err != nil {
			t.Fatalf("Stringify output does not parse: %q: %v", s, err)
		}
		if Stringify(v2) != s {
			t.Fatalf("Stringify not stable: %q vs %q", s, Stringify(v2))
		}
		if !hasNonFinite(v) && !Equal(v, v2) {
			t.Fatalf("Parse(Stringify(v)) != v")
		}
		e := Encode(v)
		v3, err := ParseString(e)
		if err != nil || Encode(v3) != e || !Equal(v, v3) {
			t.Fatalf("Encode round trip: %q (%v)", e, err)
		}
	})
}

// FuzzObjectReader checks that walking an object's members with the raw
// reader sees the same members as Parse.
func FuzzObjectReader(f *testing.F) {
	f.Add([]byte(`{"type":"tool/result","seq":1,"data":{"a":[1,2,{"b":"c"}]},"x":null}`))
	f.Add([]byte(`{"a":1,"a":2,"\u0061":3}`))
	f.Add([]byte(`{"a":[1,2,3]} x`))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := Parse(b)
		r := NewObjectReader(b, false)
		var ms []Member
		for r.Next() {
			k := string(r.Key())
			if r.First() == '[' {
				a, ok := r.EnterArray()
				if !ok {
					t.Fatal("EnterArray")
				}
				var es []Value
				for a.Next() {
					es = append(es, a.Parse())
				}
				r.LeaveArray(&a)
				ms = append(ms, M(k, Arr(es...)))
				continue
			}
			ms = append(ms, M(k, Lazy(r.RawValueString(), false)))
		}
		if (r.Err() == nil) != (err == nil && v.IsObject()) {
			t.Fatalf("reader err %v, Parse err %v kind %v", r.Err(), err, v.Kind())
		}
		if err != nil || !v.IsObject() {
			return
		}
		// Duplicate keys: last wins.
		got := map[string]Value{}
		for _, m := range ms {
			got[m.Key] = m.Value
		}
		if len(got) != v.Len() {
			t.Fatalf("%d members, Parse has %d", len(got), v.Len())
		}
		for k, e := range got {
			if !Equal(e, v.Get(k)) {
				t.Fatalf("member %q differs", k)
			}
		}
	})
}

// FuzzSkipValueRef: the scanner agrees with its reference copy (ref_test.go)
// on every input and start offset: the same end, the same error, worded
// and placed the same (they reach users as "unparsable record: ...").
func FuzzSkipValueRef(f *testing.F) {
	for _, s := range []string{
		`{"b":1,"a":[true,false,null],"10":"x","2":"y"}`, `[1,2,30,400,5e3,6.5,-7,0,01,1.,1e,-]`, `{"a" :1 , "b":[ 1 ,2 ] }`,
		`{"a":1,}`, `[1,]`, `{"a"}`, `{"a":}`, `{"a":1 "b":2}`, `[1 2]`, `{"k":"v","n":{"m":[{"x":null}]}}`,
		"{\"a\":\"\xff\"}", `"12345678\"9"`, `"1234567\u00e9"`, `"short"`, `"exactly8"`, `{"seq":12,"time":1785403674786,"data":{}}`,
		`[0,00]`, `[1e5,2E+5,3e-5]`, `[9007199254740993]`, "[\t1,\n2\r]", `{"`, `[`, `[1`, `{"a":1`, `tru`, `nulll`,
	} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, b []byte, at uint8) {
		for _, strict := range []bool{false, true} {
			for _, i := range []int{0, int(at) % (len(b) + 1)} {
				end, err := SkipValue(b, i, strict)
				wantEnd, wantErr := SkipValueRef(b, i, strict)
				if end != wantEnd || fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Fatalf("SkipValue(%q, %d, %v) = %d, %v; reference %d, %v", b, i, strict, end, err, wantEnd, wantErr)
				}
			}
		}
	})
}
