package jsonv

import (
	"bytes"
	"strings"
	"testing"
	"unsafe"
)

// bigDoc wraps body, repeated past n bytes, as the string member of an
// object with small members around it (a sidecar entry's shape).
func bigDoc(body string, n int) []byte {
	rep := strings.Repeat(body, n/len(body)+1)
	return []byte(`{"callId":"c-1","value":{"kind":"foreground","stdout":{"text":"` + rep + `","truncated":false},"n":1.50}}`)
}

// TestParseOwnedMatchesParse: a big string decoded in place, into a buffer
// of its own or through the restart path reads exactly as Parse reads it,
// and fails where Parse fails.
func TestParseOwnedMatchesParse(t *testing.T) {
	tests := []struct {
		name, body string
		wantErr    bool
	}{
		{"plain", "abc def ", false},
		{"escapes", `line\n\t\"q\" \\ \/ \b\f\r `, false},
		{"unicode escapes", `\u00e9\u4e2d\ud83d\ude00 `, false},
		{"raw non-ASCII", "é中😀 ", false},
		{"lone surrogate", `x\ud800y`, false},
		{"invalid UTF-8", "a\xffb\\n", false},
		{"control character", "a\x01\\n", true},
		{"bad escape", `a\qb`, true},
		{"bad unicode escape", `a\u12zz`, true},
	}
	for _, tc := range tests {
		for _, n := range []int{bigString + 10, bigInput + 10} {
			doc := bigDoc(tc.body, n)
			want, werr := Parse(doc)
			got, gerr := ParseOwned(bytes.Clone(doc))
			if (werr != nil) != tc.wantErr || (gerr != nil) != tc.wantErr {
				t.Fatalf("%s/%d: errors Parse %v, ParseOwned %v; want error %v", tc.name, n, werr, gerr, tc.wantErr)
			}
			if tc.wantErr {
				continue
			}
			if !Equal(want, got) || Stringify(want) != Stringify(got) {
				t.Errorf("%s/%d: ParseOwned differs from Parse", tc.name, n)
			}
		}
	}
}

// within reports whether s's bytes lie inside b.
func within(s string, b []byte) bool {
	if len(s) == 0 {
		return false
	}
	p, base := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return p >= base && p < base+uintptr(len(b))
}

// TestOwnedSharing: in a big input given up to ParseOwned, a string that is
// most of it takes over its memory (decoded in place when it has escapes),
// and small strings are copied so that they do not keep it alive.
func TestOwnedSharing(t *testing.T) {
	tests := []struct {
		name, body, prefix string
		shared             bool
	}{
		{"no escapes", "z", "zzzz", true},
		{"escapes", `x\ty`, "x\tyx\ty", true},
	}
	for _, tc := range tests {
		in := bigDoc(tc.body, bigInput+10)
		v, err := ParseOwned(in)
		if err != nil {
			t.Fatal(err)
		}
		text := v.Get("value").Get("stdout").Get("text").Str()
		if !strings.HasPrefix(text, tc.prefix) {
			t.Errorf("%s: text starts %q", tc.name, text[:8])
		}
		if within(text, in) != tc.shared {
			t.Errorf("%s: text shares the input: %v, want %v", tc.name, !tc.shared, tc.shared)
		}
		if small := v.Get("value").Get("kind").Str(); small != "foreground" || within(small, in) {
			t.Errorf("%s: small string %q shares the input", tc.name, small)
		}
	}
}

func FuzzParseOwned(f *testing.F) {
	for _, s := range []string{"ab", `\n\"`, `\u00e9\ud800`, "\xff", "é", `\ud83d\ude00`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if body == "" {
			return
		}
		doc := bigDoc(body, bigString+10)
		want, werr := Parse(doc)
		got, gerr := ParseOwned(bytes.Clone(doc))
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("errors differ: Parse %v, ParseOwned %v", werr, gerr)
		}
		if werr == nil && Stringify(want) != Stringify(got) {
			t.Fatalf("ParseOwned differs from Parse for %q", body)
		}
	})
}
