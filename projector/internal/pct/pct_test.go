package pct

import "testing"

func TestDecode(t *testing.T) {
	for _, c := range []struct {
		in     string
		strict bool
		out    string
		ok     bool
	}{
		{"a%2Fb%2fc", false, "a/b/c", true},
		{"100%", false, "100%", true},
		{"100%", true, "", false},
		{"%zz%41", false, "%zzA", true},
		{"%zz", true, "", false},
		{"%ff", false, "\xff", true},
		{"%ff", true, "", false},
		{"%C3%A9", true, "é", true},
		{"%4", false, "%4", true},
		{"plain", true, "plain", true},
	} {
		out, ok := Decode(c.in, c.strict)
		if out != c.out || ok != c.ok {
			t.Errorf("Decode(%q, %v) = %q, %v; want %q, %v", c.in, c.strict, out, ok, c.out, c.ok)
		}
	}
	for _, c := range "0123456789abcdefABCDEF" {
		if !IsHex(byte(c)) {
			t.Errorf("IsHex(%q)", c)
		}
	}
	if IsHex('g') || IsHex('/') || Unhex('f') != 15 || Unhex('A') != 10 || Unhex('7') != 7 {
		t.Error("hex digits")
	}
}

func FuzzDecode(f *testing.F) {
	f.Add("a%2Fb%zz%", true)
	f.Fuzz(func(t *testing.T, s string, strict bool) {
		out, ok := Decode(s, strict)
		if !ok && !strict {
			t.Fatal("the lenient decode never fails")
		}
		if ok && len(out) > len(s) {
			t.Fatalf("decoding %q grew it to %q", s, out)
		}
	})
}
