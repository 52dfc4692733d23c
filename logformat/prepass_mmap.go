//go:build unix

package logformat

import (
	"bytes"
	"os"
	"syscall"
)

// scanReplacementsMapped is the prepass over a plain log through memory
// mapped windows: no copy into user space, and the window is unmapped as the
// scan moves on, so resident memory stays bounded. ok is false when the file
// is not a plain session log or cannot be mapped (the caller then reads it).
func scanReplacementsMapped(f *os.File, maxLine int) (map[string]int, bool) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() == 0 {
		return nil, false
	}
	size := st.Size()
	const window = 8 << 20
	head := make([]byte, 4)
	if n, _ := f.ReadAt(head, 0); n < 4 || isZstdMagic(head) {
		return nil, false
	}
	views := map[string]int{}
	var rec record
	page := int64(os.Getpagesize())
	ml := int64(maxLine) + 1

	// The header decides the format.
	hn := min(size, ml)
	hm, err := syscall.Mmap(int(f.Fd()), 0, int(hn), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, false
	}
	nl := bytes.IndexByte(hm, '\n')
	probe := &reader{noticeN: map[string]int{}}
	if nl < 0 || probe.header(hm[:nl]) != nil {
		syscall.Munmap(hm)
		return nil, false
	}
	syscall.Munmap(hm)
	format := probe.format

	// Hits are searched in [scan, scan+window); the mapping reaches one
	// record length either side so that the hit's whole line is visible.
	next := int64(nl + 1) // absolute offset of the next line to look at
	for scan := int64(0); scan < size && next < size; scan += window {
		end := min(size, scan+window)
		if next >= end {
			continue
		}
		mapStart := next - next%page
		mapEnd := min(size, end+ml)
		m, err := syscall.Mmap(int(f.Fd()), mapStart, int(mapEnd-mapStart), syscall.PROT_READ, syscall.MAP_SHARED)
		if err != nil {
			return nil, false
		}
		// Lines that start before end; the last one may run into the margin.
		p, hi := int(next-mapStart), int(end-mapStart)
		for p < hi {
			e := bytes.IndexByte(m[p:], '\n')
			if e < 0 {
				e = len(m) - p
			}
			line := m[p : p+e]
			if mayBeReplacement(format, line) {
				decodeLine(format, line, &rec)
				if rec.bad == "" && rec.typ == "tool/result" && rec.replace {
					if id := replacementCallID(rec); id != "" {
						views[id]++
					}
				}
			}
			p += e + 1
		}
		next = mapStart + int64(p)
		syscall.Munmap(m)
	}
	return views, true
}
