package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/clitest"
	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/internal/upstreamtest"
)

// execCLI runs the test binary as the CLI in its own process, bounded by
// the watchdog, and returns its exit code.
func execCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), clitest.Watchdog())
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "DSH_REPLAY_AS_CLI=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("dsh-replay %s did not return within %v: hung?\n%s%s", strings.Join(args, " "), clitest.Watchdog(), out.String(), errb.String())
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// fakeHost lays out a node_modules install of DSH 9.9.9 in a temp dir:
// the example todo plugin as @deepseek-ai/dsh-tool-todo (its todo_write
// replaces the port, its word_count is a tool no port has; todoSrc, when
// set, is its source instead, "-" for none), plus the packages in extra
// (name -> index.js).
func fakeHost(t *testing.T, todoSrc string, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	write := func(pkg, main, src string) {
		d := filepath.Join(dir, "node_modules", filepath.FromSlash(pkg))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		manifest := `{"name":"` + pkg + `","version":"9.9.9","type":"module","main":"` + main + `"}`
		if err := os.WriteFile(filepath.Join(d, "package.json"), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, main), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if todoSrc == "" {
		b, err := os.ReadFile(filepath.Join(pluginData, "todo", "src", "index.ts"))
		if err != nil {
			t.Fatal(err)
		}
		todoSrc = string(b)
	}
	if todoSrc != "-" {
		write("@deepseek-ai/dsh-tool-todo", "index.ts", todoSrc)
	}
	for name, src := range extra {
		write(name, "index.js", src)
	}
	return dir
}

const throwingPlugin = "import { defineTool } from '@deepseek-ai/dsh-tools'\nexport function apply(ctx) { throw new Error('needs a live host') }\n"

// The exit codes of --host, each run in its own process.
func TestHostExitCodes(t *testing.T) {
	good := fakeHost(t, "", nil)
	src, err := os.ReadFile(filepath.Join(pluginData, "todo", "src", "index.ts"))
	if err != nil {
		t.Fatal(err)
	}
	drifted := fakeHost(t, strings.Replace(string(src), "title: 'Update todo list'", "title: 'Update the todo list'", 1), nil)
	log := pluginData + "/logs/todo.jsonl"
	notInstall := t.TempDir()
	os.WriteFile(filepath.Join(notInstall, "package.json"), []byte(`{"name":"my-app"}`), 0o644)
	examples := filepath.Join(t.TempDir(), "examples.jsonl")
	os.WriteFile(examples, []byte(`{"tool":"todo_write","args":{"todos":[{"content":"a","status":"pending"}]},"value":null}`+"\n"+
		`{"tool":"word_count","args":{"text":"a b"},"value":{"words":2,"lines":1},"content":"text: 2 words, 1 lines"}`+"\n"), 0o644)
	wordOnly := filepath.Join(t.TempDir(), "words.jsonl")
	os.WriteFile(wordOnly, []byte(`{"tool":"word_count","args":{"text":"a b"},"value":{"words":2,"lines":1}}`+"\n"), 0o644)
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte("{\"tool\":\"x\"}\nnot json\n"), 0o644)
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{"verify with the host", []string{"verify", "--host", good, log}, ExitOK,
			[]string{"host: DSH 9.9.9 (node_modules " + good + "): 2 tools from 1 plugin, 1 replacing ports, 1 no port has", "host: tools no port has: word_count", "OK: 1 log, 4 calls: 4 verified"}, nil},
		{"show with the host", []string{"show", "--host", good, "--compact", "--color", "never", log}, ExitOK, []string{"todo_write", "word_count"},
			[]string{"dsh-replay: host DSH 9.9.9 (node_modules " + good + "): 2 tools from 1 plugin"}},
		{"no such directory", []string{"verify", "--host", filepath.Join(good, "nope"), log}, ExitUsage, nil, []string{"--host " + filepath.Join(good, "nope") + ": no such directory"}},
		{"not an install", []string{"verify", "--host", notInstall, log}, ExitUsage, nil, []string{"not a DSH or LasmeX install"}},
		{"a ported plugin that does not load", []string{"verify", "--host", fakeHost(t, throwingPlugin, nil), log}, ExitCannot, nil,
			[]string{"plugin @deepseek-ai/dsh-tool-todo did not load", "needs a live host", "the ports cover its tools"}},
		{"another plugin that does not load", []string{"verify", "--host", fakeHost(t, "", map[string]string{"@deepseek-ai/dsh-tool-live": throwingPlugin}), log}, ExitOK,
			[]string{"host: not loaded (any tools it defines keep their ports): @deepseek-ai/dsh-tool-live:", "needs a live host"}, nil},
		{"nothing loads", []string{"verify", "--host", fakeHost(t, "-", map[string]string{"@deepseek-ai/dsh-tool-live": throwingPlugin}), log}, ExitCannot, nil,
			[]string{"0 of 1 tool plugin candidates loaded", "needs a live host"}},
		{"drift", []string{"tools", "--host", drifted, "--examples", examples}, ExitDivergence,
			[]string{"host: DSH 9.9.9", "todo_write ", " differ ", "presentCall: host ", "word_count ", "no port", "1 differ"}, nil},
		{"no drift", []string{"tools", "--host", good, "--examples", wordOnly}, ExitOK, []string{"0 differ", "todo_write ", "no examples"}, nil},
		{"no examples", []string{"tools", "--host", good}, ExitOK, []string{"0 differ"}, []string{"no --examples given"}},
		{"examples that are not JSON", []string{"tools", "--host", good, "--examples", bad}, ExitUsage, nil, []string{bad + ":2:"}},
		{"examples without --host", []string{"tools", "--examples", wordOnly}, ExitUsage, nil, []string{"--examples goes with --host"}},
		{"tools --host with --plugin", []string{"tools", "--host", good, "--plugin", pluginData + "/todo"}, ExitUsage, nil, []string{"--plugin does not go with it"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := execCLI(t, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, c.code, out, errOut)
			}
			for _, s := range c.stdout {
				if !strings.Contains(out, s) {
					t.Errorf("stdout has no %q:\n%s", s, out)
				}
			}
			for _, s := range c.stderr {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr has no %q:\n%s", s, errOut)
				}
			}
		})
	}
}

