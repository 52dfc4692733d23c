package fs

import (
	"os"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// read_image by release: from 0.1.6-alpha.1 presentationMeta is {path}
// (read-image.ts of that tree); before it the tool declares none. The render
// is the same in every release (DSH's, downscale sentence included).
func TestReadImageByRelease(t *testing.T) {
	value := jsonv.MustParse(`{"path":"/w/a.png","image":{"attachmentId":"att-1","mediaType":"image/png","bytes":900,"width":1000,"height":750,"originalDimensions":{"width":4000,"height":3000}}}`)
	args := jsonv.MustParse(`{"file_path":"a.png"}`)
	wantText := "<path>/w/a.png</path>\n<type>image</type>\n<content>\nimage/png image, 1000x750 px, 900 bytes (downscaled from 4000x3000 px; multiply coordinates by 4.00 to locate features in the original file)\n</content>"
	for _, c := range []struct {
		cfg     projector.Config
		host    string
		release string
		meta    string // "" = no presentationMeta
	}{
		{projector.Config{}, "dsh", "", ""},
		{projector.Config{}, "dsh", "0.1.3", ""},
		{projector.Config{}, "dsh", "0.1.5", ""},
		{projector.Config{}, "dsh", "0.1.7", `{"path":"/w/a.png"}`},
		{projector.Config{}, "", "0.1.7-alpha.1", `{"path":"/w/a.png"}`},
		{projector.Config{Release: "0.1.7"}, "dsh", "", `{"path":"/w/a.png"}`},
		{projector.Config{Release: "0.1.5"}, "dsh", "0.1.7", ""},
	} {
		r, err := projector.NewRegistry(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := Register(r); err != nil {
			t.Fatal(err)
		}
		tl := r.LookupAt("read_image", c.host, c.release)
		if vs := tl.ValidateValue(value); len(vs) > 0 {
			t.Errorf("%q/%q: %v", c.host, c.release, vs)
		}
		content, err := tl.RunRender(args, value)
		if err != nil {
			t.Fatal(err)
		}
		if got := content.At(0).Get("text").Str(); got != wantText {
			t.Errorf("%q/%q: render = %q", c.host, c.release, got)
		}
		meta, ok, err := tl.RunPresentationMeta(args, value)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case c.meta == "" && ok:
			t.Errorf("%q/%q: meta %s from a release without presentationMeta", c.host, c.release, jsonv.Stringify(meta))
		case c.meta != "" && (!ok || jsonv.Stringify(meta) != c.meta):
			t.Errorf("%q/%q: meta = %s (declared %v), want %s", c.host, c.release, jsonv.Stringify(meta), ok, c.meta)
		}
	}
}

// testdata/read_lang_hint.jsonl is readLangHintForPath of the shared
// code-language table run under Node: every extension of the table in lower
// and upper case, dotfiles, both separators, prototype keys, U+212A.
func TestReadLangHint(t *testing.T) {
	data, err := os.ReadFile("testdata/read_lang_hint.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		rec := jsonv.MustParse(line)
		n++
		path := rec.Get("path").Str()
		got, ok := ReadLangHint(path)
		want := rec.Get("lang")
		if ok != !want.IsNull() || ok && got != want.Str() {
			t.Errorf("ReadLangHint(%q) = %q, %v; want %s", path, got, ok, jsonv.Stringify(want))
		}
	}
	if n < 200 {
		t.Fatalf("only %d vectors", n)
	}
}

// testdata/read_lang_hint_rc2.jsonl is readLangHintForPath of the
// 0.1.7-rc.2 table under Node over the same paths, and csv, groovy, hcl,
// tfvars and gradle ones.
func TestReadLangHintRC2(t *testing.T) {
	data, err := os.ReadFile("testdata/read_lang_hint_rc2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n, changed := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		rec := jsonv.MustParse(line)
		n++
		path := rec.Get("path").Str()
		got, ok := ReadLangHintRC2(path)
		want := rec.Get("lang")
		if ok != !want.IsNull() || ok && got != want.Str() {
			t.Errorf("ReadLangHintRC2(%q) = %q, %v; want %s", path, got, ok, jsonv.Stringify(want))
		}
		if old, ok := ReadLangHint(path); !want.IsNull() && (!ok || old != want.Str()) {
			changed++
		}
	}
	if n < 250 || changed < 10 {
		t.Fatalf("only %d vectors, %d that differ from the 0.1.7-alpha.2 table", n, changed)
	}
}

// write by release: presentationMeta leads with the operation from
// 0.1.7-alpha.2; presentResult reads the diffs either way.
func TestWriteMetaByRelease(t *testing.T) {
	r, err := projector.NewRegistry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	args := jsonv.MustParse(`{"file_path":"/w/a.txt","content":"b\n"}`)
	value := jsonv.MustParse(`{"path":"/w/a.txt","operation":"update","before":"a\n","after":"b\n"}`)
	for release, wantOp := range map[string]bool{"": false, "0.1.6-alpha.1": false, "0.1.7-alpha.2": true, "0.2.1-alpha.1": true} {
		tl := r.LookupAt("write", "dsh", release)
		m, _, err := tl.RunPresentationMeta(args, value)
		if err != nil {
			t.Fatal(err)
		}
		keys := ""
		for _, mm := range m.Members() {
			keys += mm.Key + " "
		}
		if want := map[bool]string{true: "operation diffs ", false: "diffs "}[wantOp]; keys != want {
			t.Errorf("release %q: meta keys %q, want %q", release, keys, want)
		}
		view, err := tl.RunPresentResult(args, projector.Result{Content: jsonv.MustParse(`[{"type":"text","text":"x"}]`), Meta: m})
		if err != nil || view.Get("diffs").Len() != 1 {
			t.Errorf("release %q: presentResult %s, %v", release, jsonv.Stringify(view), err)
		}
	}
}

// read by release: the lang hint of presentationMeta follows the shared
// table from 0.1.7-alpha.2 (".env" and ".ps1" get one, a known suffix keeps
// its old hint), the older table before.
func TestReadLangByRelease(t *testing.T) {
	r, err := projector.NewRegistry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	meta := func(release, path string) string {
		value := jsonv.MustParse(`{"path":"","offset":1,"lines":[{"number":1,"text":"x"}],"totalLines":1}`).With("path", jsonv.Str(path))
		m, _, err := r.LookupAt("read", "dsh", release).RunPresentationMeta(jsonv.MustParse(`{"file_path":"f"}`), value)
		if err != nil {
			t.Fatal(err)
		}
		return m.Get("lang").Str()
	}
	for _, c := range []struct{ release, path, want string }{
		{"0.1.7", "/w/.env", "env"}, {"0.1.6-alpha.1", "/w/.env", ""},
		{"0.1.7", "/w/run.PS1", "ps1"}, {"0.1.5", "/w/run.ps1", ""},
		{"0.1.7", "/w/a.kt", "kotlin"}, {"", "/w/a.kt", "kotlin"},
		{"0.1.7-alpha.2", "/w/main.tf", "tf"}, {"0.1.7-alpha.1", "/w/main.tf", ""},
		{"0.1.7-alpha.2", "/w/vars.hcl", "tf"}, {"0.1.7-rc.2", "/w/vars.hcl", "hcl"}, {"0.1.7", "/w/a.tfvars", "tfvars"},
		{"0.1.7-alpha.2", "/w/a.csv", ""}, {"0.2.1-alpha.1", "/w/a.csv", "csv"}, {"0.1.7", "/w/b.groovy", "groovy"},
	} {
		if got := meta(c.release, c.path); got != c.want {
			t.Errorf("release %q %s: lang %q, want %q", c.release, c.path, got, c.want)
		}
	}
}

// present and load_workspace_dependencies, tools the pinned tree does not
// have, resolve at any release (a call of one shows the release).
func TestLaterTools(t *testing.T) {
	r, err := projector.NewRegistry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	for _, release := range []string{"", "0.1.5", "0.1.7", "0.2.1-alpha.1"} {
		p := r.LookupAt("present", "dsh", release)
		if p == nil {
			t.Fatalf("release %q: no present", release)
		}
		value := jsonv.MustParse(`{"turn":3,"files":[{"path":"out/report.pdf","description":"The report"},{"path":"out/data.csv"}]}`)
		if vs := p.ValidateValue(value); len(vs) > 0 {
			t.Errorf("present value rejected: %v", vs)
		}
		out, err := p.RunRender(jsonv.Obj(), value)
		if err != nil || out.At(0).Get("text").Str() != "Presented out/report.pdf\nPresented out/data.csv" {
			t.Errorf("present render %s, %v", jsonv.Stringify(out), err)
		}
		if vs := p.ValidateArgs(jsonv.MustParse(`{"files":[{"path":"a","extra":1}]}`)); len(vs) == 0 {
			t.Error("present accepts an undeclared file property")
		}
		d := r.LookupAt("load_workspace_dependencies", "dsh", release)
		dv := jsonv.MustParse(`{"python":"/r/dependencies/python/bin/python3","node":"/r/dependencies/node/bin/node","nodePackages":"/r/dependencies/node/node_modules","pythonPackages":"/r/dependencies/python/lib/python3.12/site-packages","pythonDistributions":{"numpy":"2.1.0","10x":"1"}}`)
		if vs := d.ValidateValue(dv); len(vs) > 0 {
			t.Errorf("load_workspace_dependencies value rejected: %v", vs)
		}
		out, err = d.RunRender(jsonv.Obj(), dv)
		if err != nil || out.At(0).Get("text").Str() != jsonv.StringifyIndent(dv, "  ") || !strings.HasPrefix(out.At(0).Get("text").Str(), "{\n  \"python\": ") {
			t.Errorf("load_workspace_dependencies render %s, %v", jsonv.Stringify(out), err)
		}
		if v, err := d.CallView(jsonv.Obj()); err != nil || v.Get("title").Str() != "Load workspace dependencies" || v.Get("kind").Str() != "read" {
			t.Errorf("load_workspace_dependencies card %s, %v", jsonv.Stringify(v), err)
		}
	}
	if r.LookupAt("present", "lasmex", "0.1.7") != nil {
		t.Error("a LasmeX log resolves present")
	}
}
