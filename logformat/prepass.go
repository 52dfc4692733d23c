package logformat

import (
	"bufio"
	"bytes"
	"io"
	"runtime"
)

// scanReplacements is the prepass that lets pruned replacement copies of a
// result (the smaller copies compaction/prune writes) be attached to their call even though
// they come turns later: it counts, per call id, the replacement tool/result
// records of a file. Only lines that mayBeReplacement are decoded, so the
// pass runs at memory speed. Errors are left to the main pass.
func scanReplacements(path string, maxLine int) (map[string]int, error) {
	f, st, err := openRegular(path, "")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return scanReplacementsIn(path, f, st.Size(), maxLine, nil)
}

// scanReplacementsIn is scanReplacements over an open file of the given
// size, read by offset (f's own offset is left for the main pass);
// reserve is Options.Reserve.
func scanReplacementsIn(path string, f io.ReaderAt, size int64, maxLine int, reserve func(int64) func()) (map[string]int, error) {
	var err error
	br := bufio.NewReaderSize(io.NewSectionReader(f, 0, size), peekBufSize(size))
	magic, _ := br.Peek(4)
	var src io.Reader = br
	var zs *zstdSource
	if isZstdMagic(magic) {
		if zs, err = newZstdSource(br, reserve); err != nil {
			return nil, err
		}
		defer zs.Close()
		src = zs
	}
	// A modest buffer that stays in cache: the scan is bound by memory, and
	// reading into hot memory beats mapping the file on virtual machines.
	bufSize := min(readBufSize(size, zs != nil), 1<<20)
	ls := newLineSource(src, zs, bufSize, maxLine)
	first, headerEnd, err := ls.next()
	if err != nil {
		return nil, err
	}
	probe := &reader{file: path, noticeN: map[string]int{}}
	if err := probe.header(first); err != nil {
		return nil, err
	}
	// A large plain file is scanned in two halves at once (the counts do not
	// depend on order), so the pass takes half the time before the main one.
	if zs == nil && size >= prepassSplitBytes && runtime.GOMAXPROCS(0) > 1 {
		if mid, ok := lineBoundary(f, size/2, size, maxLine); ok && mid > headerEnd {
			var second map[string]int
			done := make(chan struct{})
			go func() {
				defer close(done)
				second = scanViews(probe.format, newLineSource(io.NewSectionReader(f, mid, size-mid), nil, bufSize, maxLine))
			}()
			views := scanViews(probe.format, newLineSource(io.NewSectionReader(f, headerEnd, mid-headerEnd), nil, bufSize, maxLine))
			<-done
			for id, n := range second {
				views[id] += n
			}
			return views, nil
		}
	}
	return scanViews(probe.format, ls), nil
}

// scanReplacementsBytes is scanReplacements over a log held in memory,
// scanned where it lies.
func scanReplacementsBytes(path string, data []byte, maxLine int, reserve func(int64) func()) (map[string]int, error) {
	if isZstdMagic(data[:min(4, len(data))]) || len(data) > maxLine {
		return scanReplacementsIn(path, bytes.NewReader(data), int64(len(data)), maxLine, reserve)
	}
	if !containsReplace(data) {
		// No line can be one (mayBeReplacement), whatever the header
		// says: the main pass reads it, once.
		return map[string]int{}, nil
	}
	ls := newBytesSource(data, maxLine)
	first, _, err := ls.next()
	if err != nil {
		return nil, err
	}
	probe := &reader{file: path, noticeN: map[string]int{}}
	if err := probe.header(first); err != nil {
		return nil, err
	}
	return scanViews(probe.format, ls), nil
}

// prepassSplitBytes is the size from which the prepass runs in two halves.
const prepassSplitBytes = 16 << 20

// lineBoundary is the offset just past the first newline at or after from
// (false when there is none within a record's length).
func lineBoundary(f io.ReaderAt, from, size int64, maxLine int) (int64, bool) {
	buf := make([]byte, 64<<10)
	for off := from; off < size && off-from <= int64(maxLine); {
		n, err := f.ReadAt(buf, off)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return off + int64(i) + 1, true
		}
		if err != nil {
			return 0, false
		}
		off += int64(n)
	}
	return 0, false
}

// scanViews counts the replacement tool/result records of the lines ls gives
// (errors are left to the main pass).
func scanViews(format lineFormat, ls *lineSource) map[string]int {
	views := map[string]int{}
	var rec record
	for {
		err := ls.fill()
		buf := ls.buf[ls.r:ls.w]
		last := bytes.LastIndexByte(buf, '\n')
		if last >= 0 {
			chunk := buf[:last+1]
			for p := 0; p < len(chunk); {
				e := p + bytes.IndexByte(chunk[p:], '\n')
				if line := chunk[p:e]; mayBeReplacement(format, line) {
					decodeLine(format, decodeShapes, line, &rec)
					if rec.bad == "" && rec.typ == "tool/result" && rec.replace {
						if id := replacementCallID(rec); id != "" {
							views[id]++
						}
					}
				}
				p = e + 1
			}
			ls.r += last + 1
		}
		if err != nil {
			break
		}
	}
	return views
}

// mayBeReplacement is a cheap test for a line that may be a replacement
// tool/result. Writers put "type" first and "surfaceOp" last in an event, so
// for a session log only tool/result lines are looked at, and only their
// tail; other layouts fall back to a search for "replace".
func mayBeReplacement(format lineFormat, line []byte) bool {
	const typePrefix = `{"type":"`
	const resultPrefix = `{"type":"tool/result"`
	if format == fmtLog && bytes.HasPrefix(line, []byte(typePrefix)) {
		if !bytes.HasPrefix(line, []byte(resultPrefix)) {
			return false
		}
		tail := line[max(0, len(line)-200):]
		if i := bytes.LastIndex(tail, []byte(`"surfaceOp"`)); i >= 0 {
			return containsReplace(tail[i:])
		}
	}
	return containsReplace(line)
}

var replaceOp = []byte(`"replace"`)

// containsReplace is bytes.Contains(b, replaceOp), by its "pl": a whole
// log is searched for it before it is read (where bytes.Index, led by the
// quote, ran at 3 GB/s), and "pl" comes once in 500 bytes of a log.
func containsReplace(b []byte) bool { return containsPair(b, replaceOp, len(`"re`)) }

func replacementCallID(rec record) string {
	d := rec.data
	if msg := d.Get("message"); msg.IsDefined() {
		return msg.Path("source", "callId").Str()
	}
	return d.Get("callId").Str()
}
