package jsplugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// mathCase is one call of a Math function: args as JavaScript source.
type mathCase struct {
	F    string
	A, B string
}

// TestMathAlikeAgreesWithNode: every Math call node.js lets through (see
// alike there) gives in goja exactly what V8 gives, and goja's own answer
// differs from V8's often elsewhere, which is why the rest is reported. The
// expected values come from Node, so the test skips without it.
func TestMathAlikeAgreesWithNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH")
	}
	r := rand.New(rand.NewPCG(1, 2))
	num := func(f float64) string {
		b, _ := json.Marshal(f)
		return string(b)
	}
	edges := []string{"0", "-0", "NaN", "Infinity", "-Infinity"}
	var cases []mathCase
	unary := []string{"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "exp", "log", "log2", "log10", "cbrt"}
	for _, f := range unary {
		for _, e := range edges {
			cases = append(cases, mathCase{F: f, A: e})
		}
	}
	for _, f := range []string{"log", "log10", "log2"} {
		cases = append(cases, mathCase{F: f, A: "1"})
	}
	// log, exp, log10, log2, sin, cos, atan and atan2 are fdlibm's: every
	// argument (sin and cos up to 2^19·π/2).
	for i := 0; i < 1200; i++ {
		for _, x := range []float64{math.Ldexp(r.Float64(), r.IntN(2100)-1074), (r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(24)-12), r.Float64() * 1e6, 1 + (r.Float64()-0.5)*1e-5} {
			for _, f := range []string{"log", "exp", "log10", "log2", "sin", "cos", "tan", "atan", "cbrt", "asin", "acos", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"} {
				cases = append(cases, mathCase{F: f, A: num(x)})
			}
			cases = append(cases, mathCase{F: "atan2", A: num(x), B: num((r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(80)-40))},
				mathCase{F: "atan2", A: num(float64(r.IntN(200) - 100)), B: num(float64(r.IntN(200) - 100))})
		}
	}
	for k := -1074; k <= 1023; k++ {
		cases = append(cases, mathCase{F: "log2", A: num(math.Ldexp(1, k))})
	}
	for i := 0; i < 3000; i++ {
		a, b := float64(r.IntN(40)-20), float64(r.IntN(60))
		cases = append(cases, mathCase{F: "pow", A: num(a), B: num(b)}) // kept only when exact: see below
		cases = append(cases, mathCase{F: "pow", A: num(math.Ldexp(1, r.IntN(40)-20)), B: num(float64(r.IntN(80) - 40))})
		x := (r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(60)-30)
		for _, y := range []string{"0", "1", "0.5", "2", "NaN", "Infinity", "-Infinity"} {
			cases = append(cases, mathCase{F: "pow", A: num(x), B: y})
		}
		cases = append(cases, mathCase{F: "pow", A: "1", B: num(x)}, mathCase{F: "atan2", A: "0", B: num(x)}, mathCase{F: "atan2", A: "-0", B: num(x)})
	}
	for _, a := range edges {
		for _, b := range edges {
			cases = append(cases, mathCase{F: "atan2", A: a, B: b}, mathCase{F: "pow", A: a, B: b})
		}
	}
	// goja: only the cases node.js lets through.
	rt := goja.New()
	rt.Set("__dshUnsupported", func(string) goja.Value { panic(rt.NewGoError(errors.New("unsupported"))) })
	rt.Set("__dshImpure", func(string, string) goja.Value { return goja.Undefined() })
	installNatives(rt)
	for _, js := range []string{hostJS, nodeJS} { // as newVM runs them
		if _, err := rt.RunString(js); err != nil {
			t.Fatal(err)
		}
	}
	// The double itself comes back: goja's own number formatting is not
	// to be trusted (see fromJS).
	eval, err := rt.RunString(`(function (c) { try { return c.B === "" ? Math[c.F](eval(c.A)) : Math[c.F](eval(c.A), eval(c.B)) } catch (e) { return "unsupported" } })`)
	if err != nil {
		t.Fatal(err)
	}
	call, _ := goja.AssertFunction(eval)
	var kept []mathCase
	var got []float64
	for _, c := range cases {
		v, err := call(goja.Undefined(), rt.ToValue(map[string]any{"F": c.F, "A": c.A, "B": c.B}))
		if err != nil {
			t.Fatal(err)
		}
		if v.String() != "unsupported" {
			kept = append(kept, c)
			got = append(got, v.ToFloat())
		}
	}
	in, _ := json.Marshal(kept)
	cmd := exec.Command(node, "-e", `let s = ""; process.stdin.on("data", (d) => s += d).on("end", () => {
  for (const c of JSON.parse(s)) { const r = c.B === "" ? Math[c.F](eval(c.A)) : Math[c.F](eval(c.A), eval(c.B)); console.log(Object.is(r, -0) ? "-0" : String(r)) }
})`)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(want) != len(kept) {
		t.Fatalf("node answered %d of %d", len(want), len(kept))
	}
	bad := 0
	for i, c := range kept {
		w, err := strconv.ParseFloat(strings.TrimPrefix(strings.ReplaceAll(want[i], "Infinity", "Inf"), "+"), 64)
		if err != nil {
			t.Fatalf("node wrote %q", want[i])
		}
		if math.Float64bits(got[i]) != math.Float64bits(w) && !(math.IsNaN(got[i]) && math.IsNaN(w)) {
			if bad++; bad <= 10 {
				t.Errorf("Math.%s(%s, %s): goja %v, V8 %s", c.F, c.A, c.B, got[i], want[i])
			}
		}
	}
	t.Logf("%d Math calls let through, %d reported; %d differ from V8", len(kept), len(cases)-len(kept), bad)
}

