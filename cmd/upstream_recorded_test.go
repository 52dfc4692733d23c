package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/upstreamtest"
)

// recordedPlugins are the upstream packages whose tools the recorded
// sessions call (run_code is the tools package's own transport).
var recordedPlugins = []string{
	"fs/tool-fs", "fs/tool-fs-search", "fs/tool-str-replace-editor", "shell/tool-bash", "jobs/tool-jobs",
	"todo/tool-todo", "web/tool-web", "goal/tool-goal", "terminal/tool-terminal", "plan/plan-mode",
	"interaction/tool-ask-user", "subagent/tool-subagent", "core/tools",
}

// TestVerifyRecordedWithUpstreamPlugins: with upstream's own plugins
// loaded from each prepared tree it is given (DSH_REPLAY_UPSTREAM,
// DSH_REPLAY_UPSTREAM_LASMEX; a subtest per host, skipped, saying so,
// without its tree), every call of theirs in that host's recorded sessions
// verifies through their JavaScript projectors, each plugin alone and all
// together: the real code, in the sandbox, reproduces what the real host
// recorded.
func TestVerifyRecordedWithUpstreamPlugins(t *testing.T) {
	for _, h := range upstreamtest.Hosts {
		t.Run(h.Name, func(t *testing.T) { verifyRecordedWithUpstreamPlugins(t, h.Tree(t), h.Name) })
	}
}

func verifyRecordedWithUpstreamPlugins(t *testing.T, tree, host string) {
	// The options the recorder ran these plugins with (the glob sampling
	// switch, the todo policy, plan mode's section and the subagent
	// provider are required: upstream has no default).
	cfg := filepath.Join(t.TempDir(), "config.json")
	conf := `{"host":"` + host + `","plugins":{"tool-fs-search":{"sampleOverCapGlobResults":false},"tool-todo":{"allowParallelInProgress":false},` +
		`"plan-mode":{"section":"You are in plan mode: plan, then call exit_plan_mode."},"tool-subagent":{"provider":"spawn","enableRunInBackground":true}}}`
	if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	logs := filepath.Join(recordedData, host)
	check := func(t *testing.T, plugins []string) (calls, through float64) {
		args := []string{"--strict", "--format", "json", "--deterministic", "--config", cfg}
		for _, p := range plugins {
			args = append(args, "--plugin", filepath.Join(tree, "packages", p))
		}
		out, errOut, code := verifyCLI(t, "", append(args, logs)...)
		if code != cmdutil.ExitOK {
			t.Fatalf("exit %d\n%s%s", code, out, errOut)
		}
		r := parseNDJSON(t, out)
		if len(r.findings) != 0 {
			t.Errorf("findings: %s", r.classes())
		}
		// Each plugin tool replaced its port, and the recordings call some.
		replaced := map[string]bool{}
		for _, pt := range r.summary["pluginTools"].([]any) {
			s := pt.(string)
			if !strings.HasSuffix(s, ", replacing the Go port") {
				t.Errorf("%s", s)
			}
			replaced[strings.Fields(s)[0]] = true
		}
		called := 0
		for _, tr := range r.summary["tools"].([]any) {
			row := tr.(map[string]any)
			if !replaced[row["tool"].(string)] {
				continue
			}
			called++
			through += row["verified"].(float64)
			if row["verified"].(float64) == 0 || row["diverged"].(float64) != 0 || row["unverified"].(float64) != 0 {
				t.Errorf("%s: %v", row["tool"], row)
			}
		}
		if called == 0 {
			t.Errorf("the recordings call none of %v", replaced)
		}
		t.Logf("%d plugin tools called: %v", called, r.summary["verdict"])
		return r.summary["calls"].(float64), through
	}
	for _, p := range recordedPlugins {
		t.Run(p, func(t *testing.T) { check(t, []string{p}) })
	}
	t.Run("all", func(t *testing.T) {
		calls, through := check(t, recordedPlugins)
		fmt.Printf("recorded sessions (%s): %.0f calls, %.0f of them verified through upstream's own plugins\n", host, calls, through)
	})
}
