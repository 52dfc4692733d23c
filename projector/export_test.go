package projector

import "github.com/dsh-replay/dsh-replay/jsonv"

// UpstreamWalk runs only the upstream walk over the output schema, without
// the walkDeclared shortcut (tests).
func UpstreamWalk(t *Tool, v jsonv.Value) []Violation {
	c, _ := t.schemas()
	var out []Violation
	walkValue(c.output, v, loc{root: "value", segs: make([]seg, 0, 16), full: true}, &out)
	return out
}
