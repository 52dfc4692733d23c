//go:build !slim

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
	// Schemas compile on first use: the error surfaces there, from every
	// goroutine that gets there, and fails the value instead of passing it.
	if err := r.Add(bad); err != nil {
		t.Fatalf("Add compiles eagerly again: %v", err)
	}
	const want = `tool "bad": unsupported JSON schema: schema.minLength is not a supported keyword (subset: type/oneOf/properties/required/additionalProperties/items/enum/const + annotations)`
	var bwg sync.WaitGroup
	for i := 0; i < 4; i++ {
		bwg.Add(1)
		go func() {
			defer bwg.Done()
			if vs := r.Lookup("bad").ValidateValue(jsonv.Str("x")); len(vs) != 1 || vs[0].Message != want {
				t.Errorf("broken schema at first use: %v", vs)
			}
		}()
	}
	bwg.Wait()
	if err := bad.SchemaErr(); err == nil || err.Error() != want {
		t.Errorf("SchemaErr = %v", err)
	}
	if err := r.CheckSchemas(); err == nil || err.Error() != want {
		t.Errorf("CheckSchemas = %v", err)
	}
	if _, err := r.Replace(&projector.Tool{Name: "bad2", Parameters: jsonv.MustParse(`{"type":"object","minProperties":1}`)}); err == nil || !strings.Contains(err.Error(), `tool "bad2": unsupported JSON schema`) {
		t.Errorf("Replace of a broken plugin definition: %v", err)
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
	if strings.Join(names, ",") != "a,b,bad" {
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
