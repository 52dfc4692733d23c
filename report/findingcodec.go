package report

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"strings"

	"github.com/dsh-replay/dsh-replay/replay"
)

// A finding spooled by a report that writes it only at the end (text): the
// index of its cluster, the length of the rest, then the fields a report
// prints, each length-prefixed. The length lets a reader pass over a
// finding it will not print (one shown in its cluster) without decoding it.

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// encodeFinding appends f with diff as its diff (and its cluster index) to
// b; scratch is reused for the fields and returned for the next call.
func encodeFinding(b, scratch []byte, f *replay.Finding, diff []string, cluster int) (_, _ []byte) {
	body := scratch[:0]
	body = binary.AppendVarint(body, int64(f.Sev))
	body = binary.AppendVarint(body, int64(f.Line))
	for _, s := range []string{string(f.Class), f.SubKind, f.File, f.CallID, f.Tool, f.Projector, f.Message, f.Pointer} {
		body = appendString(body, s)
	}
	body = binary.AppendUvarint(body, uint64(len(diff)))
	for _, d := range diff {
		body = appendString(body, d)
	}
	b = binary.AppendUvarint(b, uint64(cluster))
	b = binary.AppendUvarint(b, uint64(len(body)))
	return append(b, body...), body
}

var errSpoolCorrupt = errors.New("report spool: corrupt record")

// decodeFinding reads back what encodeFinding wrote; when skip says so
// for its cluster, the finding is passed over (f is left as it was).
func decodeFinding(r *bufio.Reader, f *replay.Finding, skip func(cluster int) bool) (cluster int, skipped bool, err error) {
	u := func() uint64 {
		if err != nil {
			return 0
		}
		var v uint64
		v, err = binary.ReadUvarint(r)
		return v
	}
	v := func() int64 {
		if err != nil {
			return 0
		}
		var x int64
		x, err = binary.ReadVarint(r)
		return x
	}
	str := func() string {
		n := u()
		if err != nil {
			return ""
		}
		if n <= 4096 {
			buf := make([]byte, n)
			_, err = io.ReadFull(r, buf)
			return string(buf)
		}
		// A long one grows as it is read: a corrupt length fails at the
		// end of the spool, not in one huge allocation.
		var b strings.Builder
		var m int64
		if m, err = io.CopyN(&b, r, int64(min(n, 1<<62))); err == nil && uint64(m) != n {
			err = errSpoolCorrupt
		}
		return b.String()
	}
	cluster = int(u())
	size := u()
	if err != nil {
		return cluster, false, err
	}
	if skip != nil && skip(cluster) {
		if size > 1<<62 {
			return cluster, false, errSpoolCorrupt
		}
		n, err := r.Discard(int(size))
		if err == nil && uint64(n) != size {
			err = errSpoolCorrupt
		}
		return cluster, true, err
	}
	f.Sev = replay.Severity(v())
	f.Line = int(v())
	f.Class = replay.Class(str())
	f.SubKind, f.File, f.CallID, f.Tool, f.Projector, f.Message, f.Pointer = str(), str(), str(), str(), str(), str(), str()
	n := u()
	f.Diff = nil
	for i := uint64(0); i < n && err == nil; i++ {
		f.Diff = append(f.Diff, str())
	}
	return cluster, false, err
}
