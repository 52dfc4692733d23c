package shell

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// FuzzTools runs every projector, presenter and finalizer of the family on
// arbitrary arguments, values and content: no panic may escape (a thrown
// render is fine, a port panic is not), and the byte caps must hold.
func FuzzTools(f *testing.F) {
	for _, rec := range loadLines(f, "testdata/upstream-vectors.jsonl")[:200] {
		f.Add(jsonv.Stringify(rec.Get("args")), jsonv.Stringify(rec.Get("value")), jsonv.Stringify(rec.Get("resultInput").Get("content")), uint16(64), rec.Get("resultInput").Get("isError").True())
	}
	f.Add(`{"command":"x","description":"y"}`, `{"kind":"foreground"}`, `[{"type":"text","text":"\n[exit code: 1]"}]`, uint16(200), false)
	f.Add(`""`, `null`, `[null]`, uint16(0), true)
	f.Fuzz(func(t *testing.T, argsText, valueText, contentText string, capBytes uint16, isError bool) {
		args, err1 := jsonv.ParseString(argsText)
		value, err2 := jsonv.ParseString(valueText)
		content, err3 := jsonv.ParseString(contentText)
		if err1 != nil || err2 != nil || err3 != nil {
			return
		}
		maxBytes := fuzzCaps[int(capBytes)%len(fuzzCaps)]
		for _, cfg := range []projector.Config{
			{Plugins: jsonv.Obj(jsonv.M("tool-terminal", jsonv.Obj(jsonv.M("maxResultBytes", jsonv.Int(maxBytes)))))},
			{Plugins: jsonv.MustParse(`{"tool-bash-persistent":{}}`), Services: jsonv.MustParse(`{"shell":{"sandboxMode":"read-only"}}`)},
		} {
			for _, tool := range cachedTools(t, cfg) {
				checkContained(t, tool, "render", func() error { _, err := tool.RunRender(args, value); return err })
				checkContained(t, tool, "presentationMeta", func() error { _, _, err := tool.RunPresentationMeta(args, value); return err })
				checkContained(t, tool, "presentCall", func() error { _, err := tool.CallView(args); return err })
				r := projector.Result{Content: content, IsError: isError}
				checkContained(t, tool, "presentResult", func() error { _, err := tool.ResultView(args, r); return err })
				var fin jsonv.Value
				checkContained(t, tool, "finalizeContent", func() (err error) {
					defer func() {
						if p := recover(); p != nil {
							err = &projector.Failure{Panic: true, Message: "finalizeContent panicked"}
						}
					}()
					fin = FinalizeContent(cfg, tool.Name, args, value, r)
					return nil
				})
				if strings.HasPrefix(tool.Name, "terminal_") {
					if s, ok := singleText(fin); ok && cfg.PluginOption("tool-terminal", "maxResultBytes").IsDefined() && len(s) > maxBytes {
						t.Fatalf("%s finalized %d bytes over the %d cap", tool.Name, len(s), maxBytes)
					}
				}
			}
		}
		if s, ok := singleText(content); ok {
			body, _ := ParseExitStatus(s)
			if !strings.HasPrefix(s, body) {
				t.Fatalf("ParseExitStatus body %q is not a prefix of %q", body, s)
			}
			for _, m := range []int{0, 1, 5, maxBytes} {
				for _, got := range []string{retainHead(s, m), retainTail(s, m), boundTerminalText(s, maxBytes)} {
					if !utf8.ValidString(got) && !jsonv.HasLoneSurrogate(got) {
						t.Fatalf("retained text is not UTF-8: %q", got)
					}
				}
				if h := retainHead(s, m); len(h) > m && len(jsonv.ToWellFormed(s)) > m {
					t.Fatalf("retainHead(%q, %d) = %d bytes", s, m, len(h))
				}
				if tl := retainTail(s, m); len(tl) > m && len(jsonv.ToWellFormed(s)) > m {
					t.Fatalf("retainTail(%q, %d) = %d bytes", s, m, len(tl))
				}
			}
		}
	})
}

// fuzzCaps are the terminal byte caps the fuzzer picks from (tools are
// built once per configuration: schema compilation is not what is fuzzed).
var fuzzCaps = []int{64, 65, 70, 83, 100, 128, 200, 1000}

func checkContained(t *testing.T, tool *projector.Tool, what string, run func() error) {
	t.Helper()
	var f *projector.Failure
	if err := run(); errors.As(err, &f) && f.Panic {
		t.Fatalf("%s %s panicked: %s", tool.Name, what, f.Message)
	}
}
