package replay

import (
	"fmt"
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
)

// A log's request header records the definitions the model was given. When
// a call diverges and the header declares its tool with other parameters
// than the definition that replayed it, the host ran a definition
// dsh-replay does not have: the findings say so, since that, not the port,
// is then the likely cause. A clean call never looks.

// declaredHint is that sentence for c replayed by t, or "" when the header
// does not declare the tool or declares the same parameters (descriptions
// aside: they vary with deployment and wording, not with what a call may
// carry).
func declaredHint(c *logformat.Call, t *projector.Tool) string {
	def, ok := c.Request.Tool(c.Name)
	if !ok || t == nil {
		return ""
	}
	diff := paramsDiff(def.Get("parameters"), t.Parameters)
	if diff == "" {
		return ""
	}
	return fmt.Sprintf(" (the log's request header at line %d declares %s with other parameters than dsh-replay's definition: %s; the host ran a definition dsh-replay does not have)", c.Request.Line, c.Name, diff)
}

// hintDeclared appends declaredHint to the call's divergences.
func hintDeclared(c *logformat.Call, t *projector.Tool, fs []Finding) {
	hint, looked := "", false
	for i := range fs {
		if fs[i].Sev < Failure || fs[i].Class == InternalError {
			continue
		}
		if !looked {
			hint, looked = declaredHint(c, t), true
		}
		if hint == "" {
			return
		}
		fs[i].Message += hint
	}
}

// paramsDiff names how two parameter schemas differ, "" when they do not:
// properties only the log's has (+), only the port's (-), changed (~), and
// the required list.
func paramsDiff(log, port jsonv.Value) string {
	log, port = withoutDescriptions(log), withoutDescriptions(port)
	if jsonv.Stringify(log) == jsonv.Stringify(port) {
		return ""
	}
	lp, pp := log.Get("properties"), port.Get("properties")
	var parts []string
	for _, m := range lp.Members() {
		switch p := pp.Get(m.Key); {
		case p.IsUndefined():
			parts = append(parts, "+"+m.Key)
		case jsonv.Stringify(p) != jsonv.Stringify(m.Value):
			parts = append(parts, "~"+m.Key)
		}
	}
	for _, m := range pp.Members() {
		if lp.Get(m.Key).IsUndefined() {
			parts = append(parts, "-"+m.Key)
		}
	}
	if jsonv.Stringify(log.Get("required")) != jsonv.Stringify(port.Get("required")) {
		parts = append(parts, "required "+jsonv.Stringify(log.Get("required"))+" (port: "+jsonv.Stringify(port.Get("required"))+")")
	}
	if len(parts) == 0 {
		parts = append(parts, "the schemas differ outside their properties")
	}
	return strings.Join(parts, ", ")
}

// withoutDescriptions is v without "description" members, at any depth.
func withoutDescriptions(v jsonv.Value) jsonv.Value {
	switch {
	case v.IsObject():
		ms := make([]jsonv.Member, 0, v.Len())
		for _, m := range v.Members() {
			if m.Key != "description" {
				ms = append(ms, jsonv.M(m.Key, withoutDescriptions(m.Value)))
			}
		}
		return jsonv.Obj(ms...)
	case v.IsArray():
		es := make([]jsonv.Value, 0, v.Len())
		for _, e := range v.Elems() {
			es = append(es, withoutDescriptions(e))
		}
		return jsonv.Arr(es...)
	}
	return v
}
