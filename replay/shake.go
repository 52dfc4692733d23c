package replay

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"
)

// Shake mode: every projector and presenter runs again; some of the runs
// happen under a perturbed process environment. Go already randomises map
// iteration on every range, so plain repetitions catch order dependence.

// perturbation is one environment a shake run may use.
type perturbation struct {
	name       string
	tz         *time.Location
	env        map[string]string
	gomaxprocs int
}

var perturbations = []perturbation{
	{name: "TZ=+13:45 LANG=tr_TR.UTF-8 GOMAXPROCS=1",
		tz:  time.FixedZone("SHAKE+1345", 13*3600+45*60),
		env: map[string]string{"TZ": "Pacific/Chatham", "LANG": "tr_TR.UTF-8", "LC_ALL": "tr_TR.UTF-8"}, gomaxprocs: 1},
	{name: "repeat"},
	{name: "TZ=-03:30 LANG=C LC_ALL=de_DE.UTF-8 GOMAXPROCS=2×",
		tz:  time.FixedZone("SHAKE-0330", -(3*3600 + 30*60)),
		env: map[string]string{"TZ": "America/St_Johns", "LANG": "C", "LC_ALL": "de_DE.UTF-8"}, gomaxprocs: -2},
}

// envMu: ordinary runs hold it shared; a perturbed run holds it exclusively
// while the process environment is changed, so no other run sees a
// half-changed environment.
var envMu sync.RWMutex

// withEnv runs fn under p.
func withEnv(p perturbation, fn func()) {
	if p.tz == nil && p.env == nil && p.gomaxprocs == 0 {
		envMu.RLock()
		defer envMu.RUnlock()
		fn()
		return
	}
	envMu.Lock()
	defer envMu.Unlock()
	saved := map[string]*string{}
	for k, val := range p.env {
		if old, ok := os.LookupEnv(k); ok {
			saved[k] = &old
		} else {
			saved[k] = nil
		}
		os.Setenv(k, val)
	}
	oldLocal := time.Local
	if p.tz != nil {
		time.Local = p.tz
	}
	oldProcs := 0
	if p.gomaxprocs != 0 {
		n := p.gomaxprocs
		if n < 0 {
			n = -n * runtime.NumCPU()
		}
		oldProcs = runtime.GOMAXPROCS(n)
	}
	defer func() {
		if oldProcs != 0 {
			runtime.GOMAXPROCS(oldProcs)
		}
		time.Local = oldLocal
		for k, old := range saved {
			if old == nil {
				os.Unsetenv(k)
			} else {
				os.Setenv(k, *old)
			}
		}
	}()
	fn()
}

// shake re-runs what the first pass ran and reports the first output that
// moved, once per projector.
func (v *callRun) shake() {
	reported := map[string]bool{}
	for run := 1; run <= v.e.opts.Shake; run++ {
		p := perturbations[(run-1)%len(perturbations)]
		var o outputs
		withEnv(p, func() { o = v.again() })
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
				Message: fmt.Sprintf("%s output changed when run again (shake run %d: %s)", x.name, run, p.name),
				Diff:    TextDiff(x.first, x.now, DiffLimit)})
		}
	}
}

// again runs the projectors and presenters the first pass ran.
func (v *callRun) again() outputs {
	var o outputs
	c, t := v.c, v.tool
	if v.renderRun {
		content, err := t.RunRender(v.args, c.Value)
		o.content = encodeOut(content, err)
	}
	if v.metaRun {
		meta, _, err := t.RunPresentationMeta(v.args, c.Value)
		o.meta = encodeOut(meta, err)
	}
	v.presenters(&o)
	return o
}
