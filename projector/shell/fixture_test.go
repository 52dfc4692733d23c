package shell

import (
	"strconv"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// TestFixturePTYTools replays the upstream pty-tools snapshot sessions
// (deployed with tool-terminal maxResultBytes: 64). terminal_send persists
// its whole foreground value as meta, so its content is checked end to end:
// finalizeContent(render({kind: foreground, ...meta})) must equal the log.
func TestFixturePTYTools(t *testing.T) {
	cfg := projector.Config{Plugins: jsonv.MustParse(`{"tool-terminal":{"maxResultBytes":64}}`)}
	sends := 0
	for _, example := range []string{"headless-agent", "acp-agent"} {
		path := sharedtest.Dir(t, "fixtures", "lasmex", "examples", example, "tests", "snapshots", "pty-tools", "session.jsonl")
		args := map[string]jsonv.Value{}
		names := map[string]string{}
		for i, ev := range loadLines(t, path) {
			data := ev.Get("data")
			switch ev.Get("type").Str() {
			case "tool/call":
				a, err := jsonv.ParseString(data.Get("arguments").Str())
				if err != nil {
					a = jsonv.Value{}
				}
				args[data.Get("callId").Str()], names[data.Get("callId").Str()] = a, data.Get("name").Str()
			case "tool/result":
				block := data.Get("message").Get("content").At(0)
				id := block.Get("toolCallId").Str()
				tool := lookup(t, cfg, names[id])
				where := example + ":" + strconv.Itoa(i+1)
				r := projector.Result{Content: block.Get("content"), IsError: block.Get("isError").True(), Meta: data.Get("meta")}
				if _, err := tool.CallView(args[id]); err != nil {
					t.Errorf("%s %s presentCall: %v", where, tool.Name, err)
				}
				if _, err := tool.ResultView(args[id], r); err != nil {
					t.Errorf("%s %s presentResult: %v", where, tool.Name, err)
				}
				// Finalized content is a fixed point of the finalizer.
				if got := FinalizeContent(cfg, tool.Name, args[id], jsonv.Value{}, r); !jsonv.Equal(got, r.Content) {
					t.Errorf("%s %s: finalizer changes recorded content %s to %s", where, tool.Name, r.Content, got)
				}
				if tool.Name != "terminal_send" || r.IsError || !r.Meta.IsObject() {
					continue
				}
				sends++
				value := jsonv.Obj(jsonv.M("kind", jsonv.Str("foreground")))
				for _, m := range r.Meta.Members() {
					value = value.With(m.Key, m.Value)
				}
				content, err := tool.RunRender(args[id], value)
				if err != nil {
					t.Fatalf("%s render: %v", where, err)
				}
				content = FinalizeContent(cfg, tool.Name, args[id], value, projector.Result{Content: content})
				if !jsonv.Equal(content, r.Content) {
					t.Errorf("%s terminal_send content:\n got  %s\n want %s", where, content, r.Content)
				}
				if meta, _, err := tool.RunPresentationMeta(args[id], value); err != nil || !jsonv.Equal(meta, r.Meta) {
					t.Errorf("%s terminal_send meta: got %s, want %s", where, meta, r.Meta)
				}
			}
		}
	}
	if sends == 0 {
		t.Fatal("no terminal_send result replayed")
	}
	t.Logf("%d terminal_send results reproduced from fixtures", sends)
}
