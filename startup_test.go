package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// Package initialisation runs before every command, --version included, so
// whatever a package builds at init every run pays for. The project's own
// packages build their schemas, regexps, templates and tables on first use
// (the plugin engine, the bundler, the reviewer and the web converter
// included); what is left is the dependencies' own init (zstd, lipgloss,
// goja's parser tables and google/pprof's regexps, esbuild's compatibility
// tables, bubbletea, kaptinlin's languages, crypto/tls). The budget counts
// the init work as the runtime reports it (GODEBUG=inittrace=1): bytes and
// allocations, which do not move with the machine's load. Init clock time
// is logged, not judged.
var initWorkBudget = struct {
	ownBytes, ownAllocs int // all of this module's packages together
	ownPackageBytes     int // any one of this module's packages
	allBytes            int // every package, dependencies included
}{
	ownBytes:        16 << 10,  // 7.5 KB now; 31 KB with the web converter's tables at init, 253 KB with schemas and templates
	ownAllocs:       200,       // 141 now; was 2,448
	ownPackageBytes: 2 << 10,   // the largest is shell's 1.1 KB (lazy schema holders); the HTML parser's tables were 13 KB
	allBytes:        768 << 10, // 618 KB now (goja's google/pprof 150 KB, bubbletea 93 KB, esbuild 100 KB); 78 KB without the plugin engine, reviewer and kaptinlin; 1.2 MB with go-cmp and our init work
}

type initRecord struct {
	pkg           string
	ms            float64
	bytes, allocs int
}

// parseInitTrace reads the runtime's "init PKG @T ms, C ms clock, B bytes,
// A allocs" lines.
func parseInitTrace(t *testing.T, stderr []byte) []initRecord {
	t.Helper()
	var out []initRecord
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[6] != "clock," || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		ms, err1 := strconv.ParseFloat(f[4], 64)
		b, err2 := strconv.Atoi(f[7])
		a, err3 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("unreadable inittrace line %q", sc.Text())
		}
		out = append(out, initRecord{f[1], ms, b, a})
	}
	return out
}

func TestInitWorkBudget(t *testing.T) {
	bin := buildBinary(t)
	for _, args := range [][]string{{"--version"}, {"tools"}} {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr.Bytes())
		}
		recs := parseInitTrace(t, stderr.Bytes())
		if len(recs) < 50 {
			t.Fatalf("%v: %d init records in the trace; the runtime's format changed?\n%s", args, len(recs), stderr.Bytes())
		}
		var ownBytes, ownAllocs, allBytes int
		var ms float64
		own := 0
		for _, r := range recs {
			allBytes += r.bytes
			ms += r.ms
			if !strings.HasPrefix(r.pkg, "github.com/dsh-replay/dsh-replay") {
				continue
			}
			own++
			ownBytes += r.bytes
			ownAllocs += r.allocs
			if r.bytes > initWorkBudget.ownPackageBytes {
				t.Errorf("%v: package %s allocates %d bytes at init (budget %d): build it on first use", args, r.pkg, r.bytes, initWorkBudget.ownPackageBytes)
			}
		}
		if own == 0 {
			t.Fatalf("%v: none of this module's packages in the trace", args)
		}
		t.Logf("%v: %d packages, init %.2f ms clock, %d bytes; this module's %d: %d bytes, %d allocs", args, len(recs), ms, allBytes, own, ownBytes, ownAllocs)
		if ownBytes > initWorkBudget.ownBytes || ownAllocs > initWorkBudget.ownAllocs {
			t.Errorf("%v: this module's packages allocate %d bytes in %d allocations at init (budget %d, %d)", args, ownBytes, ownAllocs, initWorkBudget.ownBytes, initWorkBudget.ownAllocs)
		}
		if allBytes > initWorkBudget.allBytes {
			t.Errorf("%v: package init allocates %d bytes in all (budget %d): a new dependency or table built at init?", args, allBytes, initWorkBudget.allBytes)
		}
	}
}
