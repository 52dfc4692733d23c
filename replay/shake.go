package replay

import (
	"fmt"
	"hash/fnv"
	"strings"
)

// Shake mode. In-process, every projector and presenter simply runs again
// (Go randomises map iteration on every range, so plain repetitions catch
// order dependence). The environment perturbations (time zone, locale,
// GOMAXPROCS) cannot be applied inside a running process without racing
// with everything else in it (time.Local is read unsynchronised), so they
// run as child processes whose per-call fingerprints are compared with this
// process's (see Perturbations and CallResult.Fingerprint).

// Perturbation is one environment a shake child runs under.
type Perturbation struct {
	Name string
	Env  []string
}

// Perturbations are the environments of the shake children.
var Perturbations = []Perturbation{
	{Name: "TZ=Pacific/Chatham LANG=tr_TR.UTF-8 GOMAXPROCS=1",
		Env: []string{"TZ=Pacific/Chatham", "LANG=tr_TR.UTF-8", "LC_ALL=tr_TR.UTF-8", "GOMAXPROCS=1"}},
	{Name: "TZ=America/St_Johns LANG=C LC_ALL=de_DE.UTF-8 GOMAXPROCS=4",
		Env: []string{"TZ=America/St_Johns", "LANG=C", "LC_ALL=de_DE.UTF-8", "GOMAXPROCS=4"}},
}

// Outputs names the fingerprinted outputs, in Fingerprint order.
var Outputs = [4]string{"render", "presentationMeta", "presentCall", "presentResult"}

// Fingerprint is a hash per output (Outputs order) of what the projectors
// and presenters produced for one call: zero when not computed.
type Fingerprint [4]uint64

func (o *outputs) fingerprint() Fingerprint {
	var fp Fingerprint
	for i, s := range []string{o.content, o.meta, o.callView, o.resultView} {
		h := fnv.New64a()
		h.Write([]byte(s))
		fp[i] = h.Sum64() | 1 // never zero: zero means "not computed"
	}
	return fp
}

// String is the fingerprint as four hex words.
func (fp Fingerprint) String() string {
	return fmt.Sprintf("%016x,%016x,%016x,%016x", fp[0], fp[1], fp[2], fp[3])
}

// ParseFingerprint reads String's form.
func ParseFingerprint(s string) (Fingerprint, error) {
	var fp Fingerprint
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return fp, fmt.Errorf("bad fingerprint %q", s)
	}
	for i, p := range parts {
		if _, err := fmt.Sscanf(p, "%x", &fp[i]); err != nil {
			return fp, fmt.Errorf("bad fingerprint %q", s)
		}
	}
	return fp, nil
}

// Moved reports the outputs whose fingerprints differ.
func (fp Fingerprint) Moved(other Fingerprint) []string {
	var out []string
	for i := range fp {
		if fp[i] != other[i] {
			out = append(out, Outputs[i])
		}
	}
	return out
}

// NondeterministicFinding is the finding for an output that moved in a
// perturbed environment.
func NondeterministicFinding(r *CallResult, output, env string) Finding {
	return Finding{Class: Nondeterminism, Sev: Failure, File: r.File, Line: r.Line, CallID: r.CallID, Tool: r.Tool,
		Projector: output, Message: fmt.Sprintf("%s output differs when run under %s", output, env)}
}

// shake re-runs what the first pass ran and reports the first output that
// moved, once per projector.
func (v *callRun) shake() {
	reported := map[string]bool{}
	for run := 1; run <= v.e.opts.Shake; run++ {
		o := v.again()
		for _, x := range []struct{ name, first, now string }{
			{"render", v.first.content, o.content},
			{"presentationMeta", v.first.meta, o.meta},
			{"presentCall", v.first.callView, o.callView},
			{"presentResult", v.first.resultView, o.resultView},
		} {
			if x.first == x.now || reported[x.name] {
				continue
			}
			reported[x.name] = true
			v.add(Finding{Class: Nondeterminism, Sev: Failure, Projector: x.name,
				Message: fmt.Sprintf("%s output changed when run again (shake run %d)", x.name, run),
				Diff:    TextDiff(x.first, x.now, DiffLimit)})
		}
	}
}

// again runs the projectors and presenters the first pass ran.
func (v *callRun) again() outputs {
	var o outputs
	if v.renderRun {
		// The same sequence as the first pass (finalizeContent included).
		p := runProjectors(v.tool, v.c, v.args)
		o.content = encodeOut(p.Content, p.ContentErr)
		if v.metaRun {
			o.meta = encodeOut(p.Meta, p.MetaErr)
		}
	}
	v.presenters(&o)
	return o
}
