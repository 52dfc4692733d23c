package builtin_test

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
)

// Every verify and tools run builds the registry of ~60 tools first and
// uses a few of them, so registering must not build their schemas: the
// parameter catalogs and schema literals are parsed on first use
// (jsonv.Deferred). The budget is the first build's allocation in a fresh
// process, which does not move with the machine's load.
var registryBudget = struct{ bytes, allocs uint64 }{
	bytes:  128 << 10, // 89 KB now (the 0.1.6–0.2 and header-variant definitions added 16 KB); 475 KB when the schemas were parsed at registration
	allocs: 1100,      // 1,006 now (805 before the 0.1.6–0.2 and header-variant definitions); 1,886 when the schemas were parsed at registration
}

const probeEnv = "DSH_REPLAY_REGISTRY_PROBE"

func TestRegistryBuildBudget(t *testing.T) {
	if os.Getenv(probeEnv) == "1" {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r, err := builtin.Registry(projector.Config{})
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("registry-probe tools=%d bytes=%d allocs=%d\n", len(r.Tools()), after.TotalAlloc-before.TotalAlloc, after.Mallocs-before.Mallocs)
		return
	}
	// A fresh process: in this one other tests have already built what is
	// built once (the catalogs, OnceValue schemas).
	cmd := exec.Command(os.Args[0], "-test.run=^TestRegistryBuildBudget$", "-test.count=1")
	cmd.Env = append(os.Environ(), probeEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, out)
	}
	var tools int
	var bytes, allocs uint64
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "registry-probe ") {
			fmt.Sscanf(line, "registry-probe tools=%d bytes=%d allocs=%d", &tools, &bytes, &allocs)
		}
	}
	if tools < 20 {
		t.Fatalf("probe registered %d tools:\n%s", tools, out)
	}
	t.Logf("first registry build: %d tools, %d bytes in %d allocations", tools, bytes, allocs)
	if bytes > registryBudget.bytes || allocs > registryBudget.allocs {
		t.Errorf("building the registry allocates %d bytes in %d allocations (budget %d, %d): is a schema built at registration instead of on first use?",
			bytes, allocs, registryBudget.bytes, registryBudget.allocs)
	}
}
