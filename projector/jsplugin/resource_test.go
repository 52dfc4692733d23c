package jsplugin_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/jsplugin"
)

// TestMemoryBomb: a projector that doubles a string (or fills an array)
// without end is stopped by the memory budget as projector-resource, well
// before its CPU deadline, and the process lives on: the next call of the
// same runtime works. Before, such a render reached several GB before the
// deadline, and under a memory cap the whole run died.
func TestMemoryBomb(t *testing.T) {
	oldB := jsplugin.MemoryBudget
	jsplugin.MemoryBudget = 64 << 20
	defer func() { jsplugin.MemoryBudget = oldB }()
	for _, c := range []struct{ name, body string }{
		{"doubling string", `if (value.ok) return [{ type: 'text', text: 'ok' }]; let s = 'ab'; for (;;) { s = s + s; if (s.length > 4e9) return [] }`},
		{"growing array", `if (value.ok) return [{ type: 'text', text: 'ok' }]; const a = []; for (let i = 0; ; i++) { a.push({ i, s: 'x' + i }) }`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := jsplugin.LoadWith(writePlugin(t, c.body), projector.Config{}, jsplugin.LoadOptions{Limits: jsplugin.Limits{Call: 5 * time.Minute}})
			if err != nil {
				t.Fatal(err)
			}
			tool := p.Tools(projector.Config{})[0]
			start := time.Now()
			_, err = tool.RunRender(js(`{}`), js(`{}`))
			var f *projector.Failure
			if !errors.As(err, &f) || f.Class != "projector-resource" || !strings.Contains(f.Message, "memory budget (64 MiB") {
				t.Fatalf("render: %#v", err)
			}
			if time.Since(start) > time.Minute {
				t.Errorf("stopped after %v: by the deadline, not the budget?", time.Since(start)) // a hang guard
			}
			out, err := tool.RunRender(js(`{}`), js(`{"ok":true}`))
			if err != nil || !strings.Contains(jsonv.Encode(out), "ok") {
				t.Errorf("the next call: %v %v", out, err)
			}
		})
	}
}

// TestApplyNeverSettles: an async apply awaiting what the sandbox never
// provides is named as such, not as a plugin that defines no tools.
func TestApplyNeverSettles(t *testing.T) {
	_, err := loadSource(t, `export async function apply(ctx) { await new Promise(() => {}) }`, projector.Config{})
	if err == nil || !strings.Contains(err.Error(), "never settles") || strings.Contains(err.Error(), "defines no tools") {
		t.Errorf("load: %v", err)
	}
	// One that settles and registers nothing still says so.
	_, err = loadSource(t, `export async function apply(ctx) { await Promise.resolve() }`, projector.Config{})
	if err == nil || !strings.Contains(err.Error(), "defines no tools") {
		t.Errorf("load: %v", err)
	}
}
