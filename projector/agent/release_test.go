package agent

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// send_message and list_subagent_models by release: agent_id and "message
// delivered to agent" from 0.1.6-alpha.1 (tool-subagent-control/src/index.ts
// of that tree), subagent_id and "message queued as the next turn" before;
// list_subagent_models exists from 0.1.6-alpha.1 only (so a call of it
// resolves to that definition at any release).
func TestAgentToolsByRelease(t *testing.T) {
	r, err := projector.NewRegistry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		release    string
		args, want string
		models     bool
	}{
		{"", `{"subagent_id":"s-1","message":"m"}`, "message queued as the next turn for subagent s-1", false},
		{"0.1.3", `{"subagent_id":"s-1","message":"m"}`, "message queued as the next turn for subagent s-1", false},
		{"0.1.5", `{"subagent_id":"s-1","message":"m"}`, "message queued as the next turn for subagent s-1", false},
		{"0.1.6-alpha.1", `{"agent_id":"a-1","message":"m"}`, "message delivered to agent a-1", true},
		{"0.1.7", `{"agent_id":"a-1","message":"m"}`, "message delivered to agent a-1", true},
		// The newer render reads agent_id: older-shaped arguments print undefined.
		{"0.1.7", `{"subagent_id":"s-1","message":"m"}`, "message delivered to agent undefined", true},
	} {
		tl := r.LookupAt("send_message", "dsh", c.release)
		args := jsonv.MustParse(c.args)
		out, err := tl.RunRender(args, jsonv.MustParse(`{"messageId":"x"}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := out.At(0).Get("text").Str(); got != c.want {
			t.Errorf("%q: send_message render = %q, want %q", c.release, got, c.want)
		}
		// The parameter schema requires the release's id field.
		if vs := tl.ValidateArgs(args); (len(vs) == 0) != (c.want != "message delivered to agent undefined") {
			t.Errorf("%q: %s violations %v", c.release, c.args, vs)
		}
		// A call of list_subagent_models shows the log is of 0.1.6-alpha.1 or
		// later whatever its format says: every release resolves it, to the
		// one definition there is, which the registry does not have itself.
		models := r.LookupAt("list_subagent_models", "", c.release)
		if models == nil || r.LookupFor("list_subagent_models", "") != nil {
			t.Errorf("%q: list_subagent_models resolves to %v (the registry's own: %v)", c.release, models, r.LookupFor("list_subagent_models", ""))
		}
		if models != nil && r.LookupAt("list_subagent_models", "lasmex", c.release) != nil {
			t.Errorf("%q: a LasmeX log resolves list_subagent_models", c.release)
		}
		if models != nil {
			out, err := models.RunRender(jsonv.Obj(), jsonv.Str("deepseek — DeepSeek"))
			if err != nil || out.At(0).Get("text").Str() != "deepseek — DeepSeek" {
				t.Errorf("list_subagent_models render = %v, %v", out, err)
			}
			if vs := models.ValidateValue(jsonv.MustParse(`{"x":1}`)); len(vs) == 0 {
				t.Error("list_subagent_models accepted a non-string value")
			}
		}
	}
}

// list_agents by release: a child not running is "inactive" from
// 0.1.7-alpha.2, "idle" or "ready" before; the render is the same.
func TestListAgentsByRelease(t *testing.T) {
	r, err := projector.NewRegistry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	value := func(status string) jsonv.Value {
		return jsonv.MustParse(`[{"kind":"child","id":"a-1","label":"review","status":"` + status + `"}]`)
	}
	for _, c := range []struct {
		release, status string
		valid           bool
	}{
		{"", "idle", true}, {"", "inactive", false}, {"0.1.6-alpha.1", "ready", true}, {"0.1.6-alpha.1", "inactive", false},
		{"0.1.7-alpha.2", "inactive", true}, {"0.1.7", "idle", false}, {"0.2.1-alpha.1", "running", true},
	} {
		tl := r.LookupAt("list_agents", "dsh", c.release)
		if got := len(tl.ValidateValue(value(c.status))) == 0; got != c.valid {
			t.Errorf("release %q, status %q: valid %v, want %v", c.release, c.status, got, c.valid)
		}
		if c.valid {
			out, err := tl.RunRender(jsonv.MustParse(`{}`), value(c.status))
			if err != nil || out.At(0).Get("text").Str() != "a-1 ["+c.status+"] — review" {
				t.Errorf("release %q: render %s, %v", c.release, jsonv.Stringify(out), err)
			}
		}
	}
}

// workflow by release: from 0.1.7-alpha.2 the value says its kind and a
// background run renders its job; the pinned value (no kind) is rejected
// there, and a kind is rejected before.
func TestWorkflowByRelease(t *testing.T) {
	r, err := projector.NewRegistry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	args := jsonv.MustParse(`{"script":"return 1","meta":{"name":"fan-out"}}`)
	pinned := jsonv.MustParse(`{"runId":"r1","agentsStarted":2,"result":{"ok":true}}`)
	fg := jsonv.MustParse(`{"kind":"foreground","runId":"r1","agentsStarted":2,"result":{"ok":true}}`)
	bg := jsonv.MustParse(`{"kind":"background","jobId":"job-7","runId":"r1"}`)
	for _, c := range []struct {
		release                   string
		pinnedOK, kindOK, bgParam bool
	}{{"", true, false, false}, {"0.1.6-alpha.1", true, false, false}, {"0.1.7-alpha.2", false, true, true}, {"0.2.1-alpha.1", false, true, true}} {
		tl := r.LookupAt("workflow", "dsh", c.release)
		if got := len(tl.ValidateValue(pinned)) == 0; got != c.pinnedOK {
			t.Errorf("release %q: pinned value valid %v", c.release, got)
		}
		if got := len(tl.ValidateValue(fg)) == 0 && len(tl.ValidateValue(bg)) == 0; got != c.kindOK {
			t.Errorf("release %q: kinded values valid %v", c.release, got)
		}
		if got := tl.Parameters.Get("properties").Has("run_in_background"); got != c.bgParam {
			t.Errorf("release %q: run_in_background declared %v", c.release, got)
		}
		if !c.kindOK {
			continue
		}
		out, err := tl.RunRender(args, bg)
		if err != nil || out.At(0).Get("text").Str() != `workflow "fan-out" started in the background as job job-7. Its return value arrives with the completion notice; check on it with job_output, stop it with job_kill.` {
			t.Errorf("release %q: background render %s, %v", c.release, jsonv.Stringify(out), err)
		}
		fgOut, err1 := tl.RunRender(args, fg)
		pinOut, err2 := r.LookupAt("workflow", "dsh", "").RunRender(args, pinned)
		if err1 != nil || err2 != nil || jsonv.Stringify(fgOut) != jsonv.Stringify(pinOut) {
			t.Errorf("release %q: foreground render %s, pinned %s (%v, %v)", c.release, jsonv.Stringify(fgOut), jsonv.Stringify(pinOut), err1, err2)
		}
	}
	off := projector.Config{Plugins: jsonv.MustParse(`{"tool-workflow":{"enableRunInBackground":false}}`)}
	r2, err := projector.NewRegistry(off)
	if err != nil {
		t.Fatal(err)
	}
	if err := Register(r2); err != nil {
		t.Fatal(err)
	}
	if r2.LookupAt("workflow", "dsh", "0.1.7").Parameters.Get("properties").Has("run_in_background") {
		t.Error("run_in_background declared with enableRunInBackground false")
	}
	if r.LookupAt("workflow", "dsh", "").Parameters.Get("properties").Has("run_in_background") {
		t.Error("the pinned workflow's parameters were changed")
	}
}

// schedule by release: the Host's reminders from 0.2.0-rc.2 (a title,
// deliveryMode host, daily/weekly/cron, schedule_update); a call of
// schedule_update resolves at any release.
func TestScheduleByRelease(t *testing.T) {
	r, err := projector.NewRegistry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	hostDaily := jsonv.MustParse(`{"id":"s1","title":"Stand-up","prompt":"Post notes","scheduledAt":"2026-12-08T09:00:00Z","state":"scheduled","deliveryMode":"host","kind":"daily","time":"09:00:00","timeZone":"UTC"}`)
	local := jsonv.MustParse(`{"id":"s1","prompt":"Post notes","scheduledAt":"2026-12-08T09:00:00Z","state":"scheduled","deliveryMode":"session-local","kind":"after","afterSeconds":60}`)
	sub := jsonv.MustParse(`{"code":"subagent_session","message":"A delegated subagent cannot use reminders."}`)
	for _, c := range []struct {
		release string
		host    bool
	}{{"", false}, {"0.1.7", false}, {"0.2.0-rc.2", true}, {"0.2.1-alpha.1", true}} {
		tl := r.LookupAt("schedule_create", "dsh", c.release)
		for v, want := range map[*jsonv.Value]bool{&hostDaily: c.host, &sub: c.host, &local: !c.host} {
			if got := len(tl.ValidateValue(*v)) == 0; got != want {
				t.Errorf("release %q: %s valid %v, want %v", c.release, jsonv.Stringify(*v), got, want)
			}
		}
		if c.host {
			if vs := tl.ValidateArgs(jsonv.MustParse(`{"prompt":"p","title":"t","cron":{"expression":"0 9 * * 1-5","time_zone":"UTC"}}`)); len(vs) > 0 {
				t.Errorf("release %q: cron arguments rejected: %v", c.release, vs)
			}
			out, err := tl.RunRender(jsonv.Obj(), hostDaily)
			if err != nil || out.At(0).Get("text").Str() != jsonv.Stringify(hostDaily) {
				t.Errorf("release %q: render %s, %v", c.release, jsonv.Stringify(out), err)
			}
		}
		upd := r.LookupAt("schedule_update", "dsh", c.release)
		if upd == nil || len(upd.ValidateValue(jsonv.MustParse(`{"id":"s1","updated":false,"code":"schedule_ended"}`))) != 0 {
			t.Errorf("release %q: schedule_update %v", c.release, upd)
		} else if v, err := upd.CallView(jsonv.MustParse(`{"id":"s1","title":"New"}`)); err != nil || v.Get("title").Str() != "Update reminder" || v.Get("rawInput").Str() != "s1" {
			t.Errorf("release %q: schedule_update card %s, %v", c.release, jsonv.Stringify(v), err)
		}
	}
}
