package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/jsonv"
)

// A diverging call whose tool the log's request header declares with other
// parameters than the port's says so; the same divergence under a header
// that matches does not; a header that differs never fails a clean log.
func TestDeclaredDefinitionHint(t *testing.T) {
	t.Parallel()
	src := "../testdata/recorded/dsh/bash"
	data, err := os.ReadFile(filepath.Join(src, "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	values, err := os.ReadFile(filepath.Join(src, "session.values.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	// driftHeaders gives bash a parameter the port lacks and drops workdir.
	driftHeaders := func(ls []string) {
		for i, l := range ls {
			if !strings.Contains(l, `"request/header"`) {
				continue
			}
			v := jsonv.MustParse(l)
			var tools []jsonv.Value
			for _, tl := range v.Get("data").Get("header").Get("tools").Elems() {
				if tl.Get("name").Str() == "bash" {
					var props []jsonv.Member
					for _, p := range tl.Get("parameters").Get("properties").Members() {
						if p.Key != "workdir" {
							props = append(props, p)
						}
					}
					props = append(props, jsonv.M("stopAfter", jsonv.MustParse(`{"type":"integer"}`)))
					tl = jsonv.MustParse(strings.Replace(jsonv.Stringify(tl), jsonv.Stringify(tl.Get("parameters").Get("properties")), jsonv.Stringify(jsonv.Obj(props...)), 1))
				}
				tools = append(tools, tl)
			}
			ls[i] = strings.Replace(l, jsonv.Stringify(v.Get("data").Get("header").Get("tools")), jsonv.Stringify(jsonv.Arr(tools...)), 1)
		}
	}
	// diverge changes the first bash result's text.
	diverge := func(ls []string) {
		for i, l := range ls {
			if strings.Contains(l, `"tool/result"`) && strings.Contains(l, `"text":"`) {
				ls[i] = strings.Replace(l, `"text":"`, `"text":"changed `, 1)
				return
			}
		}
	}
	run := func(name string, edits ...func([]string)) (string, int) {
		ls := append([]string(nil), lines...)
		for _, e := range edits {
			e(ls)
		}
		dir := filepath.Join(t.TempDir(), name)
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "session.jsonl"), []byte(strings.Join(ls, "\n")), 0o644)
		os.WriteFile(filepath.Join(dir, "session.values.jsonl"), values, 0o644)
		out, errs, code := cli(t, nil, "verify", "--strict", dir)
		return out + errs, code
	}
	const hint = "declares bash with other parameters than dsh-replay's definition: +stopAfter, -workdir"
	if out, code := run("clean-drift", driftHeaders); code != cmdutil.ExitOK || strings.Contains(out, "declares bash") {
		t.Errorf("a clean log whose header differs: exit %d\n%s", code, out)
	}
	out, code := run("diverged-drift", driftHeaders, diverge)
	if code != cmdutil.ExitDivergence || !strings.Contains(out, hint) {
		t.Errorf("a divergence under a differing header: exit %d, no hint %q\n%s", code, hint, out)
	}
	if out, code := run("diverged", diverge); code != cmdutil.ExitDivergence || strings.Contains(out, "declares bash") {
		t.Errorf("a divergence under a matching header: exit %d\n%s", code, out)
	}
}
