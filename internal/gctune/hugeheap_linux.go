package gctune

import (
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// arenaBytes is the runtime's heap arena size on 64-bit Linux;
// reserveBytes is how much heap HugeHeap has mapped and advised.
const (
	arenaBytes   = 64 << 20
	reserveBytes = 48 << 20
)

var (
	hugeOnce  sync.Once
	hugeAsked atomic.Bool
)

// HugeHeapAsked reports whether HugeHeap has been called in this process.
func HugeHeapAsked() bool { return hugeAsked.Load() }

// HugeHeap asks the kernel to back the heap arena the program is
// allocating from with transparent huge pages, where the system leaves
// that to the program (THP "madvise", the usual default; under "always"
// it already does, under "never" this changes nothing). A run over many
// logs grows its heap to tens of MB, and every 4 KB page of it costs a
// page fault on first touch (5-20 µs on a virtual machine); a 2 MB page
// costs one. Only runs that will allocate that much ask: a command that
// touches a few hundred KB would pay for zeroing whole 2 MB pages.
// DSH_REPLAY_HUGEPAGES=0 turns it off.
func HugeHeap() {
	hugeOnce.Do(func() {
		hugeAsked.Store(true)
		if os.Getenv("DSH_REPLAY_HUGEPAGES") == "0" {
			return
		}
		// The runtime maps its heap a few MB at a time, and a new mapping
		// does not keep the advice: a large object, never touched, makes
		// it map reserveBytes at once; advised, then collected, that span
		// is what the next allocations come from.
		p := make([]byte, reserveBytes)
		start := uintptr(unsafe.Pointer(unsafe.SliceData(p)))
		from := start &^ (arenaBytes - 1)
		// Advice only: an error (an old kernel, no THP) leaves the heap as it was.
		syscall.Syscall(syscall.SYS_MADVISE, from, start+reserveBytes-from, unix.MADV_HUGEPAGE)
		runtime.KeepAlive(p)
		runtime.GC()
	})
}
