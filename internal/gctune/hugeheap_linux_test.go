package gctune

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

const hugeProbeEnv = "DSH_REPLAY_HUGEHEAP_PROBE"

// advisedAt reports whether the mapping holding addr is advised for huge
// pages (VmFlags "hg" in /proc/self/smaps), and its size.
func advisedAt(t *testing.T, addr uintptr) (bool, uint64) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	var size uint64
	for sc.Scan() {
		line := sc.Text()
		if f := strings.Fields(line); len(f) > 0 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			lo, hi, _ := strings.Cut(f[0], "-")
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(addr) >= a && uint64(addr) < b
			size = b - a
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.Contains(line+" ", " hg "), size
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return false, 0
}

// TestHugeHeap: after HugeHeap the heap the next allocations come from is
// one mapping of at least the reserve, advised for huge pages; with
// DSH_REPLAY_HUGEPAGES=0 nothing is advised. Each case runs in a fresh
// process (the heap's state and the once are per process).
func TestHugeHeap(t *testing.T) {
	if mode := os.Getenv(hugeProbeEnv); mode != "" {
		HugeHeap()
		p := make([]byte, 8<<20)
		advised, size := advisedAt(t, uintptr(unsafe.Pointer(unsafe.SliceData(p))))
		if mode == "on" && (!advised || size < reserveBytes-8<<20) {
			t.Errorf("the allocation's mapping: advised %v, %d MB", advised, size>>20)
		}
		if mode == "off" && advised {
			t.Errorf("advised with DSH_REPLAY_HUGEPAGES=0")
		}
		return
	}
	for _, c := range []struct{ mode, env string }{{"on", ""}, {"off", "0"}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHugeHeap$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), hugeProbeEnv+"="+c.mode, "DSH_REPLAY_HUGEPAGES="+c.env)
		out, err := cmd.CombinedOutput()
		if strings.Contains(string(out), "--- SKIP: TestHugeHeap") {
			t.Skipf("%s", out)
		}
		if err != nil || !strings.Contains(string(out), "--- PASS: TestHugeHeap") {
			t.Errorf("%s: %v\n%s", c.mode, err, out)
		}
	}
}