// TestFdlibmTables: the tables typed in from fdlibm are the bits its
// comments give.
func TestFdlibmTables(t *testing.T) {
	for _, c := range []struct {
		name string
		got  []float64
		want []uint64
	}{
		{"atanhi", atanHi[:], []uint64{0x3FDDAC670561BB4F, 0x3FE921FB54442D18, 0x3FEF730BD281F69B, 0x3FF921FB54442D18}},
		{"atanlo", atanLo[:], []uint64{0x3C7A2B7F222F65E2, 0x3C81A62633145C07, 0x3C7007887AF0CBBD, 0x3C91A62633145C07}},
		{"T", tanT[:], []uint64{0x3FD5555555555563, 0x3FC111111110FE7A, 0x3FABA1BA1BB341FE, 0x3F9664F48406D637, 0x3F8226E3E96E8493, 0x3F6D6D22C9560328,
			0x3F57DBC8FEE08315, 0x3F4344D8F2F26501, 0x3F3026F71A8D1068, 0x3F147E88A03792A6, 0x3F12B80F32F0A7E9, 0xBEF375CBDB605373, 0x3EFB2A7074BF7AD4}},
		{"asin/acos", []float64{pio2Hi, pio2Lo, pio4Hi, pS0, pS1, pS2, pS3, pS4, pS5, qS1, qS2, qS3, qS4}, []uint64{0x3FF921FB54442D18, 0x3C91A62633145C07,
			0x3FE921FB54442D18, 0x3FC5555555555555, 0xBFD4D61203EB6F7D, 0x3FC9C1550E884455, 0xBFA48228B5688F3B, 0x3F49EFE07501B288, 0x3F023DE10DFDF709,
			0xC0033A271C8A2D4B, 0x40002AE59C598AC8, 0xBFE6066C1B8D0159, 0x3FB3B8C5B12E9282}},
		{"aT", aT[:], []uint64{0x3FD555555555550D, 0xBFC999999998EBC4, 0x3FC24924920083FF, 0xBFBC71C6FE231671, 0x3FB745CDC54C206E,
			0xBFB3B0F2AF749A6D, 0x3FB10D66A0D03D51, 0xBFADDE2D52DEFD9A, 0x3FA97B4B24760DEB, 0xBFA2B4442C6A6C2F, 0x3F90AD3AE322DA11}},
	} {
		for i, w := range c.want {
			if b := math.Float64bits(c.got[i]); b != w {
				t.Errorf("%s[%d] = %#x, want %#x", c.name, i, b, w)
			}
		}
	}
}
