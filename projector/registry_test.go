package projector_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/dsh-replay/dsh-replay/logformat/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

func TestRegistry(t *testing.T) {
	r, err := projector.NewRegistry(projector.Config{}, func(cfg projector.Config) []*projector.Tool {
		return []*projector.Tool{{Name: "b"}, {Name: "a", Parameters: projector.ParamSchema()}}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Add(&projector.Tool{Name: "a"}); err == nil || !strings.Contains(err.Error(), `"a" registered twice`) {
		t.Errorf("duplicate: %v", err)
	}
	if err := r.Add(&projector.Tool{}); err == nil {
		t.Error("nameless tool accepted")
	}
	bad := &projector.Tool{Name: "bad", Output: &projector.Output{Schema: jsonv.MustParse(`{"type":"string","minLength":1}`)}}
	if err := r.Add(bad); err == nil || !strings.Contains(err.Error(), "schema.minLength is not a supported keyword") {
		t.Errorf("unsupported schema: %v", err)
	}
	calls := 0
	r.AddMatcher(func(name string) *projector.Tool {
		calls++
		if strings.HasPrefix(name, "mcp__") {
			return &projector.Tool{Name: name, Parameters: projector.ParamSchema(projector.Param{Name: "q", Type: "string", Required: true})}
		}
		return nil
	})
	var names []string
	for _, tl := range r.Tools() {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "a,b" {
		t.Errorf("Tools() = %v", names)
	}
	if r.Lookup("zzz") != nil || r.Lookup("a") == nil {
		t.Error("static lookup")
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tl := r.Lookup("mcp__srv__tool")
			if tl == nil || len(tl.ValidateArgs(jsonv.MustParse(`{}`))) != 1 {
				t.Error("dynamic lookup")
			}
		}()
	}
	wg.Wait()
	r.Lookup("zzz")
	if calls != 2 {
		t.Errorf("matchers ran %d times, want once per name", calls)
	}
}

func TestValidateConcurrently(t *testing.T) {
	tool := outputTool(t, readSchema)
	good := jsonv.MustParse(`{"path":"a","offset":1,"lines":[{"number":1,"text":"x"}],"totalLines":1}`)
	bad := jsonv.MustParse(`{"path":"a","offset":1.5,"lines":[],"totalLines":1}`)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				if len(tool.ValidateValue(good)) != 0 || len(tool.ValidateValue(bad)) != 1 {
					t.Error("verdict changed under concurrency")
					return
				}
			}
		}()
	}
	wg.Wait()
}
