package shell

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// BenchmarkBashCall is a typical foreground bash call through replay's
// per-call work: render, presentCall and presentResult.
func BenchmarkBashCall(b *testing.B) {
	tools, err := Tools(projector.Config{})
	if err != nil {
		b.Fatal(err)
	}
	var bash *projector.Tool
	for _, t := range tools {
		if t.Name == "bash" {
			bash = t
		}
	}
	args := jsonv.MustParse(`{"command":"go test ./...","description":"Run the test suite","workdir":"src"}`)
	value := jsonv.MustParse(`{"kind":"foreground","exitCode":1,"signal":null,"timedOut":false,"aborted":false,"timeoutMs":120000,` +
		`"stdout":{"text":"ok  \tgithub.com/x/a\t0.012s\n--- FAIL: TestB (0.00s)\n    b_test.go:12: got 1, want 2\nFAIL\nFAIL\tgithub.com/x/b\t0.020s\n","truncated":false},` +
		`"stderr":{"text":"","truncated":false}}`)
	// port: the projectors and presenters themselves.
	b.Run("port", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			content, err := bash.Output.Render(args, value)
			if err != nil {
				b.Fatal(err)
			}
			if v := bash.PresentCall(args); v.IsUndefined() {
				b.Fatal("no call view")
			}
			if v := bash.PresentResult(args, projector.Result{Content: content}); v.IsUndefined() {
				b.Fatal("no result view")
			}
		}
	})
	// registry: through the contract's containment, lossless check and
	// soft validation, as replay runs them.
	b.Run("registry", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			content, err := bash.RunRender(args, value)
			if err != nil {
				b.Fatal(err)
			}
			if v, _ := bash.CallView(args); v.IsUndefined() {
				b.Fatal("no call view")
			}
			if v, _ := bash.ResultView(args, projector.Result{Content: content}); v.IsUndefined() {
				b.Fatal("no result view")
			}
		}
	})
}
