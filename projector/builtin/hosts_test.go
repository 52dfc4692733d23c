package builtin_test

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
)

// TestHostVectors: the tools whose definitions differ between DSH and LasmeX
// (web_search, read_image, subagent) project each host's vectors
// (testdata/hosts, computed by that host's own tool definitions; make record)
// byte for byte when the log names its host, and when --config pins it.
func TestHostVectors(t *testing.T) {
	n := 0
	for _, host := range projector.Hosts {
		f, err := os.Open(filepath.Join("..", "..", "testdata", "hosts", host+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		auto, err := builtin.Registry(projector.Config{})
		if err != nil {
			t.Fatal(err)
		}
		pinned, err := builtin.Registry(projector.Config{Host: host})
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for line := 1; sc.Scan(); line++ {
			v := jsonv.MustParse(sc.Text())
			for name, tool := range map[string]*projector.Tool{
				"named":  auto.LookupFor(v.Get("tool").Str(), host),
				"pinned": pinned.LookupFor(v.Get("tool").Str(), ""),
			} {
				where := host + ".jsonl:" + itoa(line) + " " + v.Get("tool").Str() + " (" + name + ")"
				check(t, where, tool, v)
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no host vectors checked")
	}
}

func check(t *testing.T, where string, tool *projector.Tool, v jsonv.Value) {
	t.Helper()
	if tool == nil {
		t.Errorf("%s: no port", where)
		return
	}
	args, value := v.Get("args"), v.Get("value")
	if vs := tool.ValidateValue(value); len(vs) > 0 {
		t.Errorf("%s: value rejected: %s", where, vs[0].Message)
	}
	content, err := tool.RunRender(args, value)
	if err != nil || jsonv.Encode(content) != jsonv.Encode(v.Get("content")) {
		t.Errorf("%s render:\n got %s (%v)\nwant %s", where, jsonv.Encode(content), err, jsonv.Encode(v.Get("content")))
	}
	if want := v.Get("meta"); want.IsDefined() {
		meta, _, err := tool.RunPresentationMeta(args, value)
		if err != nil || jsonv.Encode(meta) != jsonv.Encode(want) {
			t.Errorf("%s presentationMeta:\n got %s (%v)\nwant %s", where, jsonv.Encode(meta), err, jsonv.Encode(want))
		}
	}
	if want := v.Get("callView"); want.IsDefined() {
		view, err := tool.CallView(args)
		if err != nil || jsonv.Encode(orNull(view)) != jsonv.Encode(want) {
			t.Errorf("%s presentCall:\n got %s (%v)\nwant %s", where, jsonv.Encode(view), err, jsonv.Encode(want))
		}
	}
	if want := v.Get("resultView"); want.IsDefined() {
		view, err := tool.ResultView(args, projector.Result{Content: v.Get("content"), Meta: v.Get("meta")})
		if err != nil || jsonv.Encode(orNull(view)) != jsonv.Encode(want) {
			t.Errorf("%s presentResult:\n got %s (%v)\nwant %s", where, jsonv.Encode(view), err, jsonv.Encode(want))
		}
	}
}

func orNull(v jsonv.Value) jsonv.Value {
	if v.IsUndefined() {
		return jsonv.NullValue()
	}
	return v
}

func itoa(i int) string { return jsonv.Encode(jsonv.Num(float64(i))) }
