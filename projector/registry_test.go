package projector_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dsh-replay/dsh-replay/internal/clitest"
	"github.com/dsh-replay/dsh-replay/projector/builtin"

	"github.com/dsh-replay/dsh-replay/jsonv"
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

// TestRegistryNoHang looks up unknown, static, host-specific and dynamic
// names on every path (host pinned and not, each host, concurrently) under
// a watchdog: a lookup that takes the registry's lock twice deadlocks, and
// this test then fails with the goroutines' stacks instead of hanging.
func TestRegistryNoHang(t *testing.T) {
	for _, pinned := range []string{"", "dsh", "lasmex"} {
		r, err := builtin.Registry(projector.Config{Host: pinned})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			var wg sync.WaitGroup
			for i := 0; i < 4; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for _, host := range []string{"", "dsh", "lasmex", "other"} {
						for _, name := range []string{"no_such_tool", "read", "subagent", "mcp__srv__tool", "agent_explore", ""} {
							r.LookupFor(name, host)
							r.LookupAt(name, host, "0.1.7")
							r.Lookup(name)
							for _, team := range []bool{false, true} {
								rec := projector.Recorded{Name: name, Host: host, Team: team, Args: jsonv.Obj(), ExecArgs: jsonv.Obj(),
									HasResult: true, IsError: true, Error: jsonv.MustParse(`{"name":"ToolNotFoundError","code":"UNKNOWN_TOOL"}`),
									Content: projector.TextContent(projector.UnknownToolText(name))}
								r.Resolve(&rec)
								r.CheckArgs(&rec)
							}
						}
					}
				}()
			}
			wg.Wait()
		}()
		select {
		case <-done:
		case <-time.After(clitest.Watchdog()):
			t.Fatalf("host %q: registry lookups did not return\n%s", pinned, clitest.Goroutines())
		}
		if r.LookupFor("no_such_tool", "dsh") != nil || r.Lookup("no_such_tool") != nil {
			t.Errorf("host %q: an unknown name resolved", pinned)
		}
		if r.LookupFor("read", "dsh") == nil || r.LookupFor("read", "lasmex") == nil {
			t.Errorf("host %q: read not found", pinned)
		}
	}
}

// TestRegistryLockNotReentered checks the locking rule by reading the
// source: a method of Registry that takes r.mu calls no other method of the
// registry (which might take it again).
func TestRegistryLockNotReentered(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "registry.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || fn.Body == nil {
			continue
		}
		locks := false
		var calls []string
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if inner, ok := sel.X.(*ast.SelectorExpr); ok && inner.Sel.Name == "mu" && sel.Sel.Name == "Lock" {
				locks = true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == fn.Recv.List[0].Names[0].Name {
				calls = append(calls, sel.Sel.Name)
			}
			return true
		})
		if locks {
			checked++
			if len(calls) > 0 {
				t.Errorf("%s takes r.mu and calls %v of the registry", fn.Name.Name, calls)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no method of registry.go takes r.mu: the check checks nothing")
	}
}
