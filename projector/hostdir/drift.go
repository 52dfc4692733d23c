package hostdir

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/jsplugin"
)

// Example is one worked example: a JSON line {tool, args, value?,
// content?, meta?, callView?, resultView?, resultInput?, isError?,
// config?}, the conformance examples' format.
type Example struct {
	File string
	Line int
	V    jsonv.Value
}

// ReadExamples reads the examples in paths: .jsonl files, or directories
// whose *.jsonl files are read (records without a "tool" are skipped, so a
// directory may hold other vectors too). A line that is not JSON is an
// error with its file and line.
func ReadExamples(paths []string) ([]Example, error) {
	var out []Example
	for _, p := range paths {
		files := []string{p}
		if st, err := os.Stat(p); err != nil {
			return nil, err
		} else if st.IsDir() {
			files, _ = filepath.Glob(filepath.Join(p, "*.jsonl"))
			sort.Strings(files)
		}
		for _, f := range files {
			ex, err := readExampleFile(f)
			if err != nil {
				return nil, err
			}
			out = append(out, ex...)
		}
	}
	return out, nil
}

func readExampleFile(path string) ([]Example, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Example
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	line := 0
	for sc.Scan() {
		line++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		v, err := jsonv.Parse(sc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if v.Get("tool").IsString() {
			out = append(out, Example{path, line, v})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", path, line+1, err)
	}
	return out, nil
}

// DriftRow is one tool of the drift table.
type DriftRow struct {
	Tool string
	// Plugin is the host package the tool came from ("" when the host
	// does not define it).
	Plugin, Version string
	// Port: a Go port of the tool exists.
	Port                    bool
	Examples, Agree, Differ int
	// First is the first difference: where, which projector, both answers.
	First string
}

// Status is "agree", "differ", "no examples", "no port" or "not in host".
func (r DriftRow) Status() string {
	switch {
	case r.Plugin == "":
		return "not in host"
	case !r.Port:
		return "no port"
	case r.Differ > 0:
		return "differ"
	case r.Examples == 0:
		return "no examples"
	}
	return "agree"
}

// Drift holds each tool the host loaded to its port (ports builds the
// ports' registry for a configuration) on the examples: a row per tool the
// host or the ports define, by name. An example with its own "config" runs
// against both sides built with it.
func Drift(l *Loaded, ports func(projector.Config) (*projector.Registry, error), examples []Example) ([]DriftRow, error) {
	reg, err := ports(l.Config)
	if err != nil {
		return nil, err
	}
	hostTools, _ := l.Tools()
	rows := map[string]*DriftRow{}
	pkgOf := map[string]Package{}
	for _, p := range l.Plugins {
		for _, t := range p.Tools {
			if _, ok := pkgOf[t.Name]; !ok {
				pkgOf[t.Name] = p.Package
			}
		}
	}
	js := map[string]*projector.Tool{}
	for _, t := range hostTools {
		js[t.Name] = t
		p := pkgOf[t.Name]
		rows[t.Name] = &DriftRow{Tool: t.Name, Plugin: p.Name, Version: p.Version, Port: reg.LookupFor(t.Name, l.Host) != nil}
	}
	for _, t := range reg.Tools() {
		if rows[t.Name] == nil {
			rows[t.Name] = &DriftRow{Tool: t.Name, Port: true}
		}
	}
	type sides struct{ js, port *projector.Tool }
	configured := map[string]sides{}
	withConfig := func(name string, opts jsonv.Value) (sides, error) {
		port := reg.LookupFor(name, l.Host)
		key := name + "\x00" + jsonv.Encode(opts)
		if s, ok := configured[key]; ok {
			return s, nil
		}
		plugin := pkgOf[name].Plugin
		merged := l.Config.Plugin(plugin)
		if !merged.IsObject() {
			merged = jsonv.Obj()
		}
		for _, m := range opts.Members() {
			merged = merged.With(m.Key, m.Value)
		}
		s := sides{}
		c := l.Config.WithPlugin(plugin, merged)
		if port.Plugin != plugin {
			c = c.WithPlugin(port.Plugin, merged)
		}
		r, err := ports(c)
		if err != nil {
			return s, err
		}
		s.port = r.LookupFor(name, l.Host)
		p, err := jsplugin.Load(pkgOf[name].Dir, c)
		if err != nil {
			return s, err
		}
		for _, t := range p.Tools(c) {
			if t.Name == name {
				s.js = t
			}
		}
		if s.js == nil {
			return s, fmt.Errorf("%s does not define %s with these options", pkgOf[name].Name, name)
		}
		configured[key] = s
		return s, nil
	}
	for _, ex := range examples {
		name := ex.V.Get("tool").Str()
		row := rows[name]
		if row == nil || js[name] == nil || !row.Port {
			continue
		}
		row.Examples++
		s := sides{js[name], reg.LookupFor(name, l.Host)}
		where := fmt.Sprintf("%s:%d", filepath.Base(ex.File), ex.Line)
		if ex.V.Has("config") {
			var err error
			if s, err = withConfig(name, ex.V.Get("config")); err != nil {
				row.Differ++
				if row.First == "" {
					row.First = fmt.Sprintf("%s: with config %s: %v", where, jsonv.Encode(ex.V.Get("config")), err)
				}
				continue
			}
		}
		if d := CompareExample(ex.V, s.js, s.port); d != "" {
			row.Differ++
			if row.First == "" {
				row.First = where + " " + d
			}
		} else {
			row.Agree++
		}
	}
	out := make([]DriftRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tool < out[j].Tool })
	return out, nil
}

// ExampleDiff is one projector on which the host's tool and the port
// disagree over an example: each side's output (or "error: …" or
// "undefined"), and the example's own answer when it has one.
type ExampleDiff struct {
	What, Host, Port, Want string
}

// CompareExample runs every projector the example exercises on the host's
// tool and the port and describes the first disagreement ("" when they
// agree), with the example's own answer when it has one.
func CompareExample(rec jsonv.Value, js, port *projector.Tool) string {
	ds := ExampleDiffs(rec, js, port)
	if len(ds) == 0 {
		return ""
	}
	d := ds[0]
	want := ""
	if d.Want != "" {
		want = "; example: " + d.Want
	}
	return fmt.Sprintf("%s: host %s; port %s%s", d.What, d.Host, d.Port, want)
}

// ExampleDiffs runs every projector the example exercises (render and
// presentationMeta when it has a value, presentCall, presentResult on its
// result) on both tools and lists where they disagree.
func ExampleDiffs(rec jsonv.Value, js, port *projector.Tool) []ExampleDiff {
	var diffs []ExampleDiff
	show := func(v jsonv.Value, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		if !v.IsDefined() {
			return "undefined"
		}
		return jsonv.Encode(v)
	}
	field := func(k string) string {
		if !rec.Has(k) {
			return ""
		}
		return jsonv.Encode(rec.Get(k))
	}
	check := func(what string, a jsonv.Value, ea error, b jsonv.Value, eb error, want string) {
		if (ea == nil) == (eb == nil) && jsonv.Encode(a) == jsonv.Encode(b) && a.IsDefined() == b.IsDefined() {
			return
		}
		diffs = append(diffs, ExampleDiff{What: what, Host: show(a, ea), Port: show(b, eb), Want: want})
	}
	args, value := rec.Get("args"), rec.Get("value")
	if value.IsDefined() && !value.IsNull() && js.Output != nil && port.Output != nil {
		a, ea := js.RunRender(args, value)
		b, eb := port.RunRender(args, value)
		check("render", a, ea, b, eb, field("content"))
		am, _, ea := js.RunPresentationMeta(args, value)
		bm, _, eb := port.RunPresentationMeta(args, value)
		check("presentationMeta", am, ea, bm, eb, field("meta"))
	}
	a, ea := js.CallView(args)
	b, eb := port.CallView(args)
	check("presentCall", a, ea, b, eb, field("callView"))
	// presentResult on the example's result: resultInput, else its content
	// (text when a string), isError and meta.
	in := rec.Get("resultInput")
	if !in.IsObject() {
		content := rec.Get("content")
		if content.IsString() {
			content = jsonv.Arr(projector.Text(content.Str()))
		}
		in = jsonv.Obj(jsonv.M("content", content), jsonv.M("isError", jsonv.BoolValue(rec.Get("isError").IsBool() && rec.Get("isError").Bool())))
		if rec.Has("meta") {
			in = in.With("meta", rec.Get("meta"))
		}
	}
	if in.Get("content").IsArray() {
		r := projector.Result{Content: in.Get("content"), IsError: in.Get("isError").IsBool() && in.Get("isError").Bool(), Meta: in.Get("meta")}
		a, ea := js.ResultView(args, r)
		b, eb := port.ResultView(args, r)
		check("presentResult", a, ea, b, eb, field("resultView"))
	}
	return diffs
}
