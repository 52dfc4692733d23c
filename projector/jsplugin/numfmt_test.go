package jsplugin

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// TestNumberMethodsAgreeWithNode: toPrecision, toExponential, toFixed and
// toString(radix) in the sandbox write what V8 writes, on random doubles
// of every magnitude and on the carries goja got wrong. The expected text
// comes from Node, so the test skips without it.
func TestNumberMethodsAgreeWithNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH")
	}
	r := rand.New(rand.NewPCG(5, 6))
	var exprs []string
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	xs := []float64{0, -0.0, 9.979050159454346, -9.979050159454346, 0.5, 2.5, 1.005, 0.125, 999.5, 1e21, 123.456, 5e-324, math.MaxFloat64, 0.1, 1.0 / 3}
	for i := 0; i < 1500; i++ {
		xs = append(xs, (r.Float64()*2-1)*math.Pow(10, float64(r.IntN(40)-20)), float64(r.IntN(2000)-1000)/8)
	}
	for _, x := range xs {
		s := "(" + num(x) + ")"
		if x == 0 && math.Signbit(x) {
			s = "(-0)"
		}
		p, f := 1+r.IntN(21), r.IntN(21)
		exprs = append(exprs, s+".toPrecision("+strconv.Itoa(p)+")", s+".toExponential("+strconv.Itoa(f)+")", s+".toExponential()",
			s+".toFixed("+strconv.Itoa(f)+")", s+".toString("+strconv.Itoa(2+r.IntN(35))+")", s+".toString()")
	}
	rt := goja.New()
	rt.Set("__dshUnsupported", func(string) goja.Value { return goja.Undefined() })
	rt.Set("__dshImpure", func(string, string) goja.Value { return goja.Undefined() })
	installNatives(rt)
	for _, js := range []string{hostJS, nodeJS} { // as newVM runs them
		if _, err := rt.RunString(js); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, e := range exprs {
		v, err := rt.RunString(e)
		if err != nil {
			got = append(got, "ERR "+err.Error())
			continue
		}
		got = append(got, v.String())
	}
	in, _ := json.Marshal(exprs)
	cmd := exec.Command(node, "-e", `let s = ""; process.stdin.on("data", (d) => s += d).on("end", () => {
  for (const e of JSON.parse(s)) console.log(String(eval(e)))
})`)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(want) != len(exprs) {
		t.Fatalf("node answered %d of %d", len(want), len(exprs))
	}
	bad := 0
	for i, e := range exprs {
		w := want[i]
		if got[i] != w {
			if bad++; bad <= 15 {
				t.Errorf("%s: sandbox %s, V8 %s", e, got[i], w)
			}
		}
	}
	t.Logf("%d number method calls, %d differ from V8", len(exprs), bad)
}