// The JSON report names the host, its version and each tool it answered
// for.
func TestVerifyHostJSON(t *testing.T) {
	good := fakeHost(t, "", nil)
	out, errOut, code := verifyCLI(t, "", "--format", "json", "--host", good, pluginData+"/logs/todo.jsonl")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	r := parseNDJSON(t, out)
	b, _ := json.Marshal(r.summary["host"])
	want := `{"dir":"` + good + `","filledOptions":["tool-todo.allowParallelInProgress=true"],"layout":"node_modules","product":"DSH","tools":[` +
		`{"plugin":"@deepseek-ai/dsh-tool-todo","replacesPort":true,"tool":"todo_write","version":"9.9.9"},` +
		`{"plugin":"@deepseek-ai/dsh-tool-todo","replacesPort":false,"tool":"word_count","version":"9.9.9"}],"version":"9.9.9"}`
	if string(b) != want {
		t.Errorf("host:\n got %s\nwant %s", b, want)
	}
}

// TestVerifyRecordedWithHost: verify --host over each prepared tree
// (DSH_REPLAY_UPSTREAM, DSH_REPLAY_UPSTREAM_LASMEX; a subtest per host,
// skipped, saying so, without its tree) gives the recorded sessions of that host the verdicts the
// ports give, call for call and tool for tool, names the version loaded,
// and verifies the calls through the host's own tools; tools --host finds
// no tool that differs from its port on the worked examples.
func TestVerifyRecordedWithHost(t *testing.T) {
	for _, h := range upstreamtest.Hosts {
		t.Run(h.Name, func(t *testing.T) {
			tree := h.Tree(t)
			root, err := os.ReadFile(filepath.Join(tree, "package.json"))
			if err != nil {
				t.Fatal(err)
			}
			var rootPkg struct{ Name, Version string }
			json.Unmarshal(root, &rootPkg)
			host, product := h.Name, map[string]string{"dsh": "DSH", "lasmex": "LasmeX"}[h.Name]
			logs := filepath.Join(recordedData, host)
			args := []string{"--strict", "--format", "json", "--deterministic", logs}
			portOut, errOut, portCode := verifyCLI(t, "", args...)
			hostOut, hostErr, hostCode := verifyCLI(t, "", append([]string{"--host", tree}, args...)...)
			if hostCode != portCode {
				t.Fatalf("exit %d with the host, %d with the ports\n%s%s", hostCode, portCode, hostErr, errOut)
			}
			ports, withHost := parseNDJSON(t, portOut), parseNDJSON(t, hostOut)
			if ports.classes() != withHost.classes() {
				t.Errorf("findings: %q with the host, %q with the ports", withHost.classes(), ports.classes())
			}
			for _, k := range []string{"verdict", "calls", "verified", "diverged", "unverified", "checkedWithValues"} {
				if ports.summary[k] != withHost.summary[k] {
					t.Errorf("%s: %v with the host, %v with the ports", k, withHost.summary[k], ports.summary[k])
				}
			}
			pt, _ := json.Marshal(ports.summary["tools"])
			ht, _ := json.Marshal(withHost.summary["tools"])
			if string(pt) != string(ht) {
				t.Errorf("per tool:\nhost  %s\nports %s", ht, pt)
			}
			hi, _ := withHost.summary["host"].(map[string]any)
			if hi["product"] != product || hi["version"] != rootPkg.Version || hi["layout"] != "source tree" {
				t.Errorf("host: %v, want %s %s", hi, product, rootPkg.Version)
			}
			fromHost := map[string]bool{}
			tools, _ := hi["tools"].([]any)
			for _, x := range tools {
				fromHost[x.(map[string]any)["tool"].(string)] = true
			}
			through := 0.0
			for _, x := range withHost.summary["tools"].([]any) {
				row := x.(map[string]any)
				if fromHost[row["tool"].(string)] {
					through += row["verified"].(float64)
				}
			}
			if len(fromHost) == 0 || through == 0 {
				t.Errorf("0 of %v calls verified through the host's %d tools", withHost.summary["calls"], len(fromHost))
			}
			t.Logf("%s %s: %v calls, %.0f verified through its %d tools", product, rootPkg.Version, withHost.summary["calls"], through, len(fromHost))

			out, errOut, code := cli(t, nil, "tools", "--host", tree, "--examples", filepath.Join(sharedtest.Dir(t, "conformance"), "fs-examples.jsonl"),
				"--examples", filepath.Join(sharedtest.Dir(t, "conformance"), "other-examples.jsonl"))
			if code != ExitOK || !strings.Contains(out, " 0 differ,") || !strings.Contains(out, "host: "+product+" "+rootPkg.Version) {
				t.Errorf("tools --host: exit %d\n%s%s", code, out, errOut)
			}
			if strings.Contains(out, " 0 agree,") {
				t.Errorf("tools --host compared nothing:\n%s", out)
			}
		})
	}
}
